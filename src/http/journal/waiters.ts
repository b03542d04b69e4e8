/**
 * Requests held until the journal holds enough entries their filter selects (`Journal.until`).
 * Each keeps its own count: the entries its filter selected when it started, one more for each
 * new entry its filter passes, one less for each entry it counted that leaves the journal. Nothing
 * counts the journal again, so a new entry costs a test against the waiters of its shop, and a
 * waiter that counted it one step.
 * @module
 */
import { lowerTexts, passesAllButQ, type JournalFilter } from "./filter.js";
import type { JournalRecord } from "./record.js";

/** The key of waiters that see every shop (a filter without `shopId`). */
const EVERY_SHOP = Symbol("every shop");
type ShopKey = string | null | typeof EVERY_SHOP;

interface Waiter {
  filter: JournalFilter;
  /** `filter.q` in lower case. */
  q: string | undefined;
  needed: number;
  /** Ids of the entries counted, oldest first from `head` (ids grow along the journal's ring). */
  ids: number[];
  head: number;
  met: () => void;
}

export class Waiters {
  /** By the shop of the entries they see (a filter with `includeUnidentified` under null too). */
  readonly #byShop = new Map<ShopKey, Set<Waiter>>();
  /** By the id of the oldest entry they counted: those to tell when the ring overwrites it. */
  readonly #byOldest = new Map<number, Set<Waiter>>();
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /**
   * Holds a waiter that counted `ids` (oldest first) and needs `needed`: `met` is called once a
   * new entry makes it enough. Returns the waiter, to hand back to `remove`.
   */
  add(filter: JournalFilter, needed: number, ids: number[], met: () => void): object {
    const waiter: Waiter = { filter, q: filter.q?.toLowerCase(), needed, ids, head: 0, met };
    for (const key of keysOf(filter)) setIn(this.#byShop, key).add(waiter);
    this.#indexOldest(waiter);
    this.#size++;
    return waiter;
  }

  /** Forgets the waiter (met, timed out or given up); once only. */
  remove(handle: object): void {
    const waiter = handle as Waiter;
    for (const key of keysOf(waiter.filter)) deleteFrom(this.#byShop, key, waiter);
    this.#unindexOldest(waiter);
    this.#size--;
  }

  /** A new entry, kept: one more for each waiter whose filter passes it. */
  added(e: JournalRecord): void {
    if (this.#size === 0) return;
    // Lower-cased once for every waiter's `q`, and each distinct `q` looked for once.
    let texts: string[] | undefined;
    const found = new Map<string, boolean>();
    for (const waiters of [this.#byShop.get(e.shopId), this.#byShop.get(EVERY_SHOP)]) {
      if (waiters === undefined) continue;
      for (const waiter of waiters) {
        if (!passesAllButQ(e, waiter.filter)) continue;
        if (waiter.q !== undefined) {
          const q = waiter.q;
          let hit = found.get(q);
          if (hit === undefined) {
            texts ??= lowerTexts(e);
            hit = texts.some((text) => text.includes(q));
            found.set(q, hit);
          }
          if (!hit) continue;
        }
        waiter.ids.push(e.id);
        if (waiter.ids.length - waiter.head === 1) this.#indexOldest(waiter);
        // `met` removes the waiter: deleting from a Set while iterating it is safe.
        if (waiter.ids.length - waiter.head >= waiter.needed) waiter.met();
      }
    }
  }

  /** The journal's oldest entry, of this id, was overwritten: one less for each waiter that counted it. */
  left(id: number): void {
    const waiters = this.#byOldest.get(id);
    if (waiters === undefined) return;
    this.#byOldest.delete(id);
    for (const waiter of waiters) {
      waiter.head++;
      // Dropped in one go once half the list is spent, so a long wait costs no copy per entry.
      if (waiter.head * 2 >= waiter.ids.length) [waiter.ids, waiter.head] = [waiter.ids.slice(waiter.head), 0];
      this.#indexOldest(waiter);
    }
  }

  /**
   * The journal was cleared: entirely (no `shopId`), or of the entries `shopId` sees (and
   * unidentified ones with `includeUnidentified`), keeping `kept`. Only waiters that could have
   * counted a cleared entry are told, and they count again from their own ids.
   */
  cleared(kept: ReadonlySet<number>, shopId?: string, includeUnidentified = false): void {
    const keys: ShopKey[] = shopId === undefined ? [...this.#byShop.keys()] : [shopId, EVERY_SHOP, ...(includeUnidentified ? [null] : [])];
    const told = new Set<Waiter>();
    for (const key of keys) for (const waiter of this.#byShop.get(key) ?? []) told.add(waiter);
    for (const waiter of told) {
      this.#unindexOldest(waiter);
      [waiter.ids, waiter.head] = [waiter.ids.slice(waiter.head).filter((id) => kept.has(id)), 0];
      this.#indexOldest(waiter);
    }
  }

  #indexOldest(waiter: Waiter): void {
    const oldest = waiter.ids[waiter.head];
    if (oldest !== undefined) setIn(this.#byOldest, oldest).add(waiter);
  }

  #unindexOldest(waiter: Waiter): void {
    const oldest = waiter.ids[waiter.head];
    if (oldest !== undefined) deleteFrom(this.#byOldest, oldest, waiter);
  }
}

/** Where a waiter is kept by shop: the entries it sees are its shop's, unidentified ones too when asked. */
function keysOf(filter: JournalFilter): ShopKey[] {
  if (filter.shopId === undefined) return [EVERY_SHOP];
  return filter.includeUnidentified === true ? [filter.shopId, null] : [filter.shopId];
}

function setIn<K>(map: Map<K, Set<Waiter>>, key: K): Set<Waiter> {
  let set = map.get(key);
  if (set === undefined) map.set(key, (set = new Set()));
  return set;
}

function deleteFrom<K>(map: Map<K, Set<Waiter>>, key: K, waiter: Waiter): void {
  const set = map.get(key);
  if (set?.delete(waiter) && set.size === 0) map.delete(key);
}
