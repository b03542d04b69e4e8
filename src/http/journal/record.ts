/**
 * What the journal keeps of a request: as recorded (`JournalRecord`, raw texts) and as read
 * (`JournalEntry`).
 * @module
 */
import type { DecidedBy, ScenarioRef } from "../env.js";

export interface JournalEntry {
  id: number;
  at: string;
  shopId: string | null;
  method: string;
  path: string;
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
  extends Omit<JournalEntry, "at" | "query" | "requestHeaders" | "requestBody" | "responseHeaders" | "responseBody" | "committed"> {
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
}
