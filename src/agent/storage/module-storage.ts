import type { Codec, Json } from "../../util/codec.js";
import type { Identifier } from "../../util/identifier.js";

/**
 * Base of a module's business storage. Collections stay private; mutators call `markDirty()` only on a
 * real change, so a repeated unlock or the same state assigned again writes nothing.
 */
export abstract class DataStorage<D> {
  #dirty = false;

  /** The plain data the declared codec encodes; called only when the storage is dirty. */
  abstract toData(): D;

  get dirty(): boolean {
    return this.#dirty;
  }

  protected markDirty(): void {
    this.#dirty = true;
  }
}

/** Options of {@link ModuleStorage.of}. */
export interface ModuleStorageOptions<D, S extends DataStorage<D>> {
  /** The ServerModule (feature) that owns the data; the first key of PlayerData.moduleData. */
  readonly owner: Identifier;
  /** The storage type: the second key, telling apart several storages of one owner. */
  readonly type: string;
  /** The codec id written beside the data; a stored id that differs is refused, not guessed. */
  readonly codecId: Identifier;
  readonly codec: Codec<D>;
  /**
   * Creates the storage from stored data, or empty when the player has none yet. Method syntax, so a typed
   * declaration is assignable to `AnyModuleStorage` (what `ServerModule.storages()` lists).
   */
  factory(data: D | undefined): S;
}

/**
 * A declaration of one player storage (owner, codec id, type, codec, factory), returned by
 * `ServerModule.storages()` and used as the key of `ModuleData.get(data, SomeModule.STORAGE)`.
 */
export class ModuleStorage<D, S extends DataStorage<D>> {
  private constructor(private readonly options: ModuleStorageOptions<D, S>) {}

  static of<D, S extends DataStorage<D>>(options: ModuleStorageOptions<D, S>): ModuleStorage<D, S> {
    return new ModuleStorage(options);
  }

  get owner(): Identifier {
    return this.options.owner;
  }
  get type(): string {
    return this.options.type;
  }
  get codecId(): Identifier {
    return this.options.codecId;
  }
  get codec(): Codec<D> {
    return this.options.codec;
  }

  /** A fresh instance from stored JSON (undefined: empty); throws when the stored data does not decode. */
  create(stored: Json | undefined): S {
    if (stored === undefined) return this.options.factory(undefined);
    const decoded = this.options.codec.decode(stored);
    if (!decoded.success) throw new Error(`storage ${this} holds data its codec refuses: ${decoded.error}`);
    return this.options.factory(decoded.value);
  }

  /** The JSON to persist for an instance. */
  encode(storage: S): Json {
    return this.options.codec.encode(storage.toData());
  }

  toString(): string {
    return `${this.options.owner}/${this.options.type}`;
  }
}

/** Any declaration, for collections. */
export type AnyModuleStorage = ModuleStorage<unknown, DataStorage<unknown>>;
