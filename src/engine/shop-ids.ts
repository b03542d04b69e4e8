/**
 * The shop ids that are taken (live, being created or deleted) and the first free one from a
 * point, as a walk up from that point would find it, without the walk: a "next free id" union-find
 * with path compression, so its cost does not grow with the number of shops ever deleted.
 * @module
 */

/** The id as a number when it is one the engine gives ("1", "2", ...; not "07" or "x"). */
function numberOf(id: string): number | undefined {
  if (!/^[1-9][0-9]*$/.test(id)) return undefined;
  const n = Number(id);
  return Number.isSafeInteger(n) ? n : undefined;
}

export class ShopIds {
  /** For each taken number: one above it, every number in between taken too (shortened as walks find longer runs). */
  readonly #skip = new Map<number, number>();

  take(id: string): void {
    const n = numberOf(id);
    if (n !== undefined && !this.#skip.has(n)) this.#skip.set(n, n + 1);
  }

  /** The first number from `from` on that is not taken. */
  firstFree(from: number): number {
    let free = from;
    for (let next = this.#skip.get(free); next !== undefined; next = this.#skip.get(free)) free = next;
    // Every number passed now leads straight to the free one.
    for (let n = from, next = this.#skip.get(n); next !== undefined && next !== free; n = next, next = this.#skip.get(n)) this.#skip.set(n, free);
    return free;
  }

  /** Starts again from these taken ids: for ids that were freed (a creation that failed), which the skips cannot undo. */
  retake(taken: Iterable<string>): void {
    this.#skip.clear();
    for (const id of taken) this.take(id);
  }
}
