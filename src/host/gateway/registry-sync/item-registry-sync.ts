import type { Logger } from "../../../util/logger.js";
import type { Direction, PacketCodec, ProtocolState } from "../protocol/packet-codec.js";
import {
  FORGE_MOD_LIST,
  FORGE_REGISTRY,
  fabricDirectSync,
  forgeLoginWrapper,
  forgeRegistry,
  ITEM_REGISTRY,
  type ItemIds,
  neoForgeFrozenRegistry,
  neoForgeSplit,
  neoForgeSyncStart,
} from "./loader-syncs.js";
import { WireReader } from "./wire-reader.js";

/** Largest packet `neoforge:split` slices may join into (vanilla's own packet limit is 8 MiB). */
export const MAX_SPLIT_BYTES = 16 * 1024 * 1024;
/** Largest `fabric:registry/sync/direct` sequence (1 MiB slices; the largest packs send a few). */
export const MAX_FABRIC_BYTES = 32 * 1024 * 1024;

const NEOFORGE_START = "neoforge:frozen_registry_sync_start";
const NEOFORGE_REGISTRY = "neoforge:frozen_registry";
const NEOFORGE_COMPLETED = "neoforge:frozen_registry_sync_completed";
const NEOFORGE_SPLIT = "neoforge:split";
const FORGE_WRAPPER = "fml:loginwrapper";
const FORGE_HANDSHAKE = "fml:handshake";
const FABRIC_DIRECT = "fabric:registry/sync/direct";

/** The loaders whose item registry sync the gateway reads. */
export type Loader = "NeoForge" | "Forge" | "Fabric";

/**
 * What the gateway knows of one connection's item numbers:
 * - `none`: no loader sync seen (yet): the server's saved copy, else vanilla numbering;
 * - `vanilla`: a loader synced its registries and the item registry was not among them (no mod adds items);
 * - `pending`: a loader's sync began that carries the item registry: every number is unknown until it is read;
 * - `learnt`: the loader's own list, the only numbering used from then on;
 * - `unreadable`: the sync was seen and could not be read: every number stays unknown (mods shift numbers).
 */
export type ItemLearning =
  | { readonly kind: "none" | "vanilla" }
  | { readonly kind: "pending"; readonly loader: Loader }
  | { readonly kind: "learnt"; readonly loader: Loader; readonly ids: ItemIds }
  | { readonly kind: "unreadable"; readonly loader: Loader; readonly cause: string };

/**
 * Learns one relayed connection's item numbers from its loader's own registry sync, read from the backend's
 * frames after they went on unchanged (the relay is never altered): NeoForge 1.20.4+ `neoforge:frozen_registry`
 * in configuration (`neoforge:split` slices joined), Forge 1.20.1 `fml:loginwrapper` → `fml:handshake`
 * `S2CRegistry` in login, Fabric `fabric:registry/sync/direct` slices up to an empty one (play on 1.20.1,
 * configuration on 1.21). `name` turns a live stack's number into its id, or undefined when it is not known.
 */
export class ItemRegistrySync {
  #learning: ItemLearning = { kind: "none" };
  #split: Buffer[] | undefined;
  #splitBytes = 0;
  #fabric: Buffer[] | undefined;
  #fabricBytes = 0;

  constructor(
    private readonly codec: PacketCodec,
    /** The numbering used while no sync was seen: the server's saved copy, else minecraft-data's vanilla one. */
    private readonly fallback: (id: number) => string | undefined,
    private readonly logger: Logger,
    private readonly who: () => string,
  ) {}

  get learning(): ItemLearning {
    return this.#learning;
  }

  /** The id of item number `id` for this connection; undefined when it is not known (never a guess). */
  name(id: number): string | undefined {
    const learning = this.#learning;
    if (learning.kind === "learnt") return learning.ids.get(id);
    if (learning.kind === "none") return this.fallback(id);
    if (learning.kind === "vanilla") return this.codec.itemName(id);
    return undefined;
  }

  /** Whether `observe` wants a frame of this state, direction and packet name. */
  reads(state: ProtocolState, direction: Direction, name: string | undefined): boolean {
    if (direction !== "toClient") return false;
    return state === "login" ? name === "login_plugin_request" : name === "custom_payload";
  }

  /** Reads one backend frame that `reads` wanted; never throws. */
  observe(state: ProtocolState, frame: Buffer): void {
    try {
      const reader = new WireReader(frame);
      reader.varInt();
      if (state === "login") reader.varInt();
      const channel = reader.string();
      this.#payload(state, channel, reader.rest());
    } catch (error) {
      this.logger.warn(
        `a plugin message to ${this.who()} is not laid out as its channel says: ${String(error)}`,
      );
    }
  }

  #payload(state: ProtocolState, channel: string, payload: Buffer): void {
    if (channel === FORGE_WRAPPER) this.#forge(payload);
    else if (channel === NEOFORGE_SPLIT) this.#neoForgeSlice(state, payload);
    else if (channel === NEOFORGE_START) this.#neoForgeStart(payload);
    else if (channel === NEOFORGE_REGISTRY) this.#neoForgeRegistry(payload);
    else if (channel === NEOFORGE_COMPLETED) {
      if (this.#learning.kind === "pending")
        this.#unreadable("NeoForge", "the sync ended without the item registry");
    } else if (channel === FABRIC_DIRECT) this.#fabricSlice(payload);
  }

  #neoForgeStart(payload: Buffer): void {
    let registries: string[];
    try {
      registries = neoForgeSyncStart(payload);
    } catch (error) {
      this.#unreadable("NeoForge", `its list of registries: ${String(error)}`);
      return;
    }
    if (registries.includes(ITEM_REGISTRY)) this.#learning = { kind: "pending", loader: "NeoForge" };
  }

  #neoForgeRegistry(payload: Buffer): void {
    try {
      const { ids } = neoForgeFrozenRegistry(payload);
      if (ids !== undefined) this.#learnt("NeoForge", ids);
    } catch (error) {
      // a registry whose name cannot be read may be the item registry: no number is trusted
      this.#unreadable("NeoForge", String(error));
    }
  }

  #neoForgeSlice(state: ProtocolState, payload: Buffer): void {
    let part: ReturnType<typeof neoForgeSplit>;
    try {
      part = neoForgeSplit(payload);
    } catch (error) {
      this.#split = undefined;
      this.logger.warn(`a split packet to ${this.who()} could not be read: ${String(error)}`);
      return;
    }
    if (part.state === "first") {
      this.#split = [];
      this.#splitBytes = 0;
    }
    if (this.#split === undefined) return;
    this.#splitBytes += part.slice.length;
    if (this.#splitBytes > MAX_SPLIT_BYTES) {
      this.#split = undefined;
      this.logger.warn(`a split packet to ${this.who()} is over ${MAX_SPLIT_BYTES} bytes: not read`);
      return;
    }
    this.#split.push(part.slice);
    if (part.state !== "last") return;
    const whole = Buffer.concat(this.#split);
    this.#split = undefined;
    // the joined bytes are one whole packet of the same state: a plugin message is read as if it came so
    if (this.codec.nameOf(state, "toClient", whole) === "custom_payload") this.observe(state, whole);
  }

  #forge(data: Buffer): void {
    let message: ReturnType<typeof forgeLoginWrapper>;
    try {
      message = forgeLoginWrapper(data);
    } catch (error) {
      this.logger.warn(`a Forge login message to ${this.who()} could not be read: ${String(error)}`);
      return;
    }
    if (message.channel !== FORGE_HANDSHAKE) return;
    if (message.discriminator === FORGE_MOD_LIST && this.#learning.kind !== "learnt")
      this.#learning = { kind: "pending", loader: "Forge" };
    if (message.discriminator !== FORGE_REGISTRY) return;
    try {
      const { registry, ids } = forgeRegistry(message.body);
      if (registry !== ITEM_REGISTRY) return;
      if (ids === undefined) this.#unreadable("Forge", "the item registry was sent without its list");
      else this.#learnt("Forge", ids);
    } catch (error) {
      this.#unreadable("Forge", String(error));
    }
  }

  #fabricSlice(payload: Buffer): void {
    if (payload.length > 0) {
      // a sequence already refused as too large is skipped up to its end
      if (this.#fabricBytes > MAX_FABRIC_BYTES) return;
      this.#fabricBytes += payload.length;
      if (this.#fabricBytes > MAX_FABRIC_BYTES) {
        this.#fabric = undefined;
        this.#unreadable("Fabric", `the sync is over ${MAX_FABRIC_BYTES} bytes`);
        return;
      }
      this.#fabric ??= [];
      this.#fabric.push(payload);
      this.#learning = { kind: "pending", loader: "Fabric" };
      return;
    }
    const slices = this.#fabric ?? [];
    const tooLarge = this.#fabricBytes > MAX_FABRIC_BYTES;
    this.#fabric = undefined;
    this.#fabricBytes = 0;
    if (tooLarge) return;
    try {
      const ids = fabricDirectSync(Buffer.concat(slices));
      if (ids === undefined) this.#learning = { kind: "vanilla" };
      else this.#learnt("Fabric", ids);
    } catch (error) {
      this.#unreadable("Fabric", String(error));
    }
  }

  #learnt(loader: Loader, ids: ItemIds): void {
    this.#learning = { kind: "learnt", loader, ids };
    this.logger.info(`learnt ${ids.size} item numbers of ${this.who()} from the ${loader} registry sync`);
  }

  #unreadable(loader: Loader, cause: string): void {
    this.#learning = { kind: "unreadable", loader, cause };
    this.logger.warn(
      `the ${loader} item registry sent to ${this.who()} could not be read (${cause}): their modded stacks show as unknown`,
    );
  }
}
