/**
 * The journal's ring slots, kept outside the JavaScript heap (entries kept as objects die old and
 * keep the major collector busy): each slot's texts in a reused Buffer as UTF-8, its numbers in
 * typed arrays. The texts recorded are well-formed, so they come back as written.
 * @module
 */
import { DECIDERS } from "../env.js";
import type { JournalRecord } from "./record.js";

/** The text fields of a record, packed in this order into their slot's bytes. */
const TEXT_FIELDS = [
  "shopId",
  "method",
  "path",
  "url",
  "operation",
  "customerId",
  "requestHeaders",
  "requestText",
  "requestType",
  "fault",
  "responseHeaders",
  "responseText",
  "responseType",
  "committedText",
  "committedType",
  "graphqlText",
  "notes",
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
  e.requestHeaders,
  e.requestText,
  e.requestType,
  e.fault,
  e.responseHeaders,
  e.responseText,
  e.responseType,
  e.committed === null ? null : e.committed.text,
  e.committed === null ? null : e.committed.type,
  e.graphqlText,
  e.notes,
  e.scenario === null ? null : JSON.stringify(e.scenario),
];
const NULL_LENGTH = -1;
/** Bytes a slot starts with: 1000 slots take 2 MiB. */
const SLOT_BYTES = 2048;

export class Slots {
  readonly #ids: Float64Array;
  readonly #at: Float64Array;
  readonly #status: Int32Array;
  readonly #committedStatus: Int32Array;
  readonly #durationMs: Float64Array;
  readonly #quotaEnd: Float64Array;
  readonly #decidedBy: Uint8Array;
  /** UTF-16 length of each text field (NULL_LENGTH for null), FIELDS per slot. */
  readonly #lengths: Int32Array;
  readonly #bytes: Buffer[] = [];
  readonly #byteLength: Uint32Array;

  constructor(readonly capacity: number) {
    this.#ids = new Float64Array(capacity);
    this.#at = new Float64Array(capacity);
    this.#status = new Int32Array(capacity);
    this.#committedStatus = new Int32Array(capacity);
    this.#durationMs = new Float64Array(capacity);
    this.#quotaEnd = new Float64Array(capacity);
    this.#decidedBy = new Uint8Array(capacity);
    this.#lengths = new Int32Array(capacity * FIELDS);
    this.#byteLength = new Uint32Array(capacity);
  }

  write(slot: number, e: JournalRecord): void {
    this.#ids[slot] = e.id;
    this.#at[slot] = e.at;
    this.#status[slot] = e.status ?? NULL_LENGTH;
    this.#committedStatus[slot] = e.committed?.status ?? NULL_LENGTH;
    this.#durationMs[slot] = e.durationMs;
    this.#quotaEnd[slot] = e.quotaEnd ?? Number.NaN;
    this.#decidedBy[slot] = DECIDERS.indexOf(e.decidedBy);
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
    // a slot's first 2 KiB rule out for a small entry.
    if (buffer === undefined || buffer.length < text.length * 3) {
      const needed = Buffer.byteLength(text);
      if (buffer === undefined || buffer.length < needed) {
        buffer = Buffer.allocUnsafeSlow(Math.max(SLOT_BYTES, 2 ** Math.ceil(Math.log2(needed + 1))));
        this.#bytes[slot] = buffer;
      }
    }
    this.#byteLength[slot] = buffer.write(text, 0);
  }

  /** The id of the entry in `slot`, without decoding its texts. */
  idAt(slot: number): number {
    return this.#ids[slot]!;
  }

  /** The status of the entry in `slot` (null for a fault), without decoding its texts. */
  statusAt(slot: number): number | null {
    const status = this.#status[slot]!;
    return status === NULL_LENGTH ? null : status;
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
    const committedStatus = this.#committedStatus[slot]!;
    return {
      id: this.#ids[slot]!,
      at: this.#at[slot]!,
      shopId: texts.shopId,
      method: texts.method!,
      path: texts.path!,
      url: texts.url!,
      operation: texts.operation,
      customerId: texts.customerId,
      requestHeaders: texts.requestHeaders!,
      requestText: texts.requestText!,
      requestType: texts.requestType,
      status: this.statusAt(slot),
      fault: texts.fault,
      responseHeaders: texts.responseHeaders,
      responseText: texts.responseText!,
      responseType: texts.responseType,
      committed: committedStatus === NULL_LENGTH ? null : { status: committedStatus, text: texts.committedText!, type: texts.committedType },
      graphqlText: texts.graphqlText,
      durationMs: this.#durationMs[slot]!,
      notes: texts.notes,
      quotaEnd: Number.isNaN(this.#quotaEnd[slot]!) ? null : this.#quotaEnd[slot]!,
      decidedBy: DECIDERS[this.#decidedBy[slot]!]!,
      scenario: scenario === null ? null : (JSON.parse(scenario) as JournalRecord["scenario"]),
    };
  }
}
