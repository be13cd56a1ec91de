import { describe, expect, it } from "vitest";
import { type Dialog, validateDialog } from "./dialog.js";

const launcher = (change: Partial<Dialog> = {}): Dialog =>
  ({
    type: "multi_action",
    title: "System",
    pause: false,
    afterAction: "wait_for_response",
    inputs: [
      { type: "text", key: "text", label: "Ask", maxLength: 1000, multiline: { maxLines: 6, height: 80 } },
    ],
    actions: [{ label: "Send", action: { type: "dynamic/custom", id: "system:ask" } }],
    ...change,
  }) as Dialog;

const error = (dialog: Dialog): string | undefined => {
  const result = validateDialog(dialog);
  return result.success ? undefined : result.error;
};

describe("validateDialog", () => {
  it("accepts the launcher as System sends it", () => {
    expect(error(launcher())).toBeUndefined();
  });

  it("rejects pause with after_action none (pause is true unless set)", () => {
    const { pause: _pause, ...unpaused } = launcher();
    expect(error({ ...unpaused, afterAction: "none" })).toMatch(/pause/);
    expect(error(launcher({ pause: false, afterAction: "none" }))).toBeUndefined();
  });

  it("rejects a command template without variables", () => {
    const dialog = launcher({
      actions: [{ label: "Run", action: { type: "dynamic/run_command", template: "/system help" } }],
    } as Partial<Dialog>);
    expect(error(dialog)).toMatch(/without variables/);
    const templated = launcher({
      actions: [{ label: "Run", action: { type: "dynamic/run_command", template: "/system $(text)" } }],
    } as Partial<Dialog>);
    expect(error(templated)).toBeUndefined();
  });

  it("rejects an initial text longer than max_length (32 when unset)", () => {
    const input = (initial: string, maxLength?: number) =>
      launcher({
        inputs: [
          { type: "text", key: "t", label: "T", initial, ...(maxLength === undefined ? {} : { maxLength }) },
        ],
      });
    expect(error(input("x".repeat(33)))).toMatch(/longer than max_length 32/);
    expect(error(input("x".repeat(32)))).toBeUndefined();
    expect(error(input("x".repeat(11), 10))).toMatch(/longer/);
  });

  it("rejects bad keys, duplicate keys, empty actions, two initial options and sizes out of range", () => {
    expect(error(launcher({ inputs: [{ type: "boolean", key: "a-b", label: "x" }] }))).toMatch(/key/);
    expect(
      error(
        launcher({
          inputs: [
            { type: "boolean", key: "a", label: "x" },
            { type: "boolean", key: "a", label: "y" },
          ],
        }),
      ),
    ).toMatch(/twice/);
    expect(error(launcher({ actions: [] } as Partial<Dialog>))).toMatch(/without actions/);
    expect(
      error(
        launcher({
          inputs: [
            {
              type: "single_option",
              key: "m",
              label: "x",
              options: [
                { id: "a", initial: true },
                { id: "b", initial: true },
              ],
            },
          ],
        }),
      ),
    ).toMatch(/initial/);
    expect(error(launcher({ body: [{ type: "plain_message", contents: "x", width: 2000 }] }))).toMatch(
      /width/,
    );
    expect(error(launcher({ body: [{ type: "item", item: "Not An Id" }] }))).toMatch(/item id/);
    expect(
      error({
        type: "notice",
        title: "x",
        action: { label: "go", action: { type: "custom", id: "Bad Id" } },
      }),
    ).toMatch(/identifier/);
  });

  it("checks a dialog a button opens", () => {
    const inner = launcher({ afterAction: "none", pause: true });
    expect(
      error({
        type: "notice",
        title: "x",
        action: { label: "open", action: { type: "show_dialog", dialog: inner } },
      }),
    ).toMatch(/pause/);
  });
});
