import {
  CommandSyntaxException,
  LiteralMessage,
  SimpleCommandExceptionType,
  type StringReader,
} from "@jsprismarine/brigadier";
import type ArgumentType from "@jsprismarine/brigadier/arguments/ArgumentType";
import { Identifier } from "../../util/identifier.js";

const INVALID = new SimpleCommandExceptionType(new LiteralMessage("Expected a resource id (namespace:path)"));

/** A Brigadier argument reading one `namespace:path` id (a bare path takes `minecraft`), as typed. */
export class IdentifierArgumentType implements ArgumentType<Identifier> {
  constructor(private readonly defaultNamespace = "minecraft") {}

  parse(reader: StringReader): Identifier {
    const start = reader.getCursor();
    while (reader.canRead() && reader.peek() !== " ") reader.skip();
    const text = reader.getString().slice(start, reader.getCursor()).toLowerCase();
    const full = text.includes(":") ? text : `${this.defaultNamespace}:${text}`;
    const parsed = Identifier.tryParse(full);
    if (text.length === 0 || parsed === undefined) {
      reader.setCursor(start);
      throw INVALID.createWithContext(reader);
    }
    return parsed;
  }

  getExamples(): Iterable<string> {
    return ["minecraft:diamond", "stone"];
  }
}

export const isSyntaxException = (error: unknown): error is CommandSyntaxException =>
  error instanceof CommandSyntaxException;
