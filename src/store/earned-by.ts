/**
 * Which customers each earn rule ever awarded, so that lifetime limits need no ledger scan: one
 * bit per customer position for each rule, not a Set of ids (a hash-table entry per customer).
 * @module
 */
export class EarnedBy {
  readonly #bits = new Map<number, Uint8Array>();

  has(ruleId: number, position: number): boolean {
    const bits = this.#bits.get(ruleId);
    return bits !== undefined && ((bits[position >> 3] ?? 0) & (1 << (position & 7))) !== 0;
  }

  add(ruleId: number, position: number): void {
    let bits = this.#bits.get(ruleId);
    const at = position >> 3;
    if (bits === undefined || at >= bits.length) {
      // Doubling: adding customers one by one costs amortised O(1) a customer.
      const grown = new Uint8Array(Math.max(at + 1, 2 * (bits?.length ?? 0)));
      if (bits !== undefined) grown.set(bits);
      this.#bits.set(ruleId, (bits = grown));
    }
    bits[at]! |= 1 << (position & 7);
  }

  delete(ruleId: number, position: number): void {
    const bits = this.#bits.get(ruleId);
    if (bits !== undefined && position >> 3 < bits.length) bits[position >> 3]! &= ~(1 << (position & 7));
  }
}
