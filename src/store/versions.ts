/**
 * Customer versions, by position in the shop's customer list: the store's change counter when
 * the customer last changed, and one value derived from the customer (its view) kept with the
 * version it was made at. Plain arrays: a 100k-customer shop pays a few numbers per customer.
 * @module
 */
export class CustomerVersions {
  readonly #versions: number[] = [];
  readonly #kept: unknown[] = [];
  readonly #keptAt: number[] = [];

  /** The customer at `position` (the next one) or, for one already there, its new version. */
  set(position: number, version: number): void {
    if (position === this.#versions.length) {
      this.#kept.push(undefined);
      this.#keptAt.push(-1);
    }
    this.#versions[position] = version;
  }

  of(position: number): number {
    return this.#versions[position]!;
  }

  /** Whether a customer at a position in [from, to) changed after `version`. */
  changedSince(from: number, to: number, version: number): boolean {
    const versions = this.#versions;
    for (let i = from; i < to; i++) if (versions[i]! > version) return true;
    return false;
  }

  /** The value kept for the customer at `position`, or undefined once the customer has changed. */
  kept(position: number): unknown {
    return this.#keptAt[position] === this.#versions[position] ? this.#kept[position] : undefined;
  }

  /** Keeps a value made from the customer at `position` as it is now. */
  keep(position: number, value: unknown): void {
    this.#kept[position] = value;
    this.#keptAt[position] = this.#versions[position]!;
  }

  /**
   * Back to the version the customer had before an undone write. A value kept since is dropped:
   * its version number will be given again, to other content.
   */
  restore(position: number, version: number): void {
    this.#versions[position] = version;
    this.#keptAt[position] = -1;
  }

  /** Only the first `count` customers are left (the others were undone). */
  truncate(count: number): void {
    this.#versions.length = this.#kept.length = this.#keptAt.length = count;
  }
}
