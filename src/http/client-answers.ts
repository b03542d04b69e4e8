/**
 * What a client of a loyalty API (verify, import) reads when an answer is not the one it hoped
 * for: how long a 429's `Retry-After` asks it to wait, and why a fetch got no answer at all.
 * @module
 */

/** Waited on a 429 that names no `Retry-After` (production documents none). */
export const DEFAULT_RETRY_AFTER_S = 60;

/** Seconds to wait: `Retry-After` as seconds or as an HTTP date; absent or unreadable, a minute. */
export function retryAfterSeconds(value: string | null | undefined, now = Date.now()): number {
  if (value === undefined || value === null) return DEFAULT_RETRY_AFTER_S;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? DEFAULT_RETRY_AFTER_S : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Why a fetch failed, in a few words: the system's code (ECONNREFUSED...) or the error's message. */
export function fetchFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === "TimeoutError") return `no answer within ${timeoutMs / 1000} s`;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  // A system code (ECONNREFUSED) says it best; undici's own (UND_ERR_SOCKET) less than its message.
  if (typeof cause?.code === "string" && !cause.code.startsWith("UND_ERR_")) return cause.code;
  if (typeof cause?.message === "string") return cause.message;
  return error instanceof Error ? error.message : String(error);
}
