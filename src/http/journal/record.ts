/**
 * What the journal keeps of a request: as recorded (`JournalRecord`, raw texts) and as read
 * (`JournalEntry`).
 * @module
 */
import type { DecidedBy, GraphQLFacts, ScenarioRef } from "../facts.js";

export type { GraphQLFacts } from "../facts.js";

/** Which API a request was for: REST's routes, or `/graphql`. */
export type Api = "rest" | "graphql";

export interface JournalEntry {
  id: number;
  /** The X-Request-Id the response carried; null without a response. */
  requestId: string | null;
  at: string;
  shopId: string | null;
  method: string;
  path: string;
  api: Api;
  /** For a GraphQL request, what it ran; null for REST and for a GraphQL request refused before its operation was known. */
  graphql: GraphQLFacts | null;
  /** The operation (for GraphQL, the REST twin of the first root field) and its customer. */
  operation: string | null;
  customerId: string | null;
  query: Record<string, string>;
  requestHeaders: Record<string, string>;
  requestBody: unknown;
  /** HTTP status, or null when a fault answered with no response. */
  status: number | null;
  fault: string | null;
  /** The headers of the response the client got; null when a fault left it without one. */
  responseHeaders: Record<string, string> | null;
  responseBody: unknown;
  /** For a scenario rule with `commit`: the answer of the handler, which ran before the rule's answer replaced it. */
  committed: { status: number; body: unknown } | null;
  durationMs: number;
  decidedBy: DecidedBy;
  /** The scenario rule that applied: it answered, or only delayed or counted the request. */
  scenario: ScenarioRef | null;
}

/**
 * What the recorder hands over: the raw facts, formatted only when the journal is read. Recording
 * runs on every request, reading the journal rarely, so the timestamp stays a number, the query
 * stays inside the URL, headers stay packed (headers.ts) and the bodies stay the text
 * that crossed the wire.
 */
export interface JournalRecord
  extends Omit<JournalEntry, "requestId" | "at" | "api" | "graphql" | "query" | "requestHeaders" | "requestBody" | "responseHeaders" | "responseBody" | "committed"> {
  /** Engine time of arrival, in ms; `id` is 0 until the journal numbers the record. */
  at: number;
  /** The request URL, its query string parsed when read. */
  url: string;
  requestHeaders: string;
  requestText: string;
  requestType: string | null;
  responseHeaders: string | null;
  responseText: string;
  responseType: string | null;
  committed: { status: number; text: string; type: string | null } | null;
  /** `GraphQLFacts` as JSON; null for REST. */
  graphqlText: string | null;
  /** The decision notes (notes.ts) as JSON, or null. */
  notes: string | null;
  /** When the shop's quota window of this request ended (ms), or null without a quota. */
  quotaEnd: number | null;
}
