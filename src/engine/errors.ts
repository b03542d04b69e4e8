/**
 * Domain errors: the engine throws these, the HTTP layer maps them to the error envelope in one
 * place. Codes and statuses are production's (see upstream-facts.md).
 * @module
 */

export const ERROR_CATALOG = {
  UNAUTHORIZED: { status: 401, message: "Invalid API credentials" },
  API_ACCESS_DISABLED: { status: 403, message: "API access is not enabled for this shop" },
  PLAN_UPGRADE_REQUIRED: { status: 403, message: "The REST API requires a paid plan" },
  NOT_FOUND: { status: 404, message: "Route not found" },
  CUSTOMER_NOT_FOUND: { status: 404, message: "Customer not found" },
  TIER_NOT_FOUND: { status: 404, message: "Tier not found" },
  REWARD_CODE_NOT_FOUND: { status: 404, message: "Reward code not found" },
  EARN_RULE_NOT_FOUND: { status: 404, message: "Earn rule not found" },
  REWARD_NOT_FOUND: { status: 404, message: "Reward not found" },
  PAYLOAD_TOO_LARGE: { status: 413, message: "Request body is too large" },
  VALIDATION_ERROR: { status: 422, message: "Request validation failed" },
  VOID_FAILED: { status: 422, message: "Reward code cannot be voided" },
  ACTIVITY_NOT_AWARDED: { status: 422, message: "Activity could not be awarded" },
  INSUFFICIENT_STAMPS: { status: 422, message: "Customer does not have enough stamps" },
  RATE_LIMITED: { status: 429, message: "Rate limit exceeded" },
  INTERNAL_ERROR: { status: 500, message: "Internal server error" },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;
export const ERROR_CODES = Object.keys(ERROR_CATALOG) as ErrorCode[];

/**
 * Codes only the simulator's control API answers. Production never does, so they are kept out of
 * ERROR_CATALOG: neither a scenario nor a `Prefer` header can force them on the API.
 */
export const CONTROL_ERROR_CATALOG = {
  FORBIDDEN: { status: 403, message: "The control API does not answer this caller" },
} as const satisfies Record<string, { status: number; message: string }>;

export type ControlErrorCode = keyof typeof CONTROL_ERROR_CATALOG;

const EVERY_ERROR: Record<ErrorCode | ControlErrorCode, { status: number; message: string }> = { ...ERROR_CATALOG, ...CONTROL_ERROR_CATALOG };

/** One offending input field: where it was, its path, and why it was refused. */
export interface FieldIssue {
  in: "body" | "query" | "path" | "header";
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
  readonly status: number;

  constructor(
    readonly code: ErrorCode | ControlErrorCode,
    message: string = EVERY_ERROR[code].message,
    readonly details?: FieldIssue[],
    readonly reason?: RefusalReason,
  ) {
    super(message);
    this.name = "DomainError";
    this.status = EVERY_ERROR[code].status;
  }
}

/** A 422 VALIDATION_ERROR about one field. */
export function invalidField(where: FieldIssue["in"], path: string, message: string): DomainError {
  return new DomainError("VALIDATION_ERROR", ERROR_CATALOG.VALIDATION_ERROR.message, [
    { in: where, path, message },
  ]);
}
