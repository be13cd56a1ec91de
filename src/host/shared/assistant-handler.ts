import type { RequestEntry } from "../../agent/telemetry/telemetry.js";
import type { AssistantReply, AssistantServer } from "../../assistant/assistant-server.js";
import type { PresentedCard } from "../../assistant/card-presenter.js";
import type { PlayerInfo } from "../../assistant/player-directory.js";
import { isSlashLine, slashLine, systemLine, type TypedLine } from "../../assistant/typed-line.js";
import { normalizeLocale } from "../../util/language.js";
import type { AdminVerification } from "./admin-verification.js";
import { cardComponent } from "./card-component.js";
import { brigadierTree } from "./declare-commands.js";
import type { HostCommandTree, HostHandler, HostPlayer } from "./host-handler.js";
import type { OnlinePlayers } from "./online-players.js";
import { observedReply } from "./telemetry/observed-reply.js";

/**
 * Connects the flying-squid host to an AssistantServer through its narrow facade: forwards `/system …` and
 * shortcut lines and card clicks, renders the replies and notices as chat cards, keeps the online players.
 */
export class AssistantHostHandler implements HostHandler {
  /**
   * `verification` is set when operators must prove themselves (offline mode off loopback); undefined when the
   * game's operator list can be trusted as it is.
   */
  constructor(
    private readonly assistant: AssistantServer,
    private readonly players: OnlinePlayers,
    private readonly verification: AdminVerification | undefined,
  ) {
    assistant.onNotice((playerId, card) => {
      const player = this.players.get(playerId);
      if (player === undefined) return;
      player.sendCard(render(card));
      void this.#narrate(player, card);
    });
    assistant.onProgress((playerId, text) =>
      this.players.get(playerId)?.sendActionBar({ text, color: "gray" }),
    );
  }

  /** `system <text>` is the text after the root; any other base is a shortcut run as an explicit command. */
  async onCommand(player: HostPlayer, line: string): Promise<void> {
    const trimmed = line.trim();
    const base = /^\S*/u.exec(trimmed)?.[0] ?? "";
    const body = trimmed.slice(base.length).trim();
    const verify = /^verify(?:\s+(\S+))?$/iu.exec(body);
    if (base.toLowerCase() === "system" && verify !== null) {
      await this.#verify(player, verify[1] ?? "");
      return;
    }
    // the card is sent as soon as it is ready, before the request's telemetry is recorded
    const show = (reply: AssistantReply): void => {
      if (reply.card !== undefined) player.sendCard(render(reply.card));
    };
    const reply =
      base.toLowerCase() !== "system"
        ? await this.#reply(this.#info(player), "chat", { kind: "text", text: `/${trimmed}` }, show)
        : await this.#system(this.#info(player), body, show);
    if (reply.card !== undefined) await this.#narrate(player, reply.card);
  }

  /**
   * A request from the in-game window: typed text as the panel reads its input line (a slash line is a command as
   * in chat, anything else plain text, so no typed text becomes a command by escaping), or a card's button. It
   * runs as chat runs it (limits, routing, permissions). The window draws the card (`show`, first: the player is
   * looking at it), then it also goes to chat, so the record stays.
   */
  async onWindowRequest(
    player: HostPlayer,
    request: { readonly text: string } | { readonly ref: string; readonly index: string },
    show: (card: PresentedCard | undefined) => void = () => {},
  ): Promise<PresentedCard | undefined> {
    const info = this.#info(player);
    const line: TypedLine =
      "ref" in request
        ? { kind: "click", ...request }
        : !isSlashLine(request.text)
          ? { kind: "text", text: request.text }
          : slashLine(request.text, (head) => this.assistant.isCommand(head));
    // counted as the window's own entry (a button it shows counts as a button, as in chat)
    const reply = await this.#reply(info, "window", line);
    show(reply.card);
    if (reply.card !== undefined) {
      player.sendCard(render(reply.card));
      // the window shows the card without waiting for its narration
      void this.#narrate(player, reply.card);
    }
    return reply.card;
  }

  /** The player as the assistant sees them (operator rights only once verified, when verification is on). */
  playerInfo(player: HostPlayer): PlayerInfo {
    return this.#info(player);
  }

  /** Narration in game: Minecraft cannot speak, so a card's speech shows in the action bar (speech on only). */
  async #narrate(player: HostPlayer, card: PresentedCard): Promise<void> {
    try {
      const speech = await this.assistant.speech.narration(
        player.uuid,
        normalizeLocale(player.locale()),
        card,
      );
      if (speech === undefined) return;
      // Minecraft cannot speak: urgent narration is a title (its text as the subtitle), the rest the action bar
      if (speech.priority === "high")
        player.sendTitle({ text: "✦", color: "gold" }, { text: speech.text, color: "gold" });
      else player.sendActionBar({ text: speech.text, color: "gold" });
    } catch {
      // narration is a courtesy: the card itself was shown
    }
  }

  async completions(player: HostPlayer, line: string): Promise<readonly string[]> {
    const trimmed = line.replace(/^\/?system\s+/iu, "");
    return this.assistant.commands.completions(this.#info(player), trimmed);
  }

  commandTree(player: HostPlayer): HostCommandTree | undefined {
    const { root, source } = this.assistant.commands.root(this.#info(player));
    return brigadierTree(root, source);
  }

  onCommandsChanged(listener: (uuid: string) => void): void {
    this.assistant.onCommandsChanged((uuid) => {
      if (this.players.get(uuid) !== undefined) listener(uuid);
    });
  }

  async onJoin(player: HostPlayer): Promise<void> {
    this.players.add(player);
    const joined = this.#info(player);
    // an admin reads who came and went, with what System knows of them (language, operator level)
    this.assistant.infrastructure.logger.info(
      `${player.name} joined (${player.uuid}, ${joined.locale}, op level ${joined.opLevel})`,
    );
    await this.assistant.join(joined);
    if (this.verification !== undefined && player.opLevel() > 0 && !this.verification.isVerified(player.uuid))
      player.sendCard({ text: this.assistant.text(joined.locale, "system.verify.needed"), color: "yellow" });
  }

  onKill(player: HostPlayer, entity: string, entityId: string): void {
    this.players.reportKill({ playerId: player.uuid, entity, entityId });
    // never throws: a rule that cannot be queued is logged by the rules
    void this.assistant.killed(player.uuid, entity, entityId);
  }

  async onDeath(player: HostPlayer): Promise<void> {
    await this.assistant.died(player.uuid);
  }

  async onDimensionChange(player: HostPlayer, dimension: string): Promise<void> {
    await this.assistant.changedDimension(player.uuid, dimension);
  }

  async onAdvancement(player: HostPlayer, advancement: string): Promise<void> {
    await this.assistant.advanced(player.uuid, advancement);
  }

  /**
   * The new level counts at once (the command tree is sent again); an operator who must still prove themselves
   * is told how, as at a join.
   */
  async onOperatorChange(player: HostPlayer): Promise<void> {
    if (this.players.get(player.uuid) !== player) return;
    const updated = this.#info(player);
    await this.assistant.updatePlayer(updated);
    if (this.verification !== undefined && player.opLevel() > 0 && !this.verification.isVerified(player.uuid))
      player.sendCard({ text: this.assistant.text(updated.locale, "system.verify.needed"), color: "yellow" });
  }

  async onLeave(player: HostPlayer): Promise<void> {
    // a connection replaced by a newer one of the same player (or that never spawned) ends nothing of theirs
    if (this.players.get(player.uuid) !== player) return;
    this.players.remove(player.uuid);
    this.assistant.infrastructure.logger.info(`${player.name} left (${player.uuid})`);
    await this.assistant.leave(player.uuid);
  }

  /** `/system verify <code>`: an operator proves they are at the server console (offline mode off loopback). */
  async #verify(player: HostPlayer, code: string): Promise<void> {
    const locale = normalizeLocale(player.locale());
    const say = (key: string, color: string): void =>
      player.sendCard({ text: this.assistant.text(locale, key), color });
    if (this.verification === undefined) return say("system.verify.not_needed", "gray");
    if (this.verification.isVerified(player.uuid)) return say("system.verify.already", "gray");
    if (!(await this.verification.verify(player.uuid, code))) return say("system.verify.wrong", "red");
    if (player.opLevel() > 0) player.enableGameOperator();
    // the new operator level applies at once (and the player's command tree is sent again)
    await this.assistant.updatePlayer(this.#info(player));
    say("system.verify.ok", "green");
  }

  /** The player as the assistant sees them: operator rights only once verified, when verification is on. */
  #info(player: HostPlayer): PlayerInfo {
    const base = info(player);
    return this.verification === undefined
      ? base
      : { ...base, opLevel: this.verification.opLevel(player.uuid, base.opLevel) };
  }

  /** A click, a known command after `/system` (explicit, so a typo gets its usage), or plain text. */
  #system(player: PlayerInfo, body: string, deliver?: (reply: AssistantReply) => void) {
    return this.#reply(
      player,
      "chat",
      systemLine(body, (head) => this.assistant.isCommand(head)),
      deliver,
    );
  }

  /**
   * Runs a card click or a typed line as one observed request of `entry` (a click counts as a button); `deliver`
   * shows the reply before the request's telemetry is recorded.
   */
  #reply(
    player: PlayerInfo,
    entry: RequestEntry,
    line: TypedLine,
    deliver?: (reply: AssistantReply) => void,
  ): Promise<AssistantReply> {
    return observedReply(
      this.assistant,
      line.kind === "click" ? "button" : entry,
      player.uuid,
      (requestId) =>
        line.kind === "click"
          ? this.assistant.click(player, line.ref, line.index, requestId)
          : this.assistant.submit(player, line.text, requestId),
      deliver,
    );
  }
}

const info = (player: HostPlayer): PlayerInfo => ({
  uuid: player.uuid,
  name: player.name,
  locale: normalizeLocale(player.locale()),
  opLevel: player.opLevel(),
});

const render = (card: PresentedCard) =>
  cardComponent({
    title: card.title,
    lines: card.lines,
    buttons: card.buttons,
    buttonLines: card.buttonLines,
  });
