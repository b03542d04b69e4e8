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
