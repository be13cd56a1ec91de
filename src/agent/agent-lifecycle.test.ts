import { describe, expect, it } from "vitest";
import { AgentLifecycles } from "./agent-lifecycle.js";

describe("AgentLifecycles", () => {
  it("fires revoke, disconnect and permission change on every hook, isolating one that throws", async () => {
    const calls: string[] = [];
    const errors: string[] = [];
    const lifecycles = new AgentLifecycles((hook, error) =>
      errors.push(`${hook}:${(error as Error).message}`),
    );
    lifecycles.register({
      onRevoke: () => {
        throw new Error("broken");
      },
    });
    lifecycles.register({
      onRevoke: async (player) => {
        calls.push(`revoke ${player}`);
      },
      onDisconnect: (player) => {
        calls.push(`disconnect ${player}`);
      },
      onPermissionChange: (player) => {
        calls.push(`permission ${player}`);
      },
    });
    await lifecycles.revoke("p1");
    await lifecycles.disconnect("p1");
    await lifecycles.permissionChange("p2");
    expect(calls).toEqual(["revoke p1", "disconnect p1", "permission p2"]);
    expect(errors).toEqual(["onRevoke:broken"]);
  });
});
