import type { RequestEntry } from "../../../agent/telemetry/telemetry.js";
import type { AssistantReply, AssistantServer } from "../../../assistant/assistant-server.js";

/** Runs one line a host received as a request of `entry` (chat, panel, button) for metrics and traces. */
export const observedReply = async (
  assistant: AssistantServer,
  entry: RequestEntry,
  playerId: string,
  work: () => Promise<AssistantReply>,
): Promise<AssistantReply> => {
  let reply: AssistantReply | undefined;
  await assistant.infrastructure.telemetry.request(entry, { playerId }, async () => {
    reply = await work();
    return reply.result;
  });
  return reply as AssistantReply;
};
