/**
 * What the "why" trace of a journal entry cannot work out afterwards, noted on the request's record
 * while it is decided: the engine's reason for a refusal and the dynamic conditions that skipped
 * scenario rules (`times` spent, `after`, the probability draw). Noted only when there is
 * something to note.
 * @module
 */
import type { RefusalReason } from "../../engine/errors.js";
import type { Exchange } from "../exchange.js";
import type { RuleSkip } from "../facts.js";

export type { DecisionNotes, RuleSkip } from "../facts.js";

export function noteReason(exchange: Exchange, reason: RefusalReason): void {
  (exchange.notes ??= {}).reason = reason;
}

export function noteSkips(exchange: Exchange, skips: RuleSkip[]): void {
  if (skips.length > 0) (exchange.notes ??= {}).skips = skips;
}

/**
 * Keeps the quota's count of requests left before a forced answer or a scenario's limiter puts
 * its own in X-RateLimit-Remaining, so that the why trace tells the two apart.
 */
export function noteQuotaLeft(exchange: Exchange): void {
  const { "X-RateLimit-Limit": limit, "X-RateLimit-Remaining": remaining } = exchange.headers;
  if (limit !== undefined && remaining !== undefined) (exchange.notes ??= {}).quota ??= { limit: Number(limit), remaining: Number(remaining) };
}

/** The notes as the journal packs them (null when none). */
export function packedNotes(exchange: Exchange): string | null {
  return exchange.notes === undefined ? null : JSON.stringify(exchange.notes);
}
