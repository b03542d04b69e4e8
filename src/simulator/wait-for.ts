/**
 * `control.waitFor`: a journal wait (`GET /__sim/requests?wait=`) made into a test's assertion,
 * which answers the entries or throws naming what the journal held instead.
 * @module
 */
import type { JournalEntry } from "../control/control.schemas.js";
import { MAX_WAIT_MS } from "../control/control.schemas.js";

export interface WaitOptions {
  /** How many entries the filter must select (default 1). */
  count?: number;
  /** How long to wait in all (default 5000 ms); waits over 30000 ms are asked for in turns. */
  timeoutMs?: number;
}

/** One wait's answer: as `GET /__sim/requests?wait=` gives it. */
export interface WaitAnswer {
  requests: JournalEntry[];
  count: number;
  timedOut?: boolean | undefined;
}

export const DEFAULT_WAIT_MS = 5000;
/** Entries a failed wait names, newest first. */
const SHOWN = 3;

/** `#12 POST /rest_api/v1/customers/7/stamps/award -> 201 (awardStamps, customer 7)`. */
export function entrySummary(e: JournalEntry): string {
  const answer = e.status === null ? `fault ${e.fault}` : String(e.status);
  const about = [e.operation, e.customerId !== null && `customer ${e.customerId}`].filter(Boolean).join(", ");
  return `#${e.id} ${e.method} ${e.path} -> ${answer}${about ? ` (${about})` : ""}`;
}

/**
 * Asks `wait` in turns of at most 30 s until `count` entries are there or `timeoutMs` has passed;
 * answers the last answer and whether it met the count.
 */
export async function waitInTurns(wait: (ms: number, count: number) => Promise<WaitAnswer>, options: WaitOptions): Promise<{ answer: WaitAnswer; met: boolean }> {
  const count = options.count ?? 1;
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_MS;
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`waitFor: count must be a whole number from 1, got ${count}`);
  if (!Number.isFinite(timeoutMs) || timeoutMs < 0) throw new RangeError(`waitFor: timeoutMs must be 0 or more, got ${timeoutMs}`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await wait(Math.min(MAX_WAIT_MS, Math.max(0, Math.ceil(deadline - Date.now()))), count);
    if (answer.count >= count) return { answer, met: true };
    // An answer that did not wait (a simulator without `wait`) is not asked again.
    if (answer.timedOut !== true || Date.now() >= deadline) return { answer, met: false };
  }
}

/** The message of a wait that ran out: what matched, and what the journal held when nothing did. */
export function waitFailure(filter: object, count: number, timeoutMs: number, answer: WaitAnswer, newest: JournalEntry[]): string {
  const seen = (answer.requests ?? []).slice(0, SHOWN).map(entrySummary);
  const head = `waitFor(${JSON.stringify(filter)}): ${answer.count} of ${count} entries after ${timeoutMs} ms`;
  if (seen.length > 0) return `${head}; the newest matching: ${seen.join("; ")}`;
  const others = newest.slice(0, SHOWN).map(entrySummary);
  return `${head}; the shop's newest entries: ${others.length > 0 ? others.join("; ") : "none (the journal is empty)"}`;
}
