import nbt from "prismarine-nbt";
import { componentToNbt } from "../../shared/chat-component.js";
import type {
  Dialog,
  DialogAction,
  DialogBody,
  DialogButton,
  DialogInput,
  DialogPayload,
  DialogText,
} from "../../shared/dialog.js";

type Tag = nbt.Tags[nbt.TagType];
type Fields = Record<string, Tag>;

/** A compound tag from its fields, typed as any tag (prismarine-nbt's builders are loosely typed). */
const compound = (fields: Fields): Tag => nbt.comp(fields) as Tag;
const list = (items: readonly Tag[]): Tag =>
  ({ type: "list", value: { type: "compound", value: items.map((item) => item.value) } }) as Tag;
const flag = (value: boolean): Tag => nbt.byte(value ? 1 : 0);

/** A component: plain text as a string tag, a styled one as its compound (never with click events here). */
const text = (value: DialogText): Tag =>
  typeof value === "string" ? nbt.string(value) : (componentToNbt(value) as Tag);

/** Sets `key` when the value is defined (the codec's defaults apply otherwise). */
const put = (fields: Fields, key: string, value: Tag | undefined): void => {
  if (value !== undefined) fields[key] = value;
};
const int = (value: number | undefined): Tag | undefined =>
  value === undefined ? undefined : nbt.int(value);

const payload = (values: DialogPayload): Tag =>
  compound(Object.fromEntries(Object.entries(values).map(([key, value]) => [key, nbt.string(value)])));

const action = (value: DialogAction): Tag => {
  const fields: Fields = { type: nbt.string(`minecraft:${value.type}`) };
  switch (value.type) {
    case "custom":
      fields.id = nbt.string(value.id);
      put(fields, "payload", value.payload === undefined ? undefined : payload(value.payload));
      break;
    case "dynamic/custom":
      fields.id = nbt.string(value.id);
      put(fields, "additions", value.additions === undefined ? undefined : payload(value.additions));
      break;
    case "dynamic/run_command":
      fields.template = nbt.string(value.template);
      break;
    case "run_command":
      fields.command = nbt.string(value.command);
      break;
    case "open_url":
      fields.url = nbt.string(value.url);
      break;
    case "copy_to_clipboard":
      fields.value = nbt.string(value.value);
      break;
    case "show_dialog":
      fields.dialog = dialogNbt(value.dialog) as Tag;
      break;
  }
  return compound(fields);
};

const button = (value: DialogButton): Tag => {
  const fields: Fields = { label: text(value.label) };
  put(fields, "tooltip", value.tooltip === undefined ? undefined : text(value.tooltip));
  put(fields, "width", int(value.width));
  put(fields, "action", value.action === undefined ? undefined : action(value.action));
  return compound(fields);
};

const body = (value: DialogBody): Tag => {
  if (value.type === "plain_message") {
    const fields: Fields = { type: nbt.string("minecraft:plain_message"), contents: text(value.contents) };
    put(fields, "width", int(value.width));
    return compound(fields);
  }
  const fields: Fields = {
    type: nbt.string("minecraft:item"),
    item: compound({ id: nbt.string(value.item), count: nbt.int(value.count ?? 1) }),
  };
  put(
    fields,
    "description",
    value.description === undefined ? undefined : compound({ contents: text(value.description) }),
  );
  put(fields, "width", int(value.width));
  put(fields, "height", int(value.height));
  return compound(fields);
};

const input = (value: DialogInput): Tag => {
  const fields: Fields = {
    type: nbt.string(`minecraft:${value.type}`),
    key: nbt.string(value.key),
    label: text(value.label),
  };
  switch (value.type) {
    case "text":
      put(fields, "label_visible", value.labelVisible === undefined ? undefined : flag(value.labelVisible));
      put(fields, "width", int(value.width));
      put(fields, "initial", value.initial === undefined ? undefined : nbt.string(value.initial));
      put(fields, "max_length", int(value.maxLength));
      if (value.multiline !== undefined) {
        const multiline: Fields = {};
        put(multiline, "max_lines", int(value.multiline.maxLines));
        put(multiline, "height", int(value.multiline.height));
        fields.multiline = compound(multiline);
      }
      break;
    case "boolean":
      put(fields, "initial", value.initial === undefined ? undefined : flag(value.initial));
      break;
    case "single_option":
      put(fields, "width", int(value.width));
      fields.options = list(
        value.options.map((option) => {
          const entry: Fields = { id: nbt.string(option.id) };
          put(entry, "display", option.display === undefined ? undefined : text(option.display));
          put(entry, "initial", option.initial === undefined ? undefined : flag(option.initial));
          return compound(entry);
        }),
      );
      break;
  }
  return compound(fields);
};

/** The dialog as the unnamed NBT compound a 1.21.6+ client reads (`Dialog.DIRECT_CODEC`). */
export const dialogNbt = (dialog: Dialog): nbt.Compound => {
  const fields: Fields = { type: nbt.string(`minecraft:${dialog.type}`), title: text(dialog.title) };
  put(fields, "external_title", dialog.externalTitle === undefined ? undefined : text(dialog.externalTitle));
  put(
    fields,
    "can_close_with_escape",
    dialog.canCloseWithEscape === undefined ? undefined : flag(dialog.canCloseWithEscape),
  );
  put(fields, "pause", dialog.pause === undefined ? undefined : flag(dialog.pause));
  put(fields, "after_action", dialog.afterAction === undefined ? undefined : nbt.string(dialog.afterAction));
  if (dialog.body !== undefined && dialog.body.length > 0) fields.body = list(dialog.body.map(body));
  if (dialog.inputs !== undefined && dialog.inputs.length > 0) fields.inputs = list(dialog.inputs.map(input));
  switch (dialog.type) {
    case "notice":
      put(fields, "action", dialog.action === undefined ? undefined : button(dialog.action));
      break;
    case "confirmation":
      fields.yes = button(dialog.yes);
      fields.no = button(dialog.no);
      break;
    case "multi_action":
      fields.actions = list(dialog.actions.map(button));
      put(fields, "exit_action", dialog.exitAction === undefined ? undefined : button(dialog.exitAction));
      put(fields, "columns", int(dialog.columns));
      break;
  }
  return nbt.comp(fields) as nbt.Compound;
};
