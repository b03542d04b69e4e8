/**
 * The resources the API answers with, one zod schema each: REST validates and documents them, and
 * the engine's views must have exactly their shape (checked below at compile time), so the two
 * cannot drift. GraphQL's object types (src/graphql/sdl.ts) are held to the same fields by
 * test/contract.test.ts.
 * @module
 */
import { z } from "@hono/zod-openapi";
import type { PageInfo } from "../engine/pagination.js";
import type { RedemptionResult } from "../engine/rewards.js";
import type { StampResult } from "../engine/stamps.js";
import type { Activity, Beacon, Customer, EarnRule, Reward, RewardCode, Shop, Tier } from "../engine/views.js";
import { PaginationSchema, timestamp } from "../http/schemas.js";
import { EXCHANGE_TYPES } from "../store/types.js";

const digits = (example: string) => z.string().regex(/^\d+$/).openapi({ example });

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
    exchangeType: z.enum(EXCHANGE_TYPES),
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

/** The same keys at every level (an optional key counted), arrays item by item. */
type Shape<T> = T extends readonly (infer I)[] ? Shape<I>[] : T extends object ? { [K in keyof T]-?: Shape<Exclude<T[K], undefined>> } : T;
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** True when A and B accept the same values and have the same keys, optional ones included. */
type SameShape<A, B> = Mutual<A, B> extends true ? Mutual<Shape<A>, Shape<B>> : false;
type Holds<T extends true> = T;

/** Each schema against the engine's view it documents: a field added, dropped or retyped on one side fails here. */
export type ViewsMatchSchemas = [
  Holds<SameShape<z.output<typeof CustomerSchema>, Customer>>,
  Holds<SameShape<z.output<typeof CustomerSummarySchema>, Omit<Customer, "nextReward">>>,
  Holds<SameShape<z.output<typeof StampResultSchema>, StampResult>>,
  Holds<SameShape<z.output<typeof RewardCodeSchema>, RewardCode>>,
  Holds<SameShape<z.output<typeof RedemptionResultSchema>, RedemptionResult>>,
  Holds<SameShape<z.output<typeof RewardSchema>, Reward>>,
  Holds<SameShape<z.output<typeof TierSchema>, Tier>>,
  Holds<SameShape<z.output<typeof ActivitySchema>, Activity>>,
  Holds<SameShape<z.output<typeof EarnRuleSchema>, EarnRule>>,
  Holds<SameShape<z.output<typeof ShopSchema>, Shop>>,
  Holds<SameShape<z.output<typeof BeaconSchema>, Beacon>>,
  Holds<SameShape<z.output<typeof PaginationSchema>, PageInfo>>,
];
