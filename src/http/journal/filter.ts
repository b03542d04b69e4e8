/**
 * What a journal filter selects: one entry at a time, as the journal's reads and its waiters
 * (waiters.ts) test it.
 * @module
 */
import { belowApiBase, GRAPHQL_PATH } from "../base.js";
import type { Api, JournalRecord } from "./record.js";

export interface JournalFilter {
  shopId?: string;
  /** Also entries that identified no shop (bad credentials). */
  includeUnidentified?: boolean;
  method?: string;
  /** A path glob (scenarios/glob.ts): matched against the path below the API base, as scenario rules are. */
  path?: { test(path: string): boolean };
  status?: number;
  customerId?: string;
  /** The operation, or for GraphQL the REST twin of any of its root fields. */
  operation?: string;
  api?: Api;
  /** Only entries newer than the entry of this id. */
  after?: number;
  /** Text to find, in any case, in the path and query, the headers or the bodies. */
  q?: string;
  limit?: number;
}

export type Scope = Pick<JournalFilter, "shopId" | "includeUnidentified">;

/** Whether the entry is one `scope` sees: its shop's (and unidentified ones, when asked). */
export function seenBy(e: JournalRecord, scope: Scope): boolean {
  return scope.shopId === undefined || e.shopId === scope.shopId || (scope.includeUnidentified === true && e.shopId === null);
}

/** The entry's texts `q` is looked for in. */
const searched = (e: JournalRecord) => [e.url, e.requestHeaders, e.requestText, e.responseHeaders, e.responseText, e.committed?.text];

/** The entry's searched texts in lower case, made once for every `q` tested against them. */
export function lowerTexts(e: JournalRecord): string[] {
  return searched(e)
    .filter((text) => text != null)
    .map((text) => text.toLowerCase());
}

/** Whether `filter` (its `limit` aside; `q` in lower case) selects the entry. */
export function passes(e: JournalRecord, filter: JournalFilter, q: string | undefined): boolean {
  // Lower-cased one text at a time, up to the first that holds `q`.
  return passesAllButQ(e, filter) && (q === undefined || searched(e).some((text) => text?.toLowerCase().includes(q)));
}

/** Whether `filter` selects the entry, `q` and `limit` aside: numbers and short texts only. */
export function passesAllButQ(e: JournalRecord, filter: JournalFilter): boolean {
  if (filter.after !== undefined && e.id <= filter.after) return false;
  if (filter.status !== undefined && e.status !== filter.status) return false;
  if (!seenBy(e, filter)) return false;
  if (filter.method !== undefined && e.method !== filter.method) return false;
  if (filter.path && !filter.path.test(belowApiBase(e.path))) return false;
  if (filter.customerId !== undefined && e.customerId !== filter.customerId) return false;
  if (filter.api !== undefined && apiOf(e) !== filter.api) return false;
  return filter.operation === undefined || e.operation === filter.operation || e.graphqlText?.includes(`"operation":"${filter.operation}"`) === true;
}

/** Only `/graphql` is GraphQL's (its GET, GraphiQL, is not journaled). */
export const apiOf = (e: JournalRecord): Api => (e.path === GRAPHQL_PATH ? "graphql" : "rest");
