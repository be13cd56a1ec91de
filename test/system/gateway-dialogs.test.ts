import mc from "minecraft-protocol";
import nbt from "prismarine-nbt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customClickFrame, readShowDialog } from "../../src/host/gateway/dialog/dialog-packets.js";
import { varIntBuffer } from "../../src/host/gateway/protocol/minecraft-protocol.js";
import { PacketCodec } from "../../src/host/gateway/protocol/packet-codec.js";
import { offlineUuid } from "../../src/util/offline-uuid.js";
import {
  type DialogBackend,
  STAND_IN_TAGS,
  startDialogBackend,
  VANILLA_DIALOGS,
} from "../support/dialog-backend.js";
import { ScriptedModelServer } from "../support/scripted-model-server.js";
import { type GatewayUnderTest, startGatewayFor, waitFor } from "./gateway-support.js";
import { modelEnvironment } from "./system-support.js";

type Simple = Record<string, unknown>;
interface Received {
  readonly state: string;
  readonly name: string;
  readonly bytes: Buffer;
}

const VERSION = "1.21.8";
const codec = PacketCodec.forVersion(VERSION) as PacketCodec;
const reply = (value: unknown): { text: string } => ({ text: JSON.stringify(value) });

/** The plain text of a chat component as NBT-simplified data. */
const plain = (content: unknown): string => {
  if (typeof content === "string") return content;
  if (typeof content !== "object" || content === null) return "";
  const node = content as { text?: unknown; extra?: unknown[] };
  return `${typeof node.text === "string" ? node.text : ""}${(node.extra ?? []).map(plain).join("")}`;
};
const textOf = (value: unknown): string => (typeof value === "string" ? value : plain(value));

/**
 * The in-game window through the gateway as `system gateway` starts it: a 1.21.8 backend stand-in on
 * minecraft-protocol's own server (vanilla's dialog registry and tags in its configuration), a scripted model, and
 * a minecraft-protocol 1.21.8 client that reads every dialog and clicks as the vanilla client sends clicks.
 */
describe("gateway: System's window for a 1.21.8 client", () => {
  let backend: DialogBackend;
  let model: ScriptedModelServer;
  let gateway: GatewayUnderTest;
  let client: mc.Client & { writeRaw(frame: Buffer): void };
  const received: Received[] = [];
  const chat: { text: string; content: Simple }[] = [];

  const dialogs = (): Simple[] =>
    received
      .filter((packet) => packet.state === "play" && packet.name === "show_dialog")
      .map((packet) => {
        const read = readShowDialog(packet.bytes);
        return read !== undefined && "dialog" in read ? (nbt.simplify(read.dialog) as Simple) : {};
      });
  /** The next dialog after the `seen` first ones, once it arrived. */
  const nextDialog = (seen: number): Promise<Simple> => waitFor(() => dialogs()[seen], 60_000);
  const windowOf = (dialog: Simple): string => {
    const actions = (dialog.actions ?? [dialog.yes]) as {
      action?: { payload?: Simple; additions?: Simple };
    }[];
    const action = actions[0]?.action;
    return String(action?.payload?.window ?? action?.additions?.window);
  };
  const click = (id: string, payload: Record<string, nbt.Tags[nbt.TagType]> | undefined): void =>
    client.writeRaw(
      customClickFrame(codec, id, payload === undefined ? undefined : (nbt.comp(payload) as nbt.Compound)),
    );
  const string = (value: string) => nbt.string(value);

  beforeAll(async () => {
    backend = await startDialogBackend(VERSION);
    model = await ScriptedModelServer.start();
    gateway = await startGatewayFor(backend.port, { assistant: true, environment: modelEnvironment(model) });
    client = mc.createClient({
      host: "127.0.0.1",
      port: gateway.port,
      username: "Alex",
      version: VERSION,
      auth: "offline",
      keepAlive: false,
    }) as typeof client;
    client.on("error", () => {});
    (client as unknown as NodeJS.EventEmitter).on(
      "raw",
      (bytes: Buffer, meta: { state: string; name: string }) =>
        received.push({ state: meta.state, name: meta.name, bytes: Buffer.from(bytes) }),
    );
    client.on("system_chat", (packet: { content: nbt.Tags[nbt.TagType]; isActionBar: boolean }) => {
      if (packet.isActionBar) return;
      const content = nbt.simplify(packet.content) as Simple;
      chat.push({ text: plain(content), content });
    });
    await waitFor(() => chat.find((message) => message.text.startsWith("Welcome")), 60_000);
  }, 120_000);

  afterAll(async () => {
    client?.end("test over");
    await gateway?.close();
    await backend?.close();
    await model?.close();
  });

  it("appends the launcher to the dialog registry and points both dialog tags at it, keeping the backend's entries", () => {
    const configuration = received.filter((packet) => packet.state === "configuration");
    const registry = configuration.find((packet) => packet.name === "registry_data") as Received;
    const entries = codec.decode("configuration", "toClient", registry.bytes)?.params.entries as {
      key: string;
      value?: nbt.Compound;
    }[];
    expect(entries.map((entry) => entry.key)).toEqual([...VANILLA_DIALOGS, "system:assistant"]);
    expect(entries.slice(0, 3).every((entry) => entry.value === undefined)).toBe(true);
    const launcher = nbt.simplify(entries[3]?.value as nbt.Compound) as Simple;
    expect(launcher.type).toBe("minecraft:multi_action");
    expect(launcher.external_title).toBe("Ask System");
    const tags = codec.decode(
      "configuration",
      "toClient",
      configuration.find((p) => p.name === "tags")?.bytes as Buffer,
    )?.params.tags as typeof STAND_IN_TAGS;
    expect(tags).toEqual([
      {
        tagType: "minecraft:dialog",
        tags: [
          { tagName: "minecraft:pause_screen_additions", entries: [3] },
          { tagName: "minecraft:quick_actions", entries: [3] },
        ],
      },
      STAND_IN_TAGS[1],
    ]);
  });

  it("opens the launcher for /system alone: an inline dialog (holder marker 0) with the request box, modes and pages", async () => {
    const seen = dialogs().length;
    client.write("chat_command", { command: "system" });
    const launcher = await nextDialog(seen);
    const frame = received.filter((packet) => packet.name === "show_dialog").at(-1) as Received;
    expect(frame.bytes.subarray(0, 3).toString("hex")).toBe("850100");
    expect(textOf(launcher.title)).toBe("System");
    expect(launcher.after_action).toBe("wait_for_response");
    const inputs = launcher.inputs as Simple[];
    expect(inputs[0]).toMatchObject({ type: "minecraft:text", key: "text", max_length: 2000 });
    expect(inputs.map((input) => input.key)).toContain("mode");
    const labels = (launcher.actions as { label: unknown }[]).map((action) => textOf(action.label));
    expect(labels).toEqual(["Send", "History", "Settings", "Quests", "Help"]);
    // the request never reached the backend as a command
    expect(backend.received("Alex").some((bytes) => bytes.includes(Buffer.from("system")))).toBe(false);
  });

  it("answers a typed request with the model as a result dialog, and writes the card to chat too", async () => {
    model.script(reply({ type: "answer", text: "Dig deep, near lava." }));
    const launcher = dialogs().at(-1) as Simple;
    const seen = dialogs().length;
    click("system:ask", {
      window: string(windowOf(launcher)),
      text: string("/reason where do I find diamonds"),
      mode: string("ask"),
    });
    const result = await nextDialog(seen);
    expect(JSON.stringify(result)).toContain("Dig deep, near lava.");
    await waitFor(() => chat.find((message) => message.text.includes("Dig deep, near lava.")));
  });

  it("runs a result dialog's button once as the chat button would; the same click on the replaced window runs nothing", async () => {
    const launcherSeen = dialogs().length;
    client.write("chat_command", { command: "system" });
    const launcher = await nextDialog(launcherSeen);
    const seen = dialogs().length;
    click("system:ask", {
      window: string(windowOf(launcher)),
      text: string("/system item minecraft:iron_ingot"),
    });
    const item = await nextDialog(seen);
    // the item the card names is drawn with its real icon
    expect((item.body as Simple[])[0]).toMatchObject({
      type: "minecraft:item",
      item: { id: "minecraft:iron_ingot" },
    });
    const button = (item.actions as { label: unknown; action: { id: string; payload: Simple } }[])[0];
    expect(button?.action.id).toBe("system:card");
    const chatBefore = chat.length;
    const payload = button?.action.payload as Record<string, string>;
    const frame = customClickFrame(
      codec,
      "system:card",
      nbt.comp(
        Object.fromEntries(Object.entries(payload).map(([key, value]) => [key, string(value)])),
      ) as nbt.Compound,
    );
    client.writeRaw(frame);
    const clicked = await nextDialog(seen + 1);
    // the button's own card (a related item), in the window and in chat
    const written = await waitFor(() => chat[chatBefore]);
    expect(written.text.startsWith(textOf(clicked.title))).toBe(true);
    expect(textOf(clicked.title)).not.toMatch(/Iron Ingot/);
    client.writeRaw(frame);
    await waitFor(() => gateway.logger.lines.find((line) => line.includes("from a replaced window")));
    expect(dialogs().length).toBe(seen + 2);
    expect(chat.length).toBe(chatBefore + 1);
    // every chat card carries the [System] button, a custom click for 1.21.6+ clients
    const card = chat.at(-1) as { content: Simple };
    expect(JSON.stringify(card.content)).toContain('"click_event":{"action":"custom","id":"system:open"}');
  });

  it("ignores, with one log line each, a payload too large, of the wrong types, or naming a card this window does not show", async () => {
    const current = windowOf(dialogs().at(-1) as Simple);
    const seen = dialogs().length;
    const logged = gateway.logger.lines.length;
    click("system:ask", { window: string(current), text: string("x".repeat(3000)) });
    click("system:ask", { window: string(current), text: nbt.int(5) });
    click("system:card", { window: string(current), ref: string("someone@1"), index: string("0") });
    client.writeRaw(
      customClickFrame(
        codec,
        "system:ask",
        nbt.comp({ a: string("b".repeat(35_000)), c: string("d".repeat(35_000)) }) as nbt.Compound,
      ),
    );
    const lines = await waitFor(() => {
      const ignored = gateway.logger.lines
        .slice(logged)
        .filter((line) => line.includes("window click of Alex ignored"));
      return ignored.length >= 4 ? ignored : undefined;
    });
    expect(lines.join("\n")).toMatch(/wrong shape[\s\S]*wrong shape[\s\S]*does not show[\s\S]*does not read/);
    expect(dialogs().length).toBe(seen);
    // System's clicks never reach the backend
    expect(backend.received("Alex").some((bytes) => bytes.includes(Buffer.from("system:")))).toBe(false);
  });

  it("shows History (each entry reopens its answer), Settings (saved as /system settings saves them), Quests and Help", async () => {
    let seen = dialogs().length;
    click("system:page", { window: string(windowOf(dialogs().at(-1) as Simple)), page: string("history") });
    const history = await nextDialog(seen++);
    expect(textOf(history.title)).toBe("History");
    const entries = history.actions as { label: unknown }[];
    expect(entries.map((entry) => textOf(entry.label))).toContain("/system item minecraft:iron_ingot");
    const index = entries.findIndex((entry) => textOf(entry.label) === "/system item minecraft:iron_ingot");
    click("system:history_entry", { window: string(windowOf(history)), entry: string(String(index)) });
    const entry = await nextDialog(seen++);
    expect(textOf(entry.title)).toMatch(/Iron Ingot/);

    click("system:page", { window: string(windowOf(entry)), page: string("settings") });
    const settings = await nextDialog(seen++);
    expect((settings.inputs as Simple[]).map((input) => [input.key, input.initial])).toEqual([
      ["history", 1],
      ["external", 1],
      ["speech", 0],
    ]);
    click("system:settings", {
      window: string(windowOf(settings)),
      history: nbt.byte(1),
      external: nbt.byte(1),
      speech: nbt.byte(1),
    });
    const saved = await nextDialog(seen++);
    expect(JSON.stringify(saved.body)).toContain("Speech is on");
    expect((saved.inputs as Simple[]).find((input) => input.key === "speech")?.initial).toBe(1);
    const preferences = await gateway.gateway.assistant?.infrastructure.conversation.preferences(
      offlineUuid("Alex"),
    );
    expect(preferences?.speech).toBe(true);

    click("system:page", { window: string(windowOf(saved)), page: string("quests") });
    const quests = await nextDialog(seen++);
    expect(JSON.stringify(quests)).toMatch(/quest book/);
    click("system:page", { window: string(windowOf(quests)), page: string("help") });
    const help = await nextDialog(seen++);
    expect(textOf(help.title)).toMatch(/What you can do now/);
  });

  it("relays the backend's own show_dialog and a plugin's custom_click_action byte for byte", async () => {
    const registered = Buffer.concat([varIntBuffer(0x85), varIntBuffer(1)]);
    backend.sendRaw("Alex", registered);
    await waitFor(() =>
      received.find((packet) => packet.name === "show_dialog" && packet.bytes.equals(registered)),
    );
    const vote = customClickFrame(
      codec,
      "myplugin:vote",
      nbt.comp({ text: string("y".repeat(1000)) }) as nbt.Compound,
    );
    client.writeRaw(vote);
    await waitFor(() => backend.received("Alex").find((bytes) => bytes.equals(vote)));
  });
});
