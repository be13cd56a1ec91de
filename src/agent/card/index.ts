export { CardBuilder, type CardButton, type CardView, type SpeechContent } from "./card-builder.js";
export { type CardRef, formatCardRef, newCardRef, nextVersion, parseCardRef } from "./card-ref.js";
export { CardRegistry } from "./card-registry.js";
export {
  ACTION_ID_STREAM_CODEC,
  CARD_REF_STREAM_CODEC,
  CARD_VIEW_STREAM_CODEC,
  CardLimits,
  READ_ONLY_VIEW_STREAM_CODEC,
  TEXT_STREAM_CODEC,
} from "./card-stream-codecs.js";
export { joinLines, joinTexts, present, registerCardType } from "./card-text.js";
export { buildCard, type CardData, CardType } from "./card-type.js";
export {
  CARD_UPDATE_STREAM_CODEC,
  CardOperation,
  type CardUpdate,
  removeCard,
  replaceCard,
  showCard,
} from "./card-update.js";
export { type CardApplyOutcome, ClientCards, type ShownCard } from "./client-cards.js";
export { cardForResult, MESSAGE_CARD, type MessageCardData } from "./message-card.js";
export { SELECTION_CARD, type SelectionCandidate, type SelectionCardData } from "./selection-card.js";
export { type CardClick, ServerCards } from "./server-cards.js";
