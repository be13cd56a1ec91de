import nbt from "prismarine-nbt";

/**
 * What a click on a piece of chat does; buttons use `run_command` with `/system card <ref> <action>`. `custom`
 * (1.21.6+ clients only) sends `custom_click_action` with `value` as its id and no payload.
 */
export interface ClickEvent {
  readonly action: "run_command" | "suggest_command" | "open_url" | "copy_to_clipboard" | "custom";
  readonly value: string;
}

/** How 1.21.5+ clients name a click's value in `click_event` (`command`, `url`, …); older ones read `value`. */
export const CLICK_VALUE_FIELD: Readonly<Record<ClickEvent["action"], string>> = {
  run_command: "command",
  suggest_command: "command",
  open_url: "url",
  copy_to_clipboard: "value",
  custom: "id",
};

/** NBT text options: 1.21.5+ (protocol 770) reads `click_event`/`hover_event`, earlier `clickEvent`/`hoverEvent`. */
export interface NbtTextOptions {
  readonly snakeCaseEvents?: boolean;
}

/**
 * A Minecraft text component, independent of the wire format. Text is already localized by the caller:
 * the client has no System translation keys.
 */
export interface ChatComponent {
  readonly text: string;
  readonly color?: string;
  readonly bold?: boolean;
  readonly italic?: boolean;
  readonly underlined?: boolean;
  readonly clickEvent?: ClickEvent;
  /** Shown while the pointer rests on the text. */
  readonly hoverText?: ChatComponent;
  readonly extra?: readonly ChatComponent[];
}

/** The NBT compound of a component (1.20.3+ writes chat as NBT). */
export type ComponentNbt = nbt.Compound;

type NbtTag = nbt.Tags[nbt.TagType];
type NbtFields = Record<string, NbtTag>;

/**
 * Text as data, never formatting: the client reads `§` plus the next character as a legacy format code (and
 * drops both) in any text component, and no escape exists. System's own texts never use it, so every `§` comes
 * from data (a player's words, item names, knowledge, web pages) and is shown as the look-alike `⸹` instead.
 * `&` is never a format code in a component, so `&c` is already shown as typed.
 */
export const literalText = (text: string): string => (text.includes("§") ? text.replaceAll("§", "⸹") : text);

const styleFields = (component: ChatComponent, tag: (value: boolean) => NbtTag): NbtFields => {
  const fields: NbtFields = {};
  if (component.color !== undefined) fields.color = nbt.string(component.color);
  if (component.bold !== undefined) fields.bold = tag(component.bold);
  if (component.italic !== undefined) fields.italic = tag(component.italic);
  if (component.underlined !== undefined) fields.underlined = tag(component.underlined);
  return fields;
};

const nbtFields = (component: ChatComponent, options: NbtTextOptions = {}): NbtFields => {
  const fields: NbtFields = {
    text: nbt.string(literalText(component.text)),
    ...styleFields(component, (value) => nbt.byte(value ? 1 : 0)),
  };
  if (options.snakeCaseEvents === true) {
    if (component.clickEvent !== undefined)
      fields.click_event = nbt.comp({
        action: nbt.string(component.clickEvent.action),
        [CLICK_VALUE_FIELD[component.clickEvent.action]]: nbt.string(component.clickEvent.value),
      }) as NbtTag;
    if (component.hoverText !== undefined)
      fields.hover_event = nbt.comp({
        action: nbt.string("show_text"),
        value: nbt.comp(nbtFields(component.hoverText, options)),
      }) as NbtTag;
  } else if (component.clickEvent !== undefined) {
    fields.clickEvent = nbt.comp({
      action: nbt.string(component.clickEvent.action),
      value: nbt.string(component.clickEvent.value),
    }) as NbtTag;
  }
  if (component.hoverText !== undefined && options.snakeCaseEvents !== true) {
    fields.hoverEvent = nbt.comp({
      action: nbt.string("show_text"),
      contents: nbt.comp(nbtFields(component.hoverText)),
    }) as NbtTag;
  }
  if (component.extra !== undefined && component.extra.length > 0) {
    const list: nbt.List<nbt.TagType.Compound> = {
      type: "list",
      value: { type: "compound", value: component.extra.map((child) => nbtFields(child, options)) },
    };
    fields.extra = list;
  }
  return fields;
};

/** Encodes a component as the NBT compound that 1.20.3+ clients read in `system_chat.content`. */
export const componentToNbt = (component: ChatComponent, options: NbtTextOptions = {}): ComponentNbt =>
  nbt.comp(nbtFields(component, options)) as ComponentNbt;

/** The JSON shape of a component; `legacyHover` writes `hoverEvent.value` as 1.8–1.15 clients expect. */
export type ComponentJson = { [key: string]: string | boolean | ComponentJson | ComponentJson[] };

/** Encodes a component as JSON text (1.8–1.20.2); hover uses `contents` from 1.16 on, `value` before. */
export const componentToJson = (
  component: ChatComponent,
  options: { legacyHover: boolean },
): ComponentJson => {
  const json: ComponentJson = { text: literalText(component.text), ...styleJson(component) };
  if (component.clickEvent !== undefined) {
    json.clickEvent = { action: component.clickEvent.action, value: component.clickEvent.value };
  }
  if (component.hoverText !== undefined) {
    const hover = componentToJson(component.hoverText, options);
    json.hoverEvent = options.legacyHover
      ? { action: "show_text", value: hover }
      : { action: "show_text", contents: hover };
  }
  if (component.extra !== undefined && component.extra.length > 0) {
    json.extra = component.extra.map((child) => componentToJson(child, options));
  }
  return json;
};

const styleJson = (component: ChatComponent): ComponentJson => {
  const json: ComponentJson = {};
  if (component.color !== undefined) json.color = component.color;
  if (component.bold !== undefined) json.bold = component.bold;
  if (component.italic !== undefined) json.italic = component.italic;
  if (component.underlined !== undefined) json.underlined = component.underlined;
  return json;
};

/** The plain text of a component tree, in reading order (logs, tests, the web panel). */
export const componentPlainText = (component: ChatComponent): string =>
  component.text + (component.extra ?? []).map(componentPlainText).join("");
