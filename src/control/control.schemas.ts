/** @module Schemas of the simulator control API (`/__sim`). */
import { z } from "@hono/zod-openapi";
import { CLOCK_MAX_MS, CLOCK_MIN_MS, isoTimestamp } from "../engine/clock.js";
import { RECORD_ID, RECORD_ID_RULE } from "../engine/pagination.js";
import { count, integerText } from "../http/integers.js";
import { ErrorEnvelopeSchema } from "../http/schemas.js";
import { DECIDERS } from "../http/env.js";
import { MAX_GLOB_LENGTH } from "../scenarios/glob.js";
import { OPERATION_IDS } from "../contract/index.js";

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
    rateLimit: z.union([count(1), z.literal("off")]).optional(),
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

const HeadersSchema = z.record(z.string(), z.string()).openapi({ description: "Header names in lower case; repeated headers joined with \", \"" });

export const JournalEntrySchema = z
  .object({
    id: z.int(),
    requestId: z.string().nullable().openapi({
      description: "The `X-Request-Id` the response carried (the client's own when it sent one); null when a fault left the client without a response. Not the journal `id`: request ids count every request, the control API's too",
    }),
    at: z.string(),
    shopId: z.string().nullable(),
    method: z.string(),
    path: z.string(),
    api: z.enum(["rest", "graphql"]).openapi({ description: "`graphql` for `POST /graphql`" }),
    graphql: z
      .object({
        operationType: z.enum(["query", "mutation"]),
        operationName: z.string().nullable(),
        fields: z.array(
          z.object({
            field: z.string(),
            alias: z.string().nullable(),
            operation: z.string().openapi({ description: "The REST twin's operationId" }),
            customerId: z.string().nullable(),
            error: z.string().nullable().openapi({ description: "The code (or graphql-js message) of the root field's first error, one in a field of its value included (an Int it could not write); `NOT_RUN` for a mutation field after a non-null one that failed (graphql-js stops there); null when it did not fail" }),
          }),
        ),
      })
      .nullable()
      .openapi({ description: "A GraphQL request's operation and root fields; null for REST, and for a GraphQL request refused before its operation was known" }),
    operation: z.string().nullable().openapi({ description: "The operationId; for GraphQL, the REST twin of the first root field" }),
    customerId: z.string().nullable(),
    query: z.record(z.string(), z.string()),
    requestHeaders: HeadersSchema.openapi({
      description: "The request's headers, names in lower case; the values of X-Api-Secret, Authorization, Proxy-Authorization and Cookie are kept as \"***\"",
    }),
    requestBody: z.unknown(),
    status: z.int().nullable().openapi({ description: "The status the client got; null when a fault left it without a response" }),
    fault: z.string().nullable(),
    responseHeaders: HeadersSchema.nullable().openapi({
      description: "The headers of the response the client got, as the simulator set them (names in lower case); null when a fault left it without a response",
    }),
    responseBody: z.unknown(),
    committed: z
      .object({ status: z.int(), body: z.unknown() })
      .nullable()
      .openapi({
        description:
          "With a scenario rule's `commit`: the handler's own answer, which ran (a 2xx saved its change; an error changed nothing) before the rule's answer (`status`, `fault`, `responseBody`) replaced it",
      }),
    durationMs: z.number(),
    decidedBy: z.enum(DECIDERS).openapi({
      description:
        "What decided the answer: `handler` (the route, its domain errors, or the 404 of a path no route has), `scenario` (the rule in `scenario`), `prefer` (the Prefer header), `quota` (429 of the hourly quota), `credentials` (401, or 403 for API access or plan), `bodyLimit` (413), `validation` (422 for the request's shape before the handler: not JSON, the schema, a bad Prefer)",
    }),
    scenario: z
      .object({ scenario: z.string(), rule: z.int(), ruleName: z.string().optional() })
      .nullable()
      .openapi({ description: "The scenario rule that applied: it answered (`decidedBy: scenario`), or only delayed or counted the request" }),
  })
  .openapi("SimJournalEntry");

export const RequestsQuerySchema = z.object({
  operation: z.enum(OPERATION_IDS).optional().openapi({ description: "An operationId of the API (a GraphQL request matches when one of its root fields has it as REST twin)" }),
  api: z.enum(["rest", "graphql"]).optional(),
  customerId: z.string().optional(),
  status: integerText(100, 599).optional(),
  method: z.string().optional().openapi({ description: "GET, POST, ..." }),
  path: z.string().max(MAX_GLOB_LENGTH).optional().openapi({ description: "A path template or glob, as in scenario rules" }),
  after: integerText(0, Number.MAX_SAFE_INTEGER).optional().openapi({ description: "Only entries newer than the entry of this id (to poll: the newest id seen)" }),
  q: z.string().min(1).max(1024).optional().openapi({ description: "Text to find, in any case, in the path and query, the request's and response's headers (the request id too) or bodies" }),
  limit: integerText(0, 100_000).optional().openapi({ description: "At most this many entries, the newest (0: only the count)" }),
});

/** The longest a `GET /__sim/requests?wait=` holds the request: longer than any test's own wait for one effect, short of a client's idle timeout. */
export const MAX_WAIT_MS = 30_000;

export const WaitQuerySchema = RequestsQuerySchema.extend({
  wait: integerText(0, MAX_WAIT_MS, { max: `must be at most ${MAX_WAIT_MS} (ms), the longest one request waits: ask again to wait longer` })
    .optional()
    .openapi({
      description: `Hold the answer up to this many ms until the filters select \`count\` entries (one without it); 0 waits none. On time running out, the entries there are, with \`timedOut: true\`. At most ${MAX_WAIT_MS}.`,
    }),
  count: integerText(1, 100_000).optional().openapi({ description: "With `wait`: how many entries the filters must select (default 1)" }),
});

export const RequestIdParam = z.object({
  id: integerText(1, Number.MAX_SAFE_INTEGER).openapi({ param: { name: "id", in: "path" } }),
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
/** The filters of `GET /__sim/requests` (and of `requests.har`), as validated. */
export type RequestsQuery = z.output<typeof RequestsQuerySchema>;
export type ScenarioSummary = z.output<typeof ScenarioSummarySchema>;
