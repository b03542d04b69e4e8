/**
 * The request journal: what apps sent and what they got, newest first, bounded so a long run
 * never grows without limit.
 * @module
 */

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

/** What the recording middleware hands over: bodies as the raw text that crossed the wire. */
export interface JournalRecord extends Omit<JournalEntry, "id" | "requestBody" | "responseBody"> {
  request: { text: string; type: string | null };
  response: { text: string; type: string | null };
}

type Stored = JournalRecord & { id: number };

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

function capped(body: { text: string; type: string | null }) {
  return body.text.length > MAX_BODY_CHARS ? { text: `(${body.text.length} characters, not kept)`, type: "text/plain" } : body;
}

export function journalBody(text: string, contentType: string | null): unknown {
  if (text === "") return null;
  if (text.length > MAX_BODY_CHARS) return `(${text.length} characters, not kept)`;
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
  #entries: Stored[] = [];
  #next = 0;
  #nextId = 1;

  constructor(readonly capacity: number) {}

  add(entry: JournalRecord): void {
    if (this.capacity === 0) return;
    // Bodies stay text until read: parsing every response on the hot path would cost more than
    // answering it. Oversized ones are dropped now so the journal's memory stays bounded.
    const full: Stored = { id: this.#nextId++, ...entry, request: capped(entry.request), response: capped(entry.response) };
    // A ring: the oldest entry is overwritten once the journal is full.
    if (this.#entries.length < this.capacity) this.#entries.push(full);
    else this.#entries[this.#next] = full;
    this.#next = (this.#next + 1) % this.capacity;
  }

  get size(): number {
    return this.#entries.length;
  }

  /** Newest first. */
  list(filter: JournalFilter = {}): JournalEntry[] {
    return this.#select(filter).map(({ request, response, ...rest }) => ({
      ...rest,
      requestBody: journalBody(request.text, request.type),
      responseBody: journalBody(response.text, response.type),
    }));
  }

  #select(filter: JournalFilter): Stored[] {
    const out: Stored[] = [];
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
