/** @module Lists kept per customer (ledgers, codes), as the store's indexes hold them. */

/** Appends `item` to the customer's list, making the list on the first. */
export function pushTo<T>(index: Map<string, T[]>, customerId: string, item: T): void {
  let list = index.get(customerId);
  if (!list) index.set(customerId, (list = []));
  list.push(item);
}

/** Takes the customer's newest item back (an undone write added it). */
export function popFrom<T>(index: Map<string, T[]>, customerId: string): void {
  const list = index.get(customerId);
  list?.pop();
  if (list?.length === 0) index.delete(customerId);
}

/**
 * Re-packs the lists after a bulk load. An array grown by push keeps room for about 16 more
 * entries; over 100k short ledgers that slack is more memory than the ledgers.
 */
export function repack<T>(index: Map<string, T[]>): void {
  for (const [key, list] of index) index.set(key, list.slice());
}

/**
 * Lists by customer position (the ledgers): one array slot per customer, not a Map by id (a
 * hash-table entry per customer). Kept dense (undefined for a customer without a list), so that
 * V8 never turns it into a dictionary.
 */
export class ListsByPosition<T> {
  readonly #lists: (T[] | undefined)[] = [];

  of(position: number): readonly T[] | undefined {
    return this.#lists[position];
  }

  push(position: number, item: T): void {
    const lists = this.#lists;
    while (lists.length <= position) lists.push(undefined);
    (lists[position] ??= []).push(item);
  }

  /** Takes the newest item back (an undone write added it). */
  pop(position: number): void {
    const list = this.#lists[position];
    list?.pop();
    if (list?.length === 0) this.#lists[position] = undefined;
  }

  /** Only the first `count` customers are left (the others were undone). */
  truncate(count: number): void {
    if (this.#lists.length > count) this.#lists.length = count;
  }

  /** See `repack`. */
  repack(): void {
    const lists = this.#lists;
    for (let i = 0; i < lists.length; i++) if (lists[i] !== undefined) lists[i] = lists[i]!.slice();
  }
}
