import { Identifier } from "../../util/identifier.js";

const ID_TOKEN =
  /(?:^|[\s,，。！？!?;；、"'“”‘’()（）])([a-z0-9_.-]+:[a-z0-9_./-]+)(?=$|[\s,，。！？!?;；、"'“”‘’()（）])/gi;

/** Helpers that read command and profile arguments from free text; they never guess. */
export const CommandArguments = {
  /** Every `namespace:path` id written in the text, lower-cased, in order, without duplicates. */
  identifiers(text: string): Identifier[] {
    const seen = new Map<string, Identifier>();
    for (const match of text.normalize("NFKC").matchAll(ID_TOKEN)) {
      const id = Identifier.tryParse((match[1] ?? "").toLowerCase());
      if (id !== undefined && !seen.has(id.toString())) seen.set(id.toString(), id);
    }
    return [...seen.values()];
  },

  /** The one item id written in the text; undefined when there is none or more than one. */
  singleItemId(text: string): string | undefined {
    const ids = CommandArguments.identifiers(text);
    return ids.length === 1 ? ids[0]?.toString() : undefined;
  },
};
