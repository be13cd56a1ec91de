import type { SquidPlayer, SquidServer } from "./flying-squid-types.js";

/** The serverbound completion request of 1.13+ (`transactionId`) or older clients (no id). */
interface CompletionRequest {
  readonly transactionId?: number;
  readonly text?: string;
}

/** Answers tab completion requests; the replacement range is the last space-separated word. */
export const installTabComplete = (
  serv: SquidServer,
  player: SquidPlayer,
  complete: (line: string) => Promise<readonly string[]>,
  onError: (error: unknown) => void,
): void => {
  // flying-squid's listener answers in the pre-1.13 shape, which disconnects newer clients
  player._client.removeAllListeners("tab_complete");
  player._client.on("tab_complete", (request: CompletionRequest) => {
    const text = typeof request.text === "string" ? request.text : "";
    const matches = text.startsWith("/") ? complete(text.slice(1)) : Promise.resolve(playerNames(serv, text));
    matches
      .then((found) => {
        if (player.disconnected === true) return;
        const start = text.lastIndexOf(" ") + 1;
        const word = text.slice(start);
        if (request.transactionId === undefined) {
          player._client.write("tab_complete", { matches: found.filter((match) => match.startsWith(word)) });
          return;
        }
        player._client.write("tab_complete", {
          transactionId: request.transactionId,
          start,
          length: text.length - start,
          matches: found.map((match) => ({ match })),
        });
      })
      .catch(onError);
  });
};

const playerNames = (serv: SquidServer, text: string): string[] => {
  const word = text.slice(text.lastIndexOf(" ") + 1).toLowerCase();
  return serv.players.map((player) => player.username).filter((name) => name.toLowerCase().startsWith(word));
};
