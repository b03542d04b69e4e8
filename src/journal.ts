/**
 * The request journal: what apps sent and what they got, newest first, bounded so a long run
 * never grows without limit.
 * @module
 */
import { getQueryParam } from "hono/utils/url";
import { isoTimestamp } from "./engine/clock.js";
import { belowApiBase } from "./http/base.js";
import { jsonTextTooDeep } from "./http/json-depth.js";

export interface JournalEntry {
  id: number;
  at: string;
  shopId: string | null;
  method: string;
  path: string;
  operation: string | null;
  customerId: string | null;
  query: Record<string, string>;
  requestBody: unknown;
  /** HTTP status, or null when a fault answered with no response. */
  status: number | null;
  fault: string | null;
  responseBody: unknown;
  durationMs: number;
  scenario: { scenario: string; rule: number; ruleName?: string } | null;
}

/**
 * What the recorder hands over: the raw facts, formatted only when the journal is read. Recording
 * runs on every request, reading the journal rarely, so the timestamp stays a number, the query
 * stays inside the URL and the bodies stay the text that crossed the wire.
 */
export interface JournalRecord extends Omit<JournalEntry, "at" | "query" | "requestBody" | "responseBody"> {
  /** Engine time of arrival, in ms; `id` is 0 until the journal numbers the record. */
  at: number;
  /** The request URL, its query string parsed when read. */
  url: string;
  requestText: string;
  requestType: string | null;
  responseText: string;
  responseType: string | null;
}

export interface JournalFilter {
  shopId?: string;
  /** Also entries that identified no shop (bad credentials). */
  includeUnidentified?: boolean;
  method?: string;
  /** A path glob (scenarios/glob.ts): matched against the path below the API base, as scenario rules are. */
  path?: { test(path: string): boolean };
  status?: number;
  customerId?: string;
  limit?: number;
}

/** Bodies above this size are kept as a note: a journal of 1000 big pages would hold (and make the
 * garbage collector carry) hundreds of megabytes. A default page of 20 customers fits. */
const MAX_BODY_CHARS = 16 * 1024;

const NOT_KEPT = (length: number) => `(${length} characters, not kept)`;

export function journalBody(text: string, contentType: string | null): unknown {
  if (text === "") return null;
  if (text.length > MAX_BODY_CHARS) return NOT_KEPT(text.length);
  // Too deep to be written out again (the API refuses such bodies, but journals them): kept as text.
  if (contentType?.includes("json") && !jsonTextTooDeep(text)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** The text fields of a record, packed in this order into their slot's bytes. */
const TEXT_FIELDS = [
  "shopId",
  "method",
  "path",
  "url",
  "operation",
  "customerId",
  "requestText",
  "requestType",
  "fault",
  "responseText",
  "responseType",
] as const;
type TextField = (typeof TEXT_FIELDS)[number];
const FIELDS = TEXT_FIELDS.length + 1; // and the scenario, as JSON

/** The texts of TEXT_FIELDS and the scenario, in that order; read by name, not by `e[field]`
 * in a loop, which makes every read a megamorphic lookup on the request path. */
const textsOf = (e: JournalRecord): (string | null)[] => [
  e.shopId,
  e.method,
  e.path,
  e.url,
  e.operation,
  e.customerId,
  e.requestText,
  e.requestType,
  e.fault,
  e.responseText,
  e.responseType,
  e.scenario === null ? null : JSON.stringify(e.scenario),
];
const NULL_LENGTH = -1;
/** Bytes a slot starts with: 1000 slots take 2 MiB. */
const SLOT_BYTES = 2048;

/**
 * A ring of journal entries kept outside the JavaScript heap: each slot's text in a Buffer of its
 * own (reused, grown as needed), its numbers in typed arrays. Entries kept as objects lived just
 * long enough to be promoted to the old generation and then died there, so a busy journal kept
 * the major garbage collector marking the whole shop (measured at 11 µs per request with 100k
 * customers). Texts are packed as UTF-8, which keeps every string's length in UTF-16 units: the
 * texts recorded are well-formed (decoded bodies, JSON, headers), so they come back as written.
 */
class Slots {
  readonly #ids: Float64Array;
  readonly #at: Float64Array;
  readonly #status: Int32Array;
  readonly #durationMs: Float64Array;
  /** UTF-16 length of each text field (NULL_LENGTH for null), FIELDS per slot. */
  readonly #lengths: Int32Array;
  readonly #bytes: Buffer[] = [];
  readonly #byteLength: Uint32Array;

  constructor(readonly capacity: number) {
    this.#ids = new Float64Array(capacity);
    this.#at = new Float64Array(capacity);
    this.#status = new Int32Array(capacity);
    this.#durationMs = new Float64Array(capacity);
    this.#lengths = new Int32Array(capacity * FIELDS);
    this.#byteLength = new Uint32Array(capacity);
  }

  write(slot: number, e: JournalRecord): void {
    this.#ids[slot] = e.id;
    this.#at[slot] = e.at;
    this.#status[slot] = e.status ?? NULL_LENGTH;
    this.#durationMs[slot] = e.durationMs;
    let text = "";
    const base = slot * FIELDS;
    const values = textsOf(e);
    for (let f = 0; f < FIELDS; f++) {
      const value = values[f]!;
      this.#lengths[base + f] = value === null ? NULL_LENGTH : value.length;
      if (value !== null) text += value;
    }
    let buffer = this.#bytes[slot];
    // A UTF-16 unit takes at most 3 bytes: count them exactly only when that could overflow, which
    // a slot's first 2 KiB rule out for the usual entry (a customer and its request: ~600 units).
    // (Writing the fields one by one instead of joined measured slower.)
    if (buffer === undefined || buffer.length < text.length * 3) {
      const needed = Buffer.byteLength(text);
      if (buffer === undefined || buffer.length < needed) {
        buffer = Buffer.allocUnsafeSlow(Math.max(SLOT_BYTES, 2 ** Math.ceil(Math.log2(needed + 1))));
        this.#bytes[slot] = buffer;
      }
    }
    this.#byteLength[slot] = buffer.write(text, 0);
  }

  read(slot: number): JournalRecord {
    const text = this.#bytes[slot]!.toString("utf8", 0, this.#byteLength[slot]);
    const base = slot * FIELDS;
    let offset = 0;
    const next = (f: number): string | null => {
      const length = this.#lengths[base + f]!;
      if (length === NULL_LENGTH) return null;
      offset += length;
      return text.slice(offset - length, offset);
    };
    const texts = {} as Record<TextField, string | null>;
    for (let f = 0; f < TEXT_FIELDS.length; f++) texts[TEXT_FIELDS[f]!] = next(f);
    const scenario = next(TEXT_FIELDS.length);
    const status = this.#status[slot]!;
    return {
      id: this.#ids[slot]!,
      at: this.#at[slot]!,
      shopId: texts.shopId,
      method: texts.method!,
      path: texts.path!,
      url: texts.url!,
      operation: texts.operation,
      customerId: texts.customerId,
      requestText: texts.requestText!,
      requestType: texts.requestType,
      status: status === NULL_LENGTH ? null : status,
      fault: texts.fault,
      responseText: texts.responseText!,
      responseType: texts.responseType,
      durationMs: this.#durationMs[slot]!,
      scenario: scenario === null ? null : (JSON.parse(scenario) as JournalRecord["scenario"]),
    };
  }
}

export class Journal {
  #slots: Slots;
  /** Entries kept, and the slot the next one goes to. */
  #count = 0;
  #next = 0;
  #nextId = 1;

  constructor(readonly capacity: number) {
    this.#slots = new Slots(capacity);
  }

  /** Keeps `entry` (numbered, and with oversized bodies dropped so the journal's memory stays bounded). */
  add(entry: JournalRecord): void {
    if (this.capacity === 0) return;
    entry.id = this.#nextId++;
    if (entry.requestText.length > MAX_BODY_CHARS) [entry.requestText, entry.requestType] = [NOT_KEPT(entry.requestText.length), "text/plain"];
    if (entry.responseText.length > MAX_BODY_CHARS) [entry.responseText, entry.responseType] = [NOT_KEPT(entry.responseText.length), "text/plain"];
    this.#keep(entry);
  }

  /** A ring: the oldest entry is overwritten once the journal is full. */
  #keep(entry: JournalRecord): void {
    this.#slots.write(this.#next, entry);
    this.#next = (this.#next + 1) % this.capacity;
    if (this.#count < this.capacity) this.#count++;
  }

  get size(): number {
    return this.#count;
  }

  /** Newest first. */
  list(filter: JournalFilter = {}): JournalEntry[] {
    return this.#select(filter).map((e) => ({
      id: e.id,
      at: isoTimestamp(e.at),
      shopId: e.shopId,
      method: e.method,
      path: e.path,
      operation: e.operation,
      customerId: e.customerId,
      query: getQueryParam(e.url) as Record<string, string>,
      requestBody: journalBody(e.requestText, e.requestType),
      status: e.status,
      fault: e.fault,
      responseBody: journalBody(e.responseText, e.responseType),
      durationMs: e.durationMs,
      scenario: e.scenario,
    }));
  }

  /** Every entry, newest first. */
  *#newestFirst(): Generator<JournalRecord> {
    for (let k = 1; k <= this.#count; k++) yield this.#slots.read((this.#next - k + this.capacity) % this.capacity);
  }

  #select(filter: JournalFilter): JournalRecord[] {
    const out: JournalRecord[] = [];
    for (const e of this.#newestFirst()) {
      if (out.length >= (filter.limit ?? Infinity)) break;
      if (filter.shopId !== undefined && e.shopId !== filter.shopId && !(filter.includeUnidentified && e.shopId === null)) continue;
      if (filter.method !== undefined && e.method !== filter.method) continue;
      if (filter.path && !filter.path.test(belowApiBase(e.path))) continue;
      if (filter.status !== undefined && e.status !== filter.status) continue;
      if (filter.customerId !== undefined && e.customerId !== filter.customerId) continue;
      out.push(e);
    }
    return out;
  }

  /** Forgets every entry, or only one shop's (and, for the default shop, unidentified ones). */
  clear(shopId?: string, includeUnidentified = false): void {
    const keep =
      shopId === undefined ? [] : [...this.#newestFirst()].reverse().filter((e) => !(e.shopId === shopId || (includeUnidentified && e.shopId === null)));
    this.#slots = new Slots(this.capacity);
    this.#count = 0;
    this.#next = 0;
    for (const e of keep) this.#keep(e);
  }
}
