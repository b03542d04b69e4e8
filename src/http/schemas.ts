/**
 * Every resource and envelope schema, defined once: the OpenAPI document and the response
 * checks both come from here.
 * @module
 */
import { z } from "@hono/zod-openapi";

const digits = (example: string) => z.string().regex(/^\d+$/).openapi({ example });
const timestamp = z.string().openapi({ example: "2026-06-05T12:00:00+00:00", description: "ISO 8601 with offset" });

export const ErrorEnvelopeSchema = z
  .object({
    success: z.literal(false),
    error: z.object({
      message: z.string().openapi({ example: "Customer not found" }),
      code: z.string().openapi({ example: "CUSTOMER_NOT_FOUND" }),
      statusCode: z.int().openapi({ example: 404 }),
      details: z
        .array(
          z.object({
            in: z.enum(["body", "query", "path", "header"]),
            path: z.string().openapi({ example: "stamps" }),
            message: z.string().openapi({ example: "must be >= 1" }),
          }),
        )
        .optional()
        .openapi({ description: "Only on VALIDATION_ERROR: each offending field and why" }),
    }),
    timestamp,
  })
  .openapi("ErrorEnvelope");

const customerFields = {
  id: digits("6677889900"),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  stampBalance: z.int(),
  cards: z.int(),
  stampsToNextReward: z.int(),
  stampsExpireAt: timestamp.optional(),
  vipTierId: z.int().optional(),
  vipTierName: z.string().optional(),
  dateOfBirth: z.string().regex(/^\d{2}-\d{2}$/).optional().openapi({ example: "05-06", description: "dd-mm" }),
  state: z.enum(["active", "removed"]),
  mergedIntoCustomerId: digits("6677889901").optional(),
};

export const CustomerSummarySchema = z.object(customerFields).openapi("CustomerSummary", {
  description: "A customer as listed and as PATCH and tier changes answer (no nextReward)",
});

export const CustomerSchema = z
  .object({
    ...customerFields,
    nextReward: z.object({ id: digits("101"), name: z.string() }).optional(),
  })
  .openapi("Customer");

export const StampResultSchema = z
  .object({ customerId: digits("6677889900"), stampChange: z.int(), stampBalance: z.int() })
  .openapi("StampResult");

export const RewardCodeSchema = z
  .object({
    id: digits("100001"),
    name: z.string(),
    code: z.string().openapi({ example: "LOYAL-7Q2X9K" }),
    used: z.boolean(),
    createdAt: timestamp,
  })
  .openapi("RewardCode");

export const RedemptionResultSchema = z
  .object({ code: z.string().openapi({ example: "LOYAL-7Q2X9K" }), name: z.string(), stampBalance: z.int() })
  .openapi("RedemptionResult");

export const RewardSchema = z
  .object({
    id: digits("101"),
    name: z.string(),
    price: z.int().openapi({ description: "Cost in stamps" }),
    exchangeType: z.enum(["stamps", "cards", "variable"]),
    iconUrl: z.string().optional(),
  })
  .openapi("Reward");

export const TierSchema = z
  .object({
    id: digits("2"),
    name: z.string(),
    milestone: z.int(),
    multiplier: z.number(),
    iconUrl: z.string().optional(),
    benefits: z.string(),
    rewards: z.array(RewardSchema),
  })
  .openapi("Tier");

export const ActivitySchema = z
  .object({ id: digits("4411"), label: z.string(), stampChange: z.int(), createdAt: timestamp })
  .openapi("Activity");

export const EarnRuleSchema = z
  .object({
    id: digits("201"),
    name: z.string(),
    type: z.string().openapi({ example: "order" }),
    step: z.int(),
    multiplier: z.number(),
    iconUrl: z.string().optional(),
  })
  .openapi("EarnRule");

export const ShopSchema = z
  .object({
    programName: z.string(),
    currencySymbol: z.string(),
    stampBrandingPlural: z.string(),
    stampCardValue: z.int(),
    currency: z.string().openapi({ example: "USD" }),
  })
  .openapi("Shop");

export const BeaconSchema = z
  .object({ id: digits("301"), name: z.string(), message: z.string(), icon: z.string(), active: z.boolean() })
  .openapi("Beacon");

export const PaginationSchema = z
  .object({
    hasNext: z.boolean(),
    hasPrevious: z.boolean(),
    nextCursor: z.string().nullable(),
    previousCursor: z.string().nullable(),
    count: z.int().nullable().openapi({ description: "Only with hasCount=true, else null" }),
  })
  .openapi("Pagination");

/** `{ success, data, timestamp }` around a resource. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data, timestamp });
}

/** A cursor-paginated list. */
export function pagedEnvelope<T extends z.ZodType>(item: T) {
  return z.object({
    success: z.literal(true),
    data: z.array(item),
    meta: z.object({ pagination: PaginationSchema }),
    timestamp,
  });
}

/** A small reference list, returned whole with its count. */
export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ success: z.literal(true), data: z.array(item), meta: z.object({ count: z.int() }), timestamp });
}
