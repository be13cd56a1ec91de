/** A byte layout that does not match what it claims to be (a short buffer, an oversized count or string). */
export class WireError extends Error {}

/** Most entries any registry list may claim (the largest packs have some 60,000 items). */
export const MAX_ENTRIES = 1_000_000;
/** Longest string a registry entry may have (vanilla caps identifiers at 32,767 characters). */
const MAX_STRING_BYTES = 32_767 * 3;

/**
 * Reads the Minecraft wire types the loaders' registry syncs are written in (VarInt, length-prefixed UTF-8,
 * booleans, bytes) from one buffer, never past its end: every read that would is a WireError.
 */
export class WireReader {
  #offset: number;

  constructor(
    private readonly bytes: Buffer,
    offset = 0,
  ) {
    this.#offset = offset;
  }

  get offset(): number {
    return this.#offset;
  }

  /** Whether every byte was read. */
  get done(): boolean {
    return this.#offset === this.bytes.length;
  }

  varInt(): number {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      if (this.#offset >= this.bytes.length) throw new WireError("a VarInt runs past the end");
      const byte = this.bytes[this.#offset++] as number;
      value |= (byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value;
    }
    throw new WireError("a VarInt is longer than five bytes");
  }

  /** A count of entries that follow: never negative, never more than MAX_ENTRIES. */
  count(): number {
    const count = this.varInt();
    if (count < 0 || count > MAX_ENTRIES) throw new WireError(`a list claims ${count} entries`);
    return count;
  }

  byte(): number {
    if (this.#offset >= this.bytes.length) throw new WireError("a byte runs past the end");
    return this.bytes[this.#offset++] as number;
  }

  boolean(): boolean {
    return this.byte() !== 0;
  }

  take(length: number): Buffer {
    if (length < 0 || this.#offset + length > this.bytes.length)
      throw new WireError(`${length} bytes run past the end`);
    const slice = this.bytes.subarray(this.#offset, this.#offset + length);
    this.#offset += length;
    return slice;
  }

  /** What is left unread. */
  rest(): Buffer {
    return this.take(this.bytes.length - this.#offset);
  }

  string(): string {
    const length = this.varInt();
    if (length < 0 || length > MAX_STRING_BYTES) throw new WireError(`a string claims ${length} bytes`);
    return this.take(length).toString("utf8");
  }
}

/** `minecraft:` for an identifier written without its namespace. */
export const namespaced = (id: string): string => (id.includes(":") ? id : `minecraft:${id}`);

/** A VarInt's bytes (to build frames and payloads). */
export const varIntBytes = (value: number): Buffer => {
  const bytes: number[] = [];
  let rest = value >>> 0;
  do {
    const low = rest & 0x7f;
    rest >>>= 7;
    bytes.push(rest === 0 ? low : low | 0x80);
  } while (rest !== 0);
  return Buffer.from(bytes);
};

/** A string as the wire writes it: VarInt byte length, then UTF-8. */
export const stringBytes = (text: string): Buffer => {
  const utf8 = Buffer.from(text, "utf8");
  return Buffer.concat([varIntBytes(utf8.length), utf8]);
};
