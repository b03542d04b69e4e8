/**
 * The request journal: what apps sent and what they got, newest first, bounded so a long run
 * never grows without limit. Recording only packs texts (see slots.ts); they are parsed
 * when the journal is read.
 * @module
 */
import { getQueryParam } from "hono/utils/url";
import { isoTimestamp } from "../../engine/clock.js";
import { jsonTextTooDeep } from "../json-depth.js";
import { apiOf, passes, seenBy, type JournalFilter, type Scope } from "./filter.js";
import { unpackHeaders } from "./headers.js";
import type { JournalEntry, JournalRecord } from "./record.js";
import { Slots } from "./slots.js";
import { Waiters } from "./waiters.js";

export type { JournalFilter } from "./filter.js";

/** Bodies (and all of a request's headers) above this size are kept as a note: a journal of 1000
 * big pages would hold (and make the garbage collector carry) hundreds of megabytes. A default
 * page of 20 customers fits. */
const MAX_BODY_CHARS = 16 * 1024;

const NOT_KEPT = (length: number) => `(${length} characters, not kept)`;
/** Headers too long to keep, packed: a name no header can have (not an HTTP token) and the note. */
const headersNotKept = (length: number) => `(headers)\n${NOT_KEPT(length)}\n`;

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

export class Journal {
  #slots: Slots;
  /** Held until enough entries arrive (`until`): told of each entry added, overwritten or cleared. */
  readonly #waiters = new Waiters();
  /** Entries kept, and the slot the next one goes to. */
  #count = 0;
  #next = 0;
  #nextId = 1;
  /** Bumped by every change, so a reader can tell the journal changed without comparing it. */
  version = 0;
  /**
   * Per shop (null: requests that identified none), its entries kept and the newest one's id, so
   * that the newest is known without reading the ring; and the shop of each slot's entry, taken
   * off its shop's count when the ring overwrites it.
   */
  #shops = new Map<string | null, { count: number; newest: number }>();
  #slotShops: (string | null)[] = [];

  constructor(readonly capacity: number) {
    this.#slots = new Slots(capacity);
  }

  /** Keeps `entry` (numbered, and with oversized texts dropped so the journal's memory stays bounded). */
  add(entry: JournalRecord): void {
    if (this.capacity === 0) return;
    entry.id = this.#nextId++;
    if (entry.requestText.length > MAX_BODY_CHARS) [entry.requestText, entry.requestType] = [NOT_KEPT(entry.requestText.length), "text/plain"];
    if (entry.responseText.length > MAX_BODY_CHARS) [entry.responseText, entry.responseType] = [NOT_KEPT(entry.responseText.length), "text/plain"];
    if (entry.committed && entry.committed.text.length > MAX_BODY_CHARS) entry.committed = { ...entry.committed, text: NOT_KEPT(entry.committed.text.length), type: "text/plain" };
    if (entry.requestHeaders.length > MAX_BODY_CHARS) entry.requestHeaders = headersNotKept(entry.requestHeaders.length);
    if (entry.responseHeaders && entry.responseHeaders.length > MAX_BODY_CHARS) entry.responseHeaders = headersNotKept(entry.responseHeaders.length);
    this.#keep(entry);
    this.#waiters.added(entry);
  }

  /**
   * Resolves once `filter` selects at least `count` entries (true, at once if it already does),
   * or false after `ms` or when `signal` aborts. Nothing polls and nothing counts again: the
   * journal is counted once here, then the waiter keeps its own count (waiters.ts), and forgets
   * itself whichever way it ends.
   */
  until(filter: JournalFilter, count: number, ms: number, signal?: AbortSignal): Promise<boolean> {
    const ids: number[] = [];
    for (const e of this.#matching(filter)) ids.push(e.id);
    if (ids.length >= count) return Promise.resolve(true);
    if (ms <= 0 || signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const end = (met: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", gaveUp);
        this.#waiters.remove(waiter);
        resolve(met);
      };
      const gaveUp = () => end(false);
      const timer = setTimeout(gaveUp, ms);
      const waiter = this.#waiters.add(filter, count, ids.reverse(), () => end(true));
      signal?.addEventListener("abort", gaveUp, { once: true });
    });
  }

  /** Requests held by `until` now. */
  get waiting(): number {
    return this.#waiters.size;
  }

  /** A ring: the oldest entry is overwritten once the journal is full. */
  #keep(entry: JournalRecord): void {
    if (this.#count === this.capacity) {
      const pushedOut = this.#slotShops[this.#next]!;
      const shop = this.#shops.get(pushedOut)!;
      if (--shop.count === 0) this.#shops.delete(pushedOut);
      this.#waiters.left(this.#slots.idAt(this.#next));
    }
    this.#slotShops[this.#next] = entry.shopId;
    const shop = this.#shops.get(entry.shopId);
    if (shop === undefined) this.#shops.set(entry.shopId, { count: 1, newest: entry.id });
    else [shop.count, shop.newest] = [shop.count + 1, entry.id];
    this.#slots.write(this.#next, entry);
    this.version++;
    this.#next = (this.#next + 1) % this.capacity;
    if (this.#count < this.capacity) this.#count++;
  }

  get size(): number {
    return this.#count;
  }

  /** The id of the newest entry the shop sees (with `includeUnidentified`, those of requests that named no shop too), or 0. */
  newestId(shopId: string, includeUnidentified = false): number {
    const own = this.#shops.get(shopId)?.newest ?? 0;
    return includeUnidentified ? Math.max(own, this.#shops.get(null)?.newest ?? 0) : own;
  }

  /** The entries `filter` selects, newest first: the first `limit` of them, and how many there are. */
  select(filter: JournalFilter = {}): { entries: JournalEntry[]; count: number } {
    const entries: JournalEntry[] = [];
    let count = 0;
    for (const e of this.#matching(filter)) if (count++ < (filter.limit ?? Infinity)) entries.push(entryOf(e));
    return { entries, count };
  }

  /** Newest first. */
  list(filter: JournalFilter = {}): JournalEntry[] {
    return this.select(filter).entries;
  }

  /** How many entries `filter` selects (whatever its `limit`). */
  count(filter: JournalFilter = {}): number {
    let n = 0;
    for (const _ of this.#matching(filter)) n++;
    return n;
  }

  /** The entry of this id, if still kept and seen by `scope` (its shop). */
  get(id: number, scope: Scope = {}): JournalEntry | undefined {
    const e = this.record(id, scope);
    return e && entryOf(e);
  }

  /** The entry of this id as recorded (its decision notes and quota window too), if kept and seen by `scope`. */
  record(id: number, scope: Scope = {}): JournalRecord | undefined {
    for (const slot of this.#newestFirst()) {
      const slotId = this.#slots.idAt(slot);
      if (slotId < id) return undefined;
      if (slotId !== id) continue;
      const e = this.#slots.read(slot);
      return seenBy(e, scope) ? e : undefined;
    }
    return undefined;
  }

  /** Slots, newest first. */
  *#newestFirst(): Generator<number> {
    for (let k = 1; k <= this.#count; k++) yield (this.#next - k + this.capacity) % this.capacity;
  }

  /** Entries that pass `filter` (its `limit` aside), newest first; numbers are checked before any text is decoded. */
  *#matching(filter: JournalFilter): Generator<JournalRecord> {
    const q = filter.q?.toLowerCase();
    for (const slot of this.#newestFirst()) {
      // Ids grow along the ring (a per-shop clear keeps their order): the rest are older still.
      if (filter.after !== undefined && this.#slots.idAt(slot) <= filter.after) return;
      if (filter.status !== undefined && this.#slots.statusAt(slot) !== filter.status) continue;
      const e = this.#slots.read(slot);
      if (passes(e, filter, q)) yield e;
    }
  }

  /** Forgets every entry, or only one shop's (and, for the default shop, unidentified ones). */
  clear(shopId?: string, includeUnidentified = false): void {
    const keep: JournalRecord[] = [];
    if (shopId !== undefined) {
      for (const slot of this.#newestFirst()) {
        const e = this.#slots.read(slot);
        if (!seenBy(e, { shopId, includeUnidentified })) keep.push(e);
      }
    }
    this.#slots = new Slots(this.capacity);
    this.#shops = new Map();
    this.#slotShops = [];
    this.version++;
    this.#count = 0;
    this.#next = 0;
    for (const e of keep.reverse()) this.#keep(e);
    if (this.#waiters.size > 0) this.#waiters.cleared(new Set(keep.map((e) => e.id)), shopId, includeUnidentified);
  }
}

/** A record as the journal answers it. */
export function entryOf(e: JournalRecord): JournalEntry {
  const responseHeaders = e.responseHeaders === null ? null : unpackHeaders(e.responseHeaders);
  return {
    id: e.id,
    requestId: responseHeaders?.["x-request-id"] ?? null,
    at: isoTimestamp(e.at),
    shopId: e.shopId,
    method: e.method,
    path: e.path,
    api: apiOf(e),
    graphql: e.graphqlText === null ? null : (JSON.parse(e.graphqlText) as JournalEntry["graphql"]),
    operation: e.operation,
    customerId: e.customerId,
    query: getQueryParam(e.url) as Record<string, string>,
    requestHeaders: unpackHeaders(e.requestHeaders),
    requestBody: journalBody(e.requestText, e.requestType),
    status: e.status,
    fault: e.fault,
    responseHeaders,
    responseBody: journalBody(e.responseText, e.responseType),
    committed: e.committed === null ? null : { status: e.committed.status, body: journalBody(e.committed.text, e.committed.type) },
    durationMs: e.durationMs,
    decidedBy: e.decidedBy,
    scenario: e.scenario,
  };
}
