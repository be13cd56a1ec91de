import { crc32 } from "node:zlib";

/** Bytes before each payload: length (u32 LE) and CRC-32 of the payload (u32 LE). */
export const FRAME_HEADER_BYTES = 8;

/** The largest payload a frame may carry; a longer length field means a torn or foreign file. */
export const MAX_FRAME_PAYLOAD = 64 * 1024 * 1024;

/** Frames one payload so that a torn or corrupted write is detected on read. */
export const encodeFrame = (payload: Buffer): Buffer => {
  if (payload.length === 0 || payload.length > MAX_FRAME_PAYLOAD)
    throw new RangeError(`frame payload of ${payload.length} bytes`);
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + payload.length);
  frame.writeUInt32LE(payload.length, 0);
  frame.writeUInt32LE(crc32(payload), 4);
  payload.copy(frame, FRAME_HEADER_BYTES);
  return frame;
};

/** The frames of a buffer up to the first damaged one, and how many bytes were read soundly. */
export interface DecodedFrames {
  readonly payloads: Buffer[];
  /** Bytes of whole, checksummed frames from the start. */
  readonly validBytes: number;
  /** Bytes after the last sound frame (a torn tail after a crash); 0 when the buffer is whole. */
  readonly tornBytes: number;
}

/** The payload of a sound frame starting at `offset`, or undefined (length 0, past the end, checksum). */
const frameAt = (buffer: Buffer, offset: number): Buffer | undefined => {
  if (offset < 0 || offset + FRAME_HEADER_BYTES > buffer.length) return undefined;
  const length = buffer.readUInt32LE(offset);
  const end = offset + FRAME_HEADER_BYTES + length;
  if (length === 0 || length > MAX_FRAME_PAYLOAD || end > buffer.length) return undefined;
  const payload = buffer.subarray(offset + FRAME_HEADER_BYTES, end);
  return crc32(payload) === buffer.readUInt32LE(offset + 4) ? payload : undefined;
};

/**
 * Reads frames until the end or the first frame whose length runs past the end, whose length is 0, or whose
 * checksum does not match: everything from there on is a torn tail and is not returned.
 */
export const decodeFrames = (buffer: Buffer): DecodedFrames => {
  const payloads: Buffer[] = [];
  let offset = 0;
  for (let payload = frameAt(buffer, 0); payload !== undefined; payload = frameAt(buffer, offset)) {
    payloads.push(payload);
    offset += FRAME_HEADER_BYTES + payload.length;
  }
  return { payloads, validBytes: offset, tornBytes: buffer.length - offset };
};

/**
 * The offset of the first sound frame after `from` whose payload starts with `marker`, or undefined. Finds
 * records that follow a damaged one: after a torn write from a crash there are none.
 */
export const findFrame = (buffer: Buffer, from: number, marker: Buffer): number | undefined => {
  for (
    let index = buffer.indexOf(marker, from + 1 + FRAME_HEADER_BYTES);
    index >= 0;
    index = buffer.indexOf(marker, index + 1)
  )
    if (frameAt(buffer, index - FRAME_HEADER_BYTES) !== undefined) return index - FRAME_HEADER_BYTES;
  return undefined;
};
