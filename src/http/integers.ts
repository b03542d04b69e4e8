/**
 * Integers a request carries, each with its bounds written once: the zod schema that checks the
 * request is the one the OpenAPI document is generated from, so a client validating against the
 * document refuses exactly what the server refuses. Nothing past 2^53-1 is admitted anywhere.
 * @module
 */
import { z } from "@hono/zod-openapi";
import { MAX_STAMPS, MAX_STAMPS_WHY } from "../engine/limits.js";

const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * A whole number from `min` to `max`. The bounds come before zod's own safe-integer check and
 * stop at the first broken, so 2^60 gets one message, the one naming the bound it passed.
 */
export function integer(min: number, max: number, messages: { min?: string; max?: string } = {}) {
  return z
    .number()
    .min(min, { abort: true, ...(messages.min !== undefined && { error: messages.min }) })
    .max(max, { abort: true, ...(messages.max !== undefined && { error: messages.max }) })
    .int();
}

/**
 * An integer written in a query or a path: digits only, so `1e3`, `0x10`, ` 7` or an empty value
 * are refused rather than read as JavaScript numbers (the document says `integer`, which they are not).
 */
export function integerText(min: number, max: number, messages: { min?: string; max?: string } = {}) {
  if (min < 0) throw new Error("integerText takes digits only: a bound below 0 cannot be written");
  return z
    .string()
    .regex(/^[0-9]+$/, { error: "must be a whole number (digits only)" })
    .transform(Number)
    .pipe(integer(min, max, messages))
    .openapi({ type: "integer", minimum: min, maximum: max });
}

const AT_MOST = `must be at most ${MAX_STAMPS}, ${MAX_STAMPS_WHY}`;

/** Stamps to add or spend: 1 to MAX_STAMPS. */
export function stampAmount() {
  return integer(1, MAX_STAMPS, { max: AT_MOST });
}

/**
 * A change of stamps, negative to deduct: -MAX_STAMPS to MAX_STAMPS, and not 0. The check and the
 * document's `not: { const: 0 }` are written together.
 */
export function stampChange() {
  return integer(-MAX_STAMPS, MAX_STAMPS, { min: `must be at least -${MAX_STAMPS}, ${MAX_STAMPS_WHY}`, max: AT_MOST })
    .refine((n) => n !== 0, { message: "must not be 0" })
    .openapi({ not: { const: 0 } });
}

/** The id of a program record (a tier, a reward, an earn rule): positive, as fixtures define them. */
export function recordId() {
  return integer(1, SAFE);
}

/** A count (of uses, of requests): from `min` up to the largest safe integer. */
export function count(min: 0 | 1) {
  return integer(min, SAFE);
}
