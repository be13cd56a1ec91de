import { z } from "zod";

/**
 * Player-facing text: a translation key with arguments, or literal text that came from data
 * (a model answer, a knowledge entry). User text only ever travels as an argument or a literal,
 * never concatenated into a translation.
 */
export type Text =
  | { readonly kind: "translatable"; readonly key: string; readonly args: readonly TextArgument[] }
  | { readonly kind: "literal"; readonly text: string };

export type TextArgument = string | number | Text;

export const translatable = (key: string, ...args: readonly TextArgument[]): Text => ({
  kind: "translatable",
  key,
  args,
});
export const literal = (text: string): Text => ({ kind: "literal", text });

export const TEXT_SCHEMA: z.ZodType<Text> = z.lazy(() =>
  z.union([
    z.object({
      kind: z.literal("translatable"),
      key: z.string().max(256),
      args: z.array(z.union([z.string(), z.number(), TEXT_SCHEMA])).max(32),
    }),
    z.object({ kind: z.literal("literal"), text: z.string() }),
  ]),
) as z.ZodType<Text>;
