import { AgentFailure } from "../agent/agent-failure.js";
import { AgentResult } from "../agent/agent-result.js";
import { type CardRef, formatCardRef, parseCardRef } from "../agent/card/card-ref.js";
import { type ButtonTarget, ServerCards } from "../agent/card/server-cards.js";
import { replayKeyOf } from "../agent/execution/replay-cache.js";
import { isReplayedModule } from "../agent/routing/direct-qualification.js";
import type { Validation } from "../util/validation.js";
import type { AssistantParts } from "./assistant-assembly.js";
import type { PlayerInfo } from "./player-directory.js";
import { newRequestId } from "./request-pipeline.js";

/**
 * The buttons of the cards each online player was shown, and what a click on one runs: a click is honoured only
 * when it names a button of that player's current page of the card, then runs as a new structured request
 * through the interactive executor (exclusive, queued, cancellable).
 */
export class CardClicks {
  readonly #issued = new Map<string, ServerCards>();

  constructor(private readonly parts: AssistantParts) {}

  /** The cards issued to a player (the presenter records each page's buttons here). */
  issued(playerId: string): ServerCards {
    let cards = this.#issued.get(playerId);
    if (cards === undefined) {
      cards = new ServerCards();
      this.#issued.set(playerId, cards);
    }
    return cards;
  }

  /** A player left: the buttons of their cards are no longer honoured. */
  forget(playerId: string): void {
    this.#issued.delete(playerId);
  }

  /** Button `index` of card `ref`, as `/system card <ref> <index>` names it. */
  click(
    player: PlayerInfo,
    refText: string,
    indexText: string,
    requestId = newRequestId(),
  ): Promise<AgentResult> {
    const ref = parseCardRef(refText);
    const button =
      ref === undefined || !/^\d{1,3}$/.test(indexText)
        ? undefined
        : this.issued(player.uuid).button(ref, Number.parseInt(indexText, 10));
    return this.#press(player, `card ${refText} ${indexText}`, button, requestId);
  }

  /** The button of card `card` with this action and these arguments (the web panel's CardActionRequest). */
  clickAction(
    player: PlayerInfo,
    card: CardRef,
    action: string,
    args: readonly string[],
    requestId = newRequestId(),
  ): Promise<AgentResult> {
    const button = this.issued(player.uuid).resolve({ card, action, args });
    return this.#press(player, `card ${formatCardRef(card)} ${action}`, button, requestId);
  }

  async #press(
    player: PlayerInfo,
    text: string,
    button: Validation<ButtonTarget> | undefined,
    requestId: string,
  ): Promise<AgentResult> {
    const { infrastructure, permissions, interactive } = this.parts;
    infrastructure.players.update(player);
    // the game's operator level is read at every request: a player may type before their join has settled
    await permissions.setOpLevel(player.uuid, player.opLevel);
    if (button === undefined) return AgentResult.error(AgentFailure.INPUT_INVALID.with("card"));
    if (!button.success) return AgentResult.error(AgentFailure.INPUT_INVALID.with(button.error));
    const snapshot = permissions.snapshot(player.uuid);
    const generation = infrastructure.generations.generation(player.uuid);
    const { action, args } = button.value;
    // the typed action the button resolves to: a repeated click of a write is answered by the replay cache
    const resolved = !this.#replayed(action)
      ? undefined
      : this.parts.router.structured({
          player: this.parts.pipeline.routingPlayer(snapshot, player.locale, generation),
          action,
          args,
        }).action;
    return interactive.submit({
      requestId,
      playerId: player.uuid,
      locale: player.locale,
      text,
      fingerprint: `${snapshot.version}|${generation}|${text}`,
      record: false,
      ...(resolved === undefined ? {} : { replayKey: replayKeyOf(resolved) }),
      payload: { kind: "button", action, args },
    });
  }

  /** Whether a repeated click of the button's workflow is answered by its stored result, as it declares. */
  #replayed(action: string): boolean {
    const module = this.parts.infrastructure.engine.modules().get(action);
    return module !== undefined && isReplayedModule(module);
  }
}
