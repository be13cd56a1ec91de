import { Identifier } from "../../util/identifier.js";
import { BOOL, F64, STRING, StreamCodec, StreamDecodeError, UUID, VARINT } from "../../util/stream-codec.js";
import type { Text, TextArgument } from "../text.js";
import type { CardButton, CardView, SpeechContent } from "./card-builder.js";
import type { CardRef } from "./card-ref.js";

/** Wire limits of card content; a peer sending more is refused, not trusted. */
export const CardLimits = {
  KEY_BYTES: 256,
  TEXT_BYTES: 32_768,
  ARGUMENTS: 32,
  BUTTONS: 16,
  BUTTON_ARGS: 8,
  BUTTON_ARG_BYTES: 4096,
} as const;

const KEY = STRING(CardLimits.KEY_BYTES);
const LONG_TEXT = STRING(CardLimits.TEXT_BYTES);

const ARGUMENT: StreamCodec<TextArgument> = StreamCodec.of(
  (value, writer) => {
    if (typeof value === "string") LONG_TEXT.encode(value, writer.writeByte(0));
    else if (typeof value === "number") F64.encode(value, writer.writeByte(1));
    else TEXT_STREAM_CODEC.encode(value, writer.writeByte(2));
  },
  (reader) => {
    const tag = reader.readByte();
    if (tag === 0) return LONG_TEXT.decode(reader);
    if (tag === 1) return F64.decode(reader);
    if (tag === 2) return reader.nested(() => TEXT_STREAM_CODEC.decode(reader));
    throw new StreamDecodeError(`unknown text argument tag ${tag}`);
  },
);
const ARGUMENTS = ARGUMENT.list(CardLimits.ARGUMENTS);

/** Player-facing Text: a tag byte, then a translation key with arguments, or literal text. */
export const TEXT_STREAM_CODEC: StreamCodec<Text> = StreamCodec.of(
  (value, writer) => {
    if (value.kind === "literal") LONG_TEXT.encode(value.text, writer.writeByte(1));
    else {
      KEY.encode(value.key, writer.writeByte(0));
      ARGUMENTS.encode(value.args, writer);
    }
  },
  (reader) => {
    const tag = reader.readByte();
    if (tag === 1) return { kind: "literal", text: LONG_TEXT.decode(reader) };
    if (tag !== 0) throw new StreamDecodeError(`unknown text tag ${tag}`);
    return { kind: "translatable", key: KEY.decode(reader), args: ARGUMENTS.decode(reader) };
  },
);

/** A card page reference: card UUID and version. */
export const CARD_REF_STREAM_CODEC: StreamCodec<CardRef> = StreamCodec.struct({ id: UUID, version: VARINT });

/** A registered action id; refused when it is not a valid Identifier. */
export const ACTION_ID_STREAM_CODEC: StreamCodec<string> = KEY.map(
  (text) => {
    if (!Identifier.isValid(text)) throw new StreamDecodeError(`invalid action id`);
    return text;
  },
  (text) => text,
);

const BUTTON_ARGS = STRING(CardLimits.BUTTON_ARG_BYTES).list(CardLimits.BUTTON_ARGS);

const BUTTON: StreamCodec<CardButton> = StreamCodec.struct({
  labelKey: KEY,
  labelArgs: BUTTON_ARGS,
  action: ACTION_ID_STREAM_CODEC,
  args: BUTTON_ARGS,
}).map(
  ({ labelKey, labelArgs, action, args }) =>
    labelArgs.length === 0 ? { labelKey, action, args } : { labelKey, labelArgs, action, args },
  (button) => ({
    labelKey: button.labelKey,
    labelArgs: button.labelArgs ?? [],
    action: button.action,
    args: button.args,
  }),
);

const SPEECH: StreamCodec<SpeechContent> = StreamCodec.struct({
  text: TEXT_STREAM_CODEC,
  voice: KEY.optional(),
  high: BOOL,
  interrupt: BOOL,
}).map(
  ({ text, voice, high, interrupt }) => ({
    text,
    ...(voice === undefined ? {} : { voice }),
    ...(high ? { priority: "high" as const } : {}),
    ...(interrupt ? { interrupt: true } : {}),
  }),
  (speech) => ({
    text: speech.text,
    voice: speech.voice,
    high: speech.priority === "high",
    interrupt: speech.interrupt === true,
  }),
);

/** A full card view: template, arguments, buttons and optional speech. */
export const CARD_VIEW_STREAM_CODEC: StreamCodec<CardView> = StreamCodec.struct({
  template: KEY,
  arguments: TEXT_STREAM_CODEC.list(CardLimits.ARGUMENTS),
  buttons: BUTTON.list(CardLimits.BUTTONS),
  speech: SPEECH.optional(),
}).map(
  ({ template, arguments: args, buttons, speech }) =>
    speech === undefined
      ? { template, arguments: args, buttons }
      : { template, arguments: args, buttons, speech },
  (view) => ({
    template: view.template,
    arguments: view.arguments,
    buttons: view.buttons,
    speech: view.speech,
  }),
);

/** A read-only view (history): the wire form has no place for buttons or speech, so none can be replayed. */
export const READ_ONLY_VIEW_STREAM_CODEC: StreamCodec<CardView> = StreamCodec.struct({
  template: KEY,
  arguments: TEXT_STREAM_CODEC.list(CardLimits.ARGUMENTS),
}).map(
  ({ template, arguments: args }) => ({ template, arguments: args, buttons: [] }),
  (view) => ({ template: view.template, arguments: view.arguments }),
);
