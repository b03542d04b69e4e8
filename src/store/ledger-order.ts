/**
 * How far the customers' ledgers are out of time order. Entries are appended in id order, dated by
 * the shop's clock; a clock set back dates a new entry before older ones. A scan of a ledger from
 * its newest entry that looks for entries dated after some instant may stop at the first entry
 * dated `stepBack` before that instant: no entry before it is dated later.
 * @module
 */
import type { ActivityRecord } from "./types.js";

export class LedgerOrder {
  /**
   * Only customers whose ledger is out of order: its newest date, and the most an entry was ever
   * dated before the newest one appended before it. A ledger in time order costs nothing.
   */
  readonly #disorder = new Map<string, { latest: number; back: number }>();

  /** 0 while the customer's ledger is in time order. */
  stepBack(customerId: string): number {
    return this.#disorder.get(customerId)?.back ?? 0;
  }

  /** Notes the date of an entry about to be appended after `last` (the ledger's newest, if any). */
  note(customerId: string, last: ActivityRecord | undefined, at: number): void {
    const known = this.#disorder.get(customerId);
    const latest = known ? known.latest : (last?.createdAt ?? at);
    if (at < latest) {
      if (known) known.back = Math.max(known.back, latest - at);
      else this.#disorder.set(customerId, { latest, back: latest - at });
    } else if (known) known.latest = at;
  }

  /** Measures a ledger again (a rollback took entries away): exact, so a ledger back in order costs nothing again. */
  measure(customerId: string, ledger: readonly ActivityRecord[]): void {
    if (!this.#disorder.has(customerId)) return;
    let latest = -Infinity;
    let back = 0;
    for (const { createdAt } of ledger) {
      if (createdAt < latest) back = Math.max(back, latest - createdAt);
      else latest = createdAt;
    }
    if (back > 0) this.#disorder.set(customerId, { latest, back });
    else this.#disorder.delete(customerId);
  }
}
