import { invalid, type Validation, valid } from "../../util/validation.js";
import type { ChatComponent } from "./chat-component.js";

/**
 * A server dialog as 1.21.6+ clients draw it (`net/minecraft/server/dialog`): the surface-neutral model that the
 * window's pages are built in. The gateway writes it as NBT (`show_dialog`); `validateDialog` checks what the
 * client's codec would reject, since a client disconnects on a dialog it cannot read.
 */
export type DialogText = string | ChatComponent;

/** A click payload: string fields only (System's own clicks carry ids and small values, never typed text). */
export type DialogPayload = Readonly<Record<string, string>>;

export type DialogAction =
  | { readonly type: "custom"; readonly id: string; readonly payload?: DialogPayload }
  /** Sends every input's value back, with `additions`, as one `custom_click_action`. */
  | { readonly type: "dynamic/custom"; readonly id: string; readonly additions?: DialogPayload }
  | { readonly type: "dynamic/run_command"; readonly template: string }
  | { readonly type: "run_command"; readonly command: string }
  | { readonly type: "open_url"; readonly url: string }
  | { readonly type: "copy_to_clipboard"; readonly value: string }
  | { readonly type: "show_dialog"; readonly dialog: Dialog };

export interface DialogButton {
  readonly label: DialogText;
  readonly tooltip?: DialogText;
  /** 1–1024, 150 by default. */
  readonly width?: number;
  readonly action?: DialogAction;
}

export type DialogBody =
  | { readonly type: "plain_message"; readonly contents: DialogText; readonly width?: number }
  /** An item the client draws with its real icon (`minecraft:diamond`), with an optional line beside it. */
  | {
      readonly type: "item";
      readonly item: string;
      readonly count?: number;
      readonly description?: DialogText;
      readonly width?: number;
      readonly height?: number;
    };

export type DialogInput =
  | {
      readonly type: "text";
      readonly key: string;
      readonly label: DialogText;
      readonly labelVisible?: boolean;
      readonly width?: number;
      readonly initial?: string;
      /** Characters the box takes; 32 by default. */
      readonly maxLength?: number;
      readonly multiline?: { readonly maxLines?: number; readonly height?: number };
    }
  | {
      readonly type: "boolean";
      readonly key: string;
      readonly label: DialogText;
      readonly initial?: boolean;
    }
  | {
      readonly type: "single_option";
      readonly key: string;
      readonly label: DialogText;
      readonly width?: number;
      readonly options: readonly {
        readonly id: string;
        readonly display?: DialogText;
        readonly initial?: boolean;
      }[];
    };

interface DialogCommon {
  readonly title: DialogText;
  /** The label of buttons and pause-menu entries that open this dialog. */
  readonly externalTitle?: DialogText;
  readonly canCloseWithEscape?: boolean;
  /** Pauses a single-player game; true by default (and then `afterAction` may not be `none`). */
  readonly pause?: boolean;
  readonly afterAction?: "close" | "none" | "wait_for_response";
  readonly body?: readonly DialogBody[];
  readonly inputs?: readonly DialogInput[];
}

export type Dialog = DialogCommon &
  (
    | { readonly type: "notice"; readonly action?: DialogButton }
    | { readonly type: "confirmation"; readonly yes: DialogButton; readonly no: DialogButton }
    | {
        readonly type: "multi_action";
        readonly actions: readonly DialogButton[];
        readonly exitAction?: DialogButton;
        readonly columns?: number;
      }
  );

/** Input keys: what a `$(key)` template and a `dynamic/custom` payload name them by. */
const INPUT_KEY = /^[A-Za-z0-9_]+$/u;
/** A namespaced id (`system:ask`). */
const IDENTIFIER = /^(?:[a-z0-9_.-]+:)?[a-z0-9_./-]+$/u;

const inRange = (value: number | undefined, low: number, high: number): boolean =>
  value === undefined || (Number.isInteger(value) && value >= low && value <= high);

const buttonError = (button: DialogButton, where: string): string | undefined => {
  if (!inRange(button.width, 1, 1024)) return `${where}: width ${button.width} is not 1–1024`;
  const action = button.action;
  if (action === undefined) return undefined;
  if ((action.type === "custom" || action.type === "dynamic/custom") && !IDENTIFIER.test(action.id))
    return `${where}: "${action.id}" is not an identifier`;
  if (action.type === "dynamic/run_command" && !/\$\([A-Za-z0-9_]+\)/u.test(action.template))
    return `${where}: a command template without variables`;
  if (action.type === "show_dialog") {
    const inner = validateDialog(action.dialog);
    if (!inner.success) return `${where}: ${inner.error}`;
  }
  return undefined;
};

const inputError = (input: DialogInput, where: string): string | undefined => {
  if (!INPUT_KEY.test(input.key)) return `${where}: key "${input.key}" is not [A-Za-z0-9_]`;
  if (input.type === "text") {
    const maxLength = input.maxLength ?? 32;
    if (!Number.isInteger(maxLength) || maxLength < 1)
      return `${where}: max_length ${maxLength} is not positive`;
    if ([...(input.initial ?? "")].length > maxLength)
      return `${where}: initial is longer than max_length ${maxLength}`;
    if (!inRange(input.width, 1, 1024)) return `${where}: width ${input.width} is not 1–1024`;
    const multiline = input.multiline;
    if (
      multiline !== undefined &&
      (!inRange(multiline.height, 1, 512) || !inRange(multiline.maxLines, 1, 2 ** 31))
    )
      return `${where}: multiline height 1–512 and max_lines positive`;
  }
  if (input.type === "single_option") {
    if (input.options.length === 0) return `${where}: no options`;
    if (input.options.filter((option) => option.initial === true).length > 1)
      return `${where}: more than one initial option`;
    if (!inRange(input.width, 1, 1024)) return `${where}: width ${input.width} is not 1–1024`;
  }
  return undefined;
};

const bodyError = (body: DialogBody, where: string): string | undefined => {
  if (body.type === "plain_message")
    return inRange(body.width, 1, 1024) ? undefined : `${where}: width 1–1024`;
  if (!IDENTIFIER.test(body.item)) return `${where}: "${body.item}" is not an item id`;
  if (!inRange(body.width, 1, 256) || !inRange(body.height, 1, 256))
    return `${where}: width and height 1–256`;
  if (!inRange(body.count, 1, 99)) return `${where}: count 1–99`;
  return undefined;
};

/**
 * What the client's codec rejects, found before the dialog is sent: `pause` with `after_action: none`, a command
 * template without variables, an `initial` longer than `max_length`, a key other than `[A-Za-z0-9_]` (or used
 * twice), an empty `multi_action`, sizes out of range.
 */
export const validateDialog = (dialog: Dialog): Validation<Dialog> => {
  if ((dialog.pause ?? true) && dialog.afterAction === "none")
    return invalid("pause with after_action none (set pause false)");
  const errors: (string | undefined)[] = [];
  for (const [index, body] of (dialog.body ?? []).entries()) errors.push(bodyError(body, `body ${index}`));
  const keys = new Set<string>();
  (dialog.inputs ?? []).forEach((input, index) => {
    errors.push(inputError(input, `input ${index}`));
    if (keys.has(input.key)) errors.push(`input ${index}: key "${input.key}" used twice`);
    keys.add(input.key);
  });
  if (dialog.type === "notice" && dialog.action !== undefined)
    errors.push(buttonError(dialog.action, "action"));
  if (dialog.type === "confirmation")
    errors.push(buttonError(dialog.yes, "yes"), buttonError(dialog.no, "no"));
  if (dialog.type === "multi_action") {
    if (dialog.actions.length === 0) errors.push("multi_action without actions");
    if (!inRange(dialog.columns, 1, 2 ** 31)) errors.push(`columns ${dialog.columns} is not positive`);
    for (const [index, button] of dialog.actions.entries())
      errors.push(buttonError(button, `action ${index}`));
    if (dialog.exitAction !== undefined) errors.push(buttonError(dialog.exitAction, "exit_action"));
  }
  const error = errors.find((found) => found !== undefined);
  return error === undefined ? valid(dialog) : invalid(error);
};
