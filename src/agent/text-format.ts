import type { Languages } from "../util/language.js";
import type { Text } from "./text.js";

/** Renders a Text as plain text in a locale; arguments are inserted, never parsed as format strings. */
export const formatText = (languages: Languages, locale: string, text: Text): string => {
  if (text.kind === "literal") return text.text;
  const args = text.args.map((argument) =>
    typeof argument === "object" ? formatText(languages, locale, argument) : String(argument),
  );
  return languages.format(locale, text.key, args);
};
