import { z } from "zod";
import { invalid, type Validation, valid } from "./validation.js";

/** JSON-like data as stored or sent. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A typed schema for JSON-like data (the MapCodec of the seeds). `decode` never throws on bad data;
 * `encode` produces plain JSON; `jsonSchema` describes the input for a model catalog.
 */
export interface Codec<T> {
  readonly schema: z.ZodType<T>;
  decode(data: unknown): Validation<T>;
  encode(value: T): Json;
  jsonSchema(): Record<string, unknown>;
}

class ZodCodec<T> implements Codec<T> {
  #jsonSchema: Record<string, unknown> | undefined;
  constructor(readonly schema: z.ZodType<T>) {}

  decode(data: unknown): Validation<T> {
    try {
      const parsed = this.schema.safeParse(data);
      if (parsed.success) return valid(parsed.data);
      return invalid(formatIssues(parsed.error));
    } catch (error) {
      // Hostile data (cyclic objects, throwing getters, absurd nesting) must still come back as a value.
      return invalid(`(root): unreadable data (${error instanceof Error ? error.name : "error"})`);
    }
  }

  encode(value: T): Json {
    const text = JSON.stringify(value);
    return text === undefined ? null : (JSON.parse(text) as Json);
  }

  jsonSchema(): Record<string, unknown> {
    if (this.#jsonSchema === undefined) {
      const { $schema: _ignored, ...rest } = z.toJSONSchema(this.schema, {
        unrepresentable: "any",
      }) as Record<string, unknown>;
      this.#jsonSchema = rest;
    }
    return this.#jsonSchema;
  }
}

const formatIssues = (error: z.ZodError): string =>
  error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(root)"}: ${issue.message}`)
    .join("; ");

/** Builds a codec from a zod schema. */
export const codec = <T>(schema: z.ZodType<T>): Codec<T> => new ZodCodec(schema);

/** Decodes or throws a TypeError; for trusted data (built-in resources, test fixtures). */
export const decodeOrThrow = <T>(target: Codec<T>, data: unknown): T => {
  const result = target.decode(data);
  if (!result.success) throw new TypeError(result.error);
  return result.value;
};

/** UTF-8 byte length of the JSON encoding of a value. */
export const encodedBytes = (value: unknown): number =>
  Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");
