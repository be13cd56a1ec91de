import type { Codec, Json } from "./codec.js";
import { Identifier } from "./identifier.js";
import { Registry } from "./registry.js";
import { invalid, type Validation, valid } from "./validation.js";

/** A value tagged with the id of the registered codec that describes it. */
export interface Typed<T = unknown> {
  readonly type: Identifier;
  readonly value: T;
}

/**
 * Dispatch by registered codec: `{"type": "<id>", ...fields}` is decoded by the codec registered for that id.
 * Unknown or missing types are an error value, never a throw.
 */
export class TypeDispatch {
  readonly registry: Registry<Codec<unknown>>;

  constructor(name: string) {
    this.registry = new Registry(name);
  }

  register<T>(id: Identifier, codec: Codec<T>): Codec<T> {
    this.registry.register(id, codec as Codec<unknown>);
    return codec;
  }

  decode(data: unknown): Validation<Typed> {
    if (typeof data !== "object" || data === null || Array.isArray(data))
      return invalid("expected an object");
    let type: unknown;
    let rest: Record<string, unknown>;
    try {
      ({ type, ...rest } = data as Record<string, unknown>);
    } catch {
      return invalid("unreadable object");
    }
    if (typeof type !== "string") return invalid("missing type");
    const id = Identifier.tryParse(type);
    const codec = id === undefined ? undefined : this.registry.get(id);
    if (id === undefined || codec === undefined)
      return invalid(`unknown type ${JSON.stringify(type).slice(0, 80)}`);
    const decoded = codec.decode(rest);
    if (decoded.success) return valid({ type: id, value: decoded.value });
    // A body that is not a plain object (or that has its own `type` field) travels wrapped in `value`.
    const keys = Object.keys(rest);
    if (keys.length === 1 && keys[0] === "value") {
      const wrapped = codec.decode(rest.value);
      if (wrapped.success) return valid({ type: id, value: wrapped.value });
    }
    return invalid(decoded.error);
  }

  encode(typed: Typed): Json {
    const codec = this.registry.get(typed.type);
    if (codec === undefined) throw new Error(`unknown type ${typed.type}`);
    const body = codec.encode(typed.value);
    if (typeof body !== "object" || body === null || Array.isArray(body) || "type" in body)
      return { type: typed.type.toString(), value: body };
    return { type: typed.type.toString(), ...body };
  }
}
