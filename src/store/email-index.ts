/**
 * Customers by email, without case: most emails name one customer, so an email maps to that id
 * alone, and to a list (oldest first) only once it is shared.
 * @module
 */
export class EmailIndex {
  readonly #ids = new Map<string, string | string[]>();

  /** Ids of customers with this email (any case), oldest first. */
  ids(email: string): readonly string[] {
    const found = this.#ids.get(email.toLowerCase());
    return found === undefined ? [] : typeof found === "string" ? [found] : found;
  }

  add(email: string, id: string): void {
    const key = email.toLowerCase();
    const found = this.#ids.get(key);
    if (found === undefined) this.#ids.set(key, id);
    else if (typeof found === "string") this.#ids.set(key, [found, id]);
    else found.push(id);
  }

  /** Takes back the newest customer with this email (an undone write added it). */
  removeNewest(email: string): void {
    const key = email.toLowerCase();
    const found = this.#ids.get(key);
    if (typeof found === "string") this.#ids.delete(key);
    else if (found !== undefined) {
      found.pop();
      if (found.length === 1) this.#ids.set(key, found[0]!);
    }
  }
}
