/** @module A shop's reward codes by customer, by id and by text. */
import { popFrom, pushTo, repack } from "./per-customer.js";
import type { CodeRecord } from "./types.js";

export class CodeIndex {
  readonly #ofCustomer = new Map<string, CodeRecord[]>();
  readonly #byId = new Map<number, CodeRecord>();
  /** Every code string the shop issued: a code names one reward of one customer. */
  readonly #texts = new Set<string>();

  /** The customer's codes, oldest first. */
  of(customerId: string): readonly CodeRecord[] {
    return this.#ofCustomer.get(customerId) ?? [];
  }

  byId(id: number): CodeRecord | undefined {
    return this.#byId.get(id);
  }

  /** Whether the shop issued this code string. */
  hasText(text: string): boolean {
    return this.#texts.has(text);
  }

  add(code: CodeRecord): void {
    pushTo(this.#ofCustomer, code.customerId, code);
    this.#byId.set(code.id, code);
    this.#texts.add(code.code);
  }

  /** Takes back the newest code (an undone write added it). */
  removeNewest(code: CodeRecord): void {
    popFrom(this.#ofCustomer, code.customerId);
    this.#byId.delete(code.id);
    this.#texts.delete(code.code);
  }

  /** See `repack`. */
  compact(): void {
    repack(this.#ofCustomer);
  }
}
