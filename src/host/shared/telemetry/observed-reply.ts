import type { RequestEntry } from "../../../agent/telemetry/telemetry.js";
import type { AssistantReply, AssistantServer } from "../../../assistant/assistant-server.js";
import { newRequestId } from "../../../assistant/request-pipeline.js";

/**
 * Runs one line a host received as a request of `entry` (chat, panel, button) for metrics and traces. `work` runs
 * it under the request id it is given, so what routing and the engine record is counted with this request.
 * `deliver`, when given, shows the reply to the player before the request's metrics and trace are recorded: the
 * player never waits for them, and the request's duration includes the delivery.
 */
export const observedReply = async (
  assistant: AssistantServer,
  entry: RequestEntry,
  playerId: string,
  work: (requestId: string) => Promise<AssistantReply>,
  deliver?: (reply: AssistantReply) => void,
): Promise<AssistantReply> => {
  let reply: AssistantReply | undefined;
  const requestId = newRequestId();
  await assistant.infrastructure.telemetry.request(entry, { playerId, requestId }, async () => {
    reply = await work(requestId);
    deliver?.(reply);
    return reply.result;
  });
  return reply as AssistantReply;
};
