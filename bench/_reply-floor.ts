/**
 * The floor of an in-game answer, for bench/e2e.ts (SYSTEM_BENCH_FLOOR=1): loaded into the server process with
 * `--import`, it answers a command line seen before with the very card System rendered for it then, sent the
 * moment the command reaches System's handler. Nothing of System runs for such a line: no permissions, routing,
 * workflow, card building or telemetry. What is left is what the game costs for a card of that size: flying-squid
 * reaching the command, encoding and compressing the packet, and the client decoding it. A bench aid only: the
 * shipped server never loads it.
 */
import { AssistantHostHandler } from "../src/host/shared/assistant-handler.js";
import type { ChatComponent } from "../src/host/shared/chat-component.js";
import type { HostPlayer } from "../src/host/shared/host-handler.js";

const rendered = new Map<string, ChatComponent>();
const answer = AssistantHostHandler.prototype.onCommand;

AssistantHostHandler.prototype.onCommand = async function (this: AssistantHostHandler, player, line) {
  const known = rendered.get(line);
  if (known !== undefined) {
    player.sendCard(known);
    return;
  }
  // the first time, System answers as usual; the card it sends is kept for the line
  const keeping = new Proxy(player, {
    get: (target, property) => {
      if (property === "sendCard")
        return (component: ChatComponent): void => {
          rendered.set(line, component);
          target.sendCard(component);
        };
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as HostPlayer;
  await answer.call(this, keeping, line);
};
