/** @module Bounds on what the engine holds: stamp counts, and reward codes per customer. */
import { invalidField } from "./errors.js";

/**
 * The largest number of stamps anything holds: a balance, an amount, a price. Production's GraphQL
 * schema types them as 32-bit `Int`, so a larger one could not be answered there.
 */
export const MAX_STAMPS = 2 ** 31 - 1;

/**
 * The most reward codes one customer holds. Codes are never removed and every list of them is
 * answered whole (REST's and GraphQL's `rewardCodes`), so this bounds what one answer carries.
 */
export const MAX_CUSTOMER_CODES = 1000;

/** What the bound is, as refusals name it after the value. */
export const MAX_STAMPS_WHY = "the most stamps a balance may hold (production's GraphQL API types stamp counts as 32-bit integers)";

/**
 * Refuses an amount of stamps (either way) that no balance could hold, before anything is looked
 * up: the place a request schema's bound takes, so a caller of the engine meets it too.
 */
export function requireStampAmount(field: string, amount: number): void {
  if (amount > MAX_STAMPS) throw invalidField(field, `must be at most ${MAX_STAMPS}, ${MAX_STAMPS_WHY}`);
  if (amount < -MAX_STAMPS) throw invalidField(field, `must be at least -${MAX_STAMPS}, ${MAX_STAMPS_WHY}`);
}
