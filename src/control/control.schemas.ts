/** @module Schemas of the simulator control API (`/__sim`). */
import { z } from "@hono/zod-openapi";
import { CLOCK_MAX_MS, CLOCK_MIN_MS, isoTimestamp } from "../engine/clock.js";
import { RECORD_ID, RECORD_ID_RULE } from "../engine/pagination.js";
import { ErrorEnvelopeSchema } from "../http/schemas.js";
import { MAX_GLOB_LENGTH } from "../scenarios/glob.js";

export const CONTROL_TAG = "Simulator control";

export const ShopKeyHeader = z.object({
  "x-api-key": z.string().optional().openapi({ description: "The shop to act on (the default shop without it)" }),
});

export const HealthSchema = z
  .object({
    status: z.enum(["ok", "degraded"]),
    version: z.string(),
    uptimeMs: z.int(),
    dataFile: z
      .object({
        path: z.string(),
        error: z.string().openapi({ description: "Why the last write failed" }),
        since: z.string().openapi({ description: "When writes began to fail (ISO 8601, real time)" }),
      })
      .optional()
      .openapi({ description: "Only while writes to the `--data` file fail (status `degraded`)" }),
  })
  .openapi("SimHealth");

export const ClockSchema = z.object({ now: z.string(), frozen: z.boolean() }).openapi("SimClock");

/** What a clock change outside CLOCK_MIN_MS..CLOCK_MAX_MS is told. */
export const CLOCK_RANGE_RULE = `would put the clock outside ${isoTimestamp(CLOCK_MIN_MS)} to ${isoTimestamp(CLOCK_MAX_MS)}`;
const CLOCK_SPAN_S = (CLOCK_MAX_MS - CLOCK_MIN_MS) / 1000;

export const ClockChangeSchema = z
  .object({
    advanceSeconds: z
      .number()
      .min(-CLOCK_SPAN_S, CLOCK_RANGE_RULE)
      .max(CLOCK_SPAN_S, CLOCK_RANGE_RULE)
      .optional()
      .openapi({ description: "Move the clock by this many seconds (may be negative); the clock stays in years 1970 to 9999" }),
    set: z.iso.datetime({ offset: true }).optional().openapi({ description: "Set the clock to this ISO 8601 instant, in years 1970 to 9999" }),
    frozen: z.boolean().optional().openapi({ description: "Stop or restart the clock" }),
  })
  .refine((b) => b.advanceSeconds !== undefined || b.set !== undefined || b.frozen !== undefined, {
    message: "needs advanceSeconds, set or frozen",
  })
  .refine((b) => !(b.advanceSeconds !== undefined && b.set !== undefined), { message: "takes advanceSeconds or set, not both", path: ["set"] })
  .openapi("SimClockChange");

export const ShopInfoSchema = z
  .object({
    id: z.string(),
    apiKey: z.string(),
    apiSecret: z.string(),
    seed: z.int(),
    customers: z.int().openapi({ description: "Customers the shop holds now" }),
    activities: z.int().openapi({ description: "Ledger entries (activities) the shop holds now, over all customers" }),
    plan: z.enum(["free", "paid"]),
    apiAccess: z.boolean(),
    rateLimit: z.int().nullable(),
  })
  .openapi("SimShop");

export const CreateShopSchema = z
  .object({
    seed: z.int().min(0).max(2 ** 31 - 1).optional(),
    customers: z.int().min(0).max(100_000).optional(),
    plan: z.enum(["free", "paid"]).optional(),
    apiAccess: z.boolean().optional(),
    rateLimit: z.union([z.int().min(1), z.literal("off")]).optional(),
  })
  .openapi("SimCreateShop");

export const CreateCustomerSchema = z
  .object({
    id: z.string().regex(RECORD_ID, RECORD_ID_RULE).optional().openapi({ description: "1 to 20 digits; generated when absent" }),
    firstName: z.string().min(1).max(200),
    lastName: z.string().min(1).max(200),
    email: z.email().max(320),
    phone: z.string().max(40).optional(),
    dateOfBirth: z.string().regex(/^(0[1-9]|[12]\d|3[01])-(0[1-9]|1[0-2])$/, "must be dd-mm").optional(),
    stampBalance: z.int().min(0).max(1_000_000_000).optional(),
  })
  .openapi("SimCreateCustomer");

export const MergeSchema = z.object({ into: z.string().min(1) }).openapi("SimMerge");

export const JournalEntrySchema = z
  .object({
    id: z.int(),
    at: z.string(),
    shopId: z.string().nullable(),
    method: z.string(),
    path: z.string(),
    operation: z.string().nullable(),
    customerId: z.string().nullable(),
    query: z.record(z.string(), z.string()),
    requestBody: z.unknown(),
    status: z.int().nullable(),
    fault: z.string().nullable(),
    responseBody: z.unknown(),
    durationMs: z.number(),
    scenario: z.object({ scenario: z.string(), rule: z.int(), ruleName: z.string().optional() }).nullable(),
  })
  .openapi("SimJournalEntry");

export const RequestsQuerySchema = z.object({
  method: z.string().optional().openapi({ description: "GET, POST, ..." }),
  path: z.string().max(MAX_GLOB_LENGTH).optional().openapi({ description: "A path template or glob, as in scenario rules" }),
  status: z.coerce.number().int().min(100).max(599).optional().openapi({ type: "integer" }),
  customerId: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(100_000).optional().openapi({ type: "integer" }),
});

export const ScenarioSummarySchema = z
  .object({
    name: z.string(),
    description: z.string().optional(),
    owner: z.enum(["all shops", "this shop"]),
    rules: z.array(
      z.object({
        index: z.int(),
        name: z.string().optional(),
        match: z.record(z.string(), z.unknown()),
        respond: z.record(z.string(), z.unknown()),
        hits: z.int(),
        matches: z.int(),
        remaining: z.int().nullable(),
        spent: z.boolean(),
      }),
    ),
  })
  .openapi("SimScenario");

export const controlError = (description: string) => ({
  description,
  content: { "application/json": { schema: ErrorEnvelopeSchema } },
});

// What the control API answers and takes, as the schemas above say: the control client's types.
export type SimulatorHealth = z.output<typeof HealthSchema>;
export type ClockState = z.output<typeof ClockSchema>;
export type ClockChange = z.input<typeof ClockChangeSchema>;
export type ShopInfo = z.output<typeof ShopInfoSchema>;
export type NewShop = z.input<typeof CreateShopSchema>;
export type NewCustomer = z.input<typeof CreateCustomerSchema>;
export type JournalEntry = z.output<typeof JournalEntrySchema>;
export type ScenarioSummary = z.output<typeof ScenarioSummarySchema>;
