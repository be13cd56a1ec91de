import { StreamCodec, StreamDecodeError } from "../../util/stream-codec.js";
import type { CardView } from "./card-builder.js";
import type { CardRef } from "./card-ref.js";
import { CARD_REF_STREAM_CODEC, CARD_VIEW_STREAM_CODEC } from "./card-stream-codecs.js";

/** The three card operations, encoded by ordinal (append only). */
export const CardOperation = { SHOW: "SHOW", REPLACE: "REPLACE", REMOVE: "REMOVE" } as const;
export type CardOperation = (typeof CardOperation)[keyof typeof CardOperation];

/** A change to one card page on a client: show a new card, replace its page, or remove it. */
export type CardUpdate =
  | { readonly op: "SHOW" | "REPLACE"; readonly ref: CardRef; readonly view: CardView }
  | { readonly op: "REMOVE"; readonly ref: CardRef };

export const showCard = (ref: CardRef, view: CardView): CardUpdate => ({ op: "SHOW", ref, view });
export const replaceCard = (ref: CardRef, view: CardView): CardUpdate => ({ op: "REPLACE", ref, view });
export const removeCard = (ref: CardRef): CardUpdate => ({ op: "REMOVE", ref });

const OPERATION = StreamCodec.ordinal<CardOperation>(["SHOW", "REPLACE", "REMOVE"]);
const VIEW = CARD_VIEW_STREAM_CODEC.optional();

/** Operation, ref, then the view for SHOW/REPLACE only. */
export const CARD_UPDATE_STREAM_CODEC: StreamCodec<CardUpdate> = StreamCodec.struct({
  op: OPERATION,
  ref: CARD_REF_STREAM_CODEC,
  view: VIEW,
}).map(
  ({ op, ref, view }): CardUpdate => {
    if (op === "REMOVE") {
      if (view !== undefined) throw new StreamDecodeError("REMOVE carries no view");
      return { op, ref };
    }
    if (view === undefined) throw new StreamDecodeError(`${op} needs a view`);
    return { op, ref, view };
  },
  (update) => ({ op: update.op, ref: update.ref, view: update.op === "REMOVE" ? undefined : update.view }),
);
