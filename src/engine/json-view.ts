/**
 * A value with its JSON text, made once: a response writer sends `text` as it is, and
 * in-process callers read `value`. The engine keeps one per customer (see `getCustomer`), so an
 * unchanged customer is serialised once, not on every request.
 * @module
 */
export class JsonView<T> {
  #text: string | undefined;

  /** Shared by everyone who reads the same view: not to be changed. */
  constructor(readonly value: Readonly<T>) {}

  /** `JSON.stringify(value)`, made at the first call. */
  get text(): string {
    return (this.#text ??= JSON.stringify(this.value));
  }
}
