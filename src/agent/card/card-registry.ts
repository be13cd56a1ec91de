import { Identifier } from "../../util/identifier.js";
import { Registry } from "../../util/registry.js";
import { invalid, type Validation, valid } from "../../util/validation.js";
import type { Presentation } from "../agent-result.js";
import { lazyPresentation } from "./card-text.js";
import type { CardData, CardType } from "./card-type.js";

/**
 * The card types a server knows, dispatched by id like TypeDispatch: a result's Presentation `{type, data}` is
 * decoded by the codec registered for `type`. Unknown types are error values, never throws.
 */
export class CardRegistry {
  readonly registry = new Registry<CardType<unknown>>("card_type");

  /** Registers a card type (built-in or an extension's, such as SelectionCardData) before freeze. */
  register<T>(type: CardType<T>): CardType<T> {
    this.registry.register(type.id, type as unknown as CardType<unknown>);
    return type;
  }

  get<T = unknown>(id: Identifier | string): CardType<T> | undefined {
    return this.registry.get(id) as CardType<T> | undefined;
  }

  freeze(): void {
    this.registry.freeze();
  }

  /** The Presentation stored in an AgentResult for this card. Throws for an unregistered type (programmer error). */
  encode<T>(card: CardData<T>): Presentation {
    if (this.registry.get(card.type.id) !== (card.type as unknown))
      throw new Error(`card type ${card.type.id} is not registered`);
    return lazyPresentation(card);
  }

  /**
   * The card data of a presentation: the typed card it carries when it was made in this process by a registered
   * type (no decode), otherwise the data decoded as untrusted input.
   */
  cardOf(presentation: Presentation): Validation<CardData> {
    const carried = presentation.card as CardData | undefined;
    if (carried !== undefined && this.registry.get(carried.type.id) === carried.type) return valid(carried);
    return this.decode(presentation);
  }

  /** Decodes untrusted presentation data back into card data of a registered type. */
  decode(presentation: unknown): Validation<CardData> {
    if (typeof presentation !== "object" || presentation === null) return invalid("expected a presentation");
    const { type, data } = presentation as { type?: unknown; data?: unknown };
    const id = typeof type === "string" ? Identifier.tryParse(type) : undefined;
    const cardType = id === undefined ? undefined : this.registry.get(id);
    if (cardType === undefined) return invalid(`unknown card type ${JSON.stringify(type)?.slice(0, 80)}`);
    const decoded = cardType.codec.decode(data);
    return decoded.success ? valid(cardType.card(decoded.value)) : invalid(decoded.error);
  }
}
