/**
 * Values that are promises only when something had to wait: the request path stays synchronous
 * (no promise, no microtask) whenever nothing does.
 * @module
 */

export type MaybePromise<T> = T | Promise<T>;

/** `f(value)`, without a promise unless `value` is one. */
export function andThen<T, U>(value: MaybePromise<T>, f: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(f) : f(value);
}
