import { z } from "zod";
import type { EventTask, StepReceipt } from "../../agent/storage/agent-journal.js";
import { isState } from "../../agent/storage/state.js";
import type { Json } from "../../util/codec.js";

/** Format version of journal files (snapshot and log); other versions are refused at open. */
export const JOURNAL_VERSION = 1;

// Payloads come from JSON.parse of checksummed frames, so nested values are JSON by construction: they are
// not validated field by field again (that made opening a large journal slow).
const json = z.custom<Json>((value) => value !== undefined);

const failure = z.object({
  code: z.string(),
  key: z.string(),
  args: z.array(z.string()),
  noEffect: z.boolean().optional(),
});

const stepShape = z.object({
  t: z.literal("step"),
  key: z.string().min(1),
  tool: z.string(),
  state: z.string(),
  result: json.optional(),
  failure: failure.optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

const eventShape = z.object({
  t: z.literal("event"),
  id: z.string().min(1),
  type: z.string(),
  input: json,
  playerId: z.string(),
  owner: z.string().optional(),
  eventType: z.string().optional(),
  rule: z.string().optional(),
  policy: json,
  state: z.string(),
  attempts: z.number().int().min(0),
  result: json.optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
});

const headerShape = z.object({
  t: z.literal("header"),
  format: z.string(),
  version: z.number(),
  generation: z.number(),
});

/** One decoded journal record. `unreadable` keeps the raw payload of an entry that may not be run. */
export type JournalRecord =
  | {
      readonly kind: "header";
      readonly format: string;
      readonly version: number;
      readonly generation: number;
    }
  | { readonly kind: "step"; readonly receipt: StepReceipt; readonly bytes: number }
  | { readonly kind: "event"; readonly task: EventTask; readonly bytes: number }
  | {
      readonly kind: "unreadable";
      readonly table: "steps" | "events";
      readonly key: string;
      readonly reason: string;
      readonly payload: Buffer;
    };

const stripUndefined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;

/** The first bytes of every record payload this code writes (`{"t":"…`), to find records after damage. */
export const RECORD_MARKER = Buffer.from('{"t":"', "utf8");

/** Encodes a receipt as a record payload. */
export const stepPayload = (receipt: StepReceipt): Buffer =>
  Buffer.from(JSON.stringify({ t: "step", ...receipt }), "utf8");

/** Encodes an event task as a record payload. */
export const eventPayload = (task: EventTask): Buffer =>
  Buffer.from(JSON.stringify({ t: "event", ...task }), "utf8");

/** Encodes a file header record payload. */
export const headerPayload = (format: string, generation: number): Buffer =>
  Buffer.from(JSON.stringify({ t: "header", format, version: JOURNAL_VERSION, generation }), "utf8");

/**
 * Decodes a checksummed payload. A record whose state is not a declared State (or whose shape is wrong) is
 * returned as unreadable: it is kept and reported, never treated as new work.
 */
export const decodeRecord = (payload: Buffer): JournalRecord => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload.toString("utf8"));
  } catch {
    return { kind: "unreadable", table: "steps", key: "", reason: "not JSON", payload };
  }
  if ((parsed as { t?: unknown })?.t === "header") {
    const header = headerShape.safeParse(parsed);
    if (header.success) return { kind: "header", ...header.data };
  }
  const table = (parsed as { t?: unknown })?.t === "event" ? "events" : "steps";
  const rawKey = table === "events" ? (parsed as { id?: unknown }).id : (parsed as { key?: unknown }).key;
  const key = typeof rawKey === "string" ? rawKey : "";
  if (table === "steps") {
    const step = stepShape.safeParse(parsed);
    if (!step.success) return { kind: "unreadable", table, key, reason: step.error.message, payload };
    const { t: _tag, state, ...rest } = step.data;
    if (!isState(state)) return { kind: "unreadable", table, key, reason: `unknown state ${state}`, payload };
    return {
      kind: "step",
      receipt: stripUndefined({ ...rest, state }) as StepReceipt,
      bytes: payload.length,
    };
  }
  const event = eventShape.safeParse(parsed);
  if (!event.success) return { kind: "unreadable", table, key, reason: event.error.message, payload };
  const { t: _tag, state, ...rest } = event.data;
  if (!isState(state)) return { kind: "unreadable", table, key, reason: `unknown state ${state}`, payload };
  return { kind: "event", task: stripUndefined({ ...rest, state }) as EventTask, bytes: payload.length };
};
