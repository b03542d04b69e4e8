/**
 * The request journal: what apps sent and what they got, newest first, bounded so a long run
 * never grows without limit.
 * @module
 */
import { getQueryParam } from "hono/utils/url";
import { isoTimestamp } from "./engine/clock.js";

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
  /** A `pathPattern` regex: matched against the path below the API base, as scenario rules are. */
  path?: RegExp;
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
  if (contentType?.includes("json")) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

export class Journal {
  #entries: JournalRecord[] = [];
  #next = 0;
  #nextId = 1;

  constructor(readonly capacity: number) {}

  /** Keeps `entry` (numbered, and with oversized bodies dropped so the journal's memory stays bounded). */
  add(entry: JournalRecord): void {
    if (this.capacity === 0) return;
    entry.id = this.#nextId++;
    if (entry.requestText.length > MAX_BODY_CHARS) [entry.requestText, entry.requestType] = [NOT_KEPT(entry.requestText.length), "text/plain"];
    if (entry.responseText.length > MAX_BODY_CHARS) [entry.responseText, entry.responseType] = [NOT_KEPT(entry.responseText.length), "text/plain"];
    // A ring: the oldest entry is overwritten once the journal is full.
    if (this.#entries.length < this.capacity) this.#entries.push(entry);
    else this.#entries[this.#next] = entry;
    this.#next = (this.#next + 1) % this.capacity;
  }

  get size(): number {
    return this.#entries.length;
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

  #select(filter: JournalFilter): JournalRecord[] {
    const out: JournalRecord[] = [];
    const n = this.#entries.length;
    for (let k = 1; k <= n && out.length < (filter.limit ?? Infinity); k++) {
      const e = this.#entries[(this.#next - k + n * 2) % n]!;
      if (filter.shopId !== undefined && e.shopId !== filter.shopId && !(filter.includeUnidentified && e.shopId === null)) continue;
      if (filter.method !== undefined && e.method !== filter.method) continue;
      if (filter.path && !filter.path.test(e.path.replace(/^\/rest_api\/v1(?=\/)/, ""))) continue;
      if (filter.status !== undefined && e.status !== filter.status) continue;
      if (filter.customerId !== undefined && e.customerId !== filter.customerId) continue;
      out.push(e);
    }
    return out;
  }

  /** Forgets every entry, or only one shop's (and, for the default shop, unidentified ones). */
  clear(shopId?: string, includeUnidentified = false): void {
    const oldestFirst = [...this.#entries.slice(this.#next), ...this.#entries.slice(0, this.#next)];
    const keep =
      shopId === undefined ? [] : oldestFirst.filter((e) => !(e.shopId === shopId || (includeUnidentified && e.shopId === null)));
    this.#entries = keep;
    this.#next = keep.length % Math.max(1, this.capacity);
  }
}
