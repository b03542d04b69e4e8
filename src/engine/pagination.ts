/**
 * Cursor pagination as production does it: cursors are base64(`id:<id>`), `after` and `before`
 * both work, and a page is located by rank, never by scanning, so a page deep in a list of 100k
 * records costs what the first page costs.
 * @module
 */
import { invalidField } from "./errors.js";

export interface PageQuery {
  limit: number;
  after?: string;
  before?: string;
  hasCount: boolean;
}

export interface PageInfo {
  hasNext: boolean;
  hasPrevious: boolean;
  nextCursor: string | null;
  previousCursor: string | null;
  count: number | null;
}

export interface Page<T> {
  items: T[];
  pagination: PageInfo;
}

/**
 * An ordered list seen through its index: `size` items in display order, `at(i)` the i-th, and
 * `locate(key)` the number of items displayed strictly before the record with that cursor key
 * (plus whether that record is itself in the list). `locate` returns undefined for a key that
 * names no record of this list.
 */
export interface OrderedView<T> {
  size: number;
  at(index: number): T;
  keyOf(item: T): string;
  locate(key: string): { before: number; contains: boolean } | undefined;
}

/**
 * What a cursor carries, and so what a record id may be: 1 to 20 digits. Customer ids the control
 * API accepts and generates are held to it, so every cursor the API issues is one it accepts.
 */
export const RECORD_ID = /^\d{1,20}$/;
export const RECORD_ID_RULE = "must be 1 to 20 digits";

export function encodeCursor(id: string): string {
  return Buffer.from(`id:${id}`, "utf8").toString("base64");
}

/** The id inside a cursor, or a 422 naming the parameter when it does not decode. */
export function decodeCursor(cursor: string, param: "after" | "before"): string {
  const bad = () => invalidField(param, "is not a cursor returned by this API (expected base64 of 'id:<id>')");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(cursor) || cursor.length % 4 !== 0) throw bad();
  const text = Buffer.from(cursor, "base64").toString("utf8");
  const id = text.slice(3);
  if (!text.startsWith("id:") || !RECORD_ID.test(id)) throw bad();
  return id;
}

export function paginate<T>(view: OrderedView<T>, query: PageQuery): Page<T> {
  if (query.after !== undefined && query.before !== undefined) {
    throw invalidField("before", "cannot be combined with 'after'; send one cursor");
  }
  let start = 0;
  let end = Math.min(view.size, query.limit);
  for (const param of ["after", "before"] as const) {
    const cursor = query[param];
    if (cursor === undefined) continue;
    const spot = view.locate(decodeCursor(cursor, param));
    if (!spot) throw invalidField(param, "points at no record of this list");
    if (param === "after") {
      start = spot.before + (spot.contains ? 1 : 0);
      end = Math.min(view.size, start + query.limit);
    } else {
      end = spot.before;
      start = Math.max(0, end - query.limit);
    }
  }
  const items: T[] = [];
  for (let i = start; i < end; i++) items.push(view.at(i));
  const first = items[0];
  const last = items[items.length - 1];
  return {
    items,
    pagination: {
      hasNext: end < view.size,
      hasPrevious: start > 0,
      nextCursor: last === undefined ? null : encodeCursor(view.keyOf(last)),
      previousCursor: first === undefined ? null : encodeCursor(view.keyOf(first)),
      count: query.hasCount ? view.size : null,
    },
  };
}

/** Number of entries of an ascending array that are below `value`. */
export function lowerBound(sorted: readonly number[] | ((i: number) => number), length: number, value: number): number {
  const get = typeof sorted === "function" ? sorted : (i: number) => sorted[i] as number;
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (get(mid) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
