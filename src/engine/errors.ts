/**
 * Domain errors: the engine throws them with a code and, for a refused input, the names of the
 * fields at fault. The HTTP layer (http/errors.ts) gives each code its status and each field its
 * place in the request.
 * @module
 */

/** Each code and its default message. */
export const ERROR_MESSAGES = {
  UNAUTHORIZED: "Invalid API credentials",
  API_ACCESS_DISABLED: "API access is not enabled for this shop",
  PLAN_UPGRADE_REQUIRED: "The REST API requires a paid plan",
  NOT_FOUND: "Route not found",
  CUSTOMER_NOT_FOUND: "Customer not found",
  TIER_NOT_FOUND: "Tier not found",
  REWARD_CODE_NOT_FOUND: "Reward code not found",
  EARN_RULE_NOT_FOUND: "Earn rule not found",
  REWARD_NOT_FOUND: "Reward not found",
  PAYLOAD_TOO_LARGE: "Request body is too large",
  VALIDATION_ERROR: "Request validation failed",
  VOID_FAILED: "Reward code cannot be voided",
  ACTIVITY_NOT_AWARDED: "Activity could not be awarded",
  INSUFFICIENT_STAMPS: "Customer does not have enough stamps",
  RATE_LIMITED: "Rate limit exceeded",
  INTERNAL_ERROR: "Internal server error",
} as const;

export type ErrorCode = keyof typeof ERROR_MESSAGES;
export const ERROR_CODES = Object.keys(ERROR_MESSAGES) as ErrorCode[];

/** One refused input field: its name (a path such as `rules[2].respond`) and why. */
export interface FieldProblem {
  path: string;
  message: string;
}

/**
 * Why the engine refused, as data (the message says it in words): the journal keeps it for the
 * "why" trace; the API's answer never carries it. Times are ISO 8601 at the shop's clock.
 */
export type RefusalReason =
  | { kind: "insufficientStamps"; customerId: string; balance: number; price: number; rewardId?: string }
  | { kind: "earnRuleLimit"; customerId: string; earnRuleId: string; limit: number; period: EarnPeriod; awardsInWindow: number; lastAwardAt: string | null; nextAllowedAt: string | null }
  | { kind: "customerRemoved"; customerId: string; removedAt: string | null }
  | { kind: "customerMerged"; customerId: string; mergedIntoCustomerId: string }
  | { kind: "codeNotVoidable"; codeId: string; used: boolean; voided: boolean }
  | { kind: "tierRequired"; rewardId: string; requiredTierId: string; customerTierId: string | null };

export type EarnPeriod = "day" | "week" | "year" | "lifetime";

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string = ERROR_MESSAGES[code],
    readonly details?: readonly FieldProblem[],
    readonly reason?: RefusalReason,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

/** A VALIDATION_ERROR about one field. */
export function invalidField(path: string, message: string): DomainError {
  return new DomainError("VALIDATION_ERROR", undefined, [{ path, message }]);
}
