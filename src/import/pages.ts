/**
 * A cursor-paginated list of the source read page by page, up to what is wanted. The source drives
 * this loop, so each page must make progress: a page that says more follow (`hasNext`) must bring
 * an item and a cursor never given before, else the import stops (a SourceError) instead of asking
 * forever; `unique` refuses an item seen on an earlier page (pages that go round with new cursors).
 * @module
 */
import type { z } from "@hono/zod-openapi";
import type { pagedEnvelope } from "../http/schemas.js";
import { SourceError, type PoliteReader } from "./client.js";

/** The longest cursor taken: production's are base64 of `id:<id>`, some 30 characters. */
export const MAX_CURSOR_CHARS = 1_000;

export interface PageRead<T> {
  /** What is being read, for an error: `listing customers`. */
  what: string;
  /** The request for a page: `after` absent for the first, `limit` the items still wanted (at most a page). */
  path: (page: { first: boolean; limit: number; after: string | undefined }) => string;
  schema: ReturnType<typeof pagedEnvelope<z.ZodType<T>>>;
  wanted: number;
  /** Told the first page's `count` (null when the source gives none). */
  onCount?: (count: number | null) => void;
  /** A key of an item that may come once only. */
  unique?: (item: T) => string;
  pageSize: number;
}

/** The items read (at most `wanted`), and whether the list holds more. */
export async function readPages<T>(reader: PoliteReader, read: PageRead<T>): Promise<{ items: T[]; more: boolean }> {
  const items: T[] = [];
  if (read.wanted <= 0) return { items, more: false };
  const cursors = new Set<string>();
  const seen = new Set<string>();
  const stop = (why: string) => new SourceError(`${read.what}: the source ${why}, so the import stopped after ${reader.sent} requests; nothing was written`);
  let after: string | undefined;
  for (;;) {
    const first = after === undefined;
    const page = (await reader.get(read.path({ first, limit: Math.min(read.pageSize, read.wanted - items.length), after }), read.schema)) as {
      data: T[];
      meta: { pagination: { hasNext: boolean; nextCursor: string | null; count: number | null } };
    };
    if (first) read.onCount?.(page.meta.pagination.count);
    for (const item of page.data.slice(0, read.wanted - items.length)) {
      const key = read.unique?.(item);
      if (key !== undefined && seen.has(key)) throw stop(`listed ${key} twice: its pages go round`);
      if (key !== undefined) seen.add(key);
      items.push(item);
    }
    const { hasNext, nextCursor } = page.meta.pagination;
    if (!hasNext || nextCursor === null) return { items, more: false };
    if (items.length >= read.wanted) return { items, more: true };
    if (page.data.length === 0) throw stop("answered an empty page that says more follow (hasNext): its pages would never end");
    if (cursors.has(nextCursor)) throw stop("gave a cursor it had given before: its pages go round");
    if (nextCursor.length > MAX_CURSOR_CHARS) throw stop(`gave a cursor of ${nextCursor.length} characters (at most ${MAX_CURSOR_CHARS} are taken)`);
    cursors.add(nextCursor);
    after = nextCursor;
  }
}
