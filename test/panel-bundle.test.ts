import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
// @ts-expect-error: the build script is plain JavaScript
import { buildPanel, PANEL_BUNDLE } from "../scripts/build-panel.js";

/** The shipped panel bundle is what the client source builds to now: `npm run build:panel` after a change. */
describe("the web panel bundle", () => {
  it("matches a fresh build of src/host/panel/client (run npm run build:panel when it does not)", async () => {
    const fresh: string = await buildPanel({ write: false });
    expect(fresh === readFileSync(PANEL_BUNDLE as string, "utf8")).toBe(true);
    expect(fresh).not.toMatch(/from\s*["']node:/u);
  }, 60_000);
});
