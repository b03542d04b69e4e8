/**
 * The scenario file format: a named, ordered list of rules, each a `match`, optional `times`,
 * `after` and `probability`, and a `respond`. One zod schema validates files, control-API
 * bodies and generates the JSON Schema for editors (scenarios/scenario.schema.json).
 * @module
 */
import { z } from "zod";
import { ERROR_CODES } from "../engine/errors.js";
import { count } from "../http/integers.js";
import { jsonValue, matchObject, NO_BODY_STATUSES, responseHeaders, stringRecord } from "./field-checks.js";
import { MAX_GLOB_LENGTH } from "./glob.js";
import { OPERATION_IDS, ROOT_FIELDS } from "../contract/index.js";
import { FAULTS } from "../http/faults.js";

export { FAULTS, type Fault } from "../http/faults.js";

/** Longest delay a rule may ask for: long enough for any client timeout test, short enough to stop. */
export const MAX_DELAY_MS = 120_000;

const ms = z.int().min(0).max(MAX_DELAY_MS);
const delayMs = z
  .union(
    [
      ms,
      // The pair's length and end, said to the OpenAPI generator, which writes only `prefixItems` for a tuple.
      z
        .tuple([ms, ms])
        .refine(([min, max]) => min <= max, { message: "must be [min, max] with min <= max" })
        .meta({ minItems: 2, maxItems: 2, items: false }),
    ],
    { error: `must be milliseconds from 0 to ${MAX_DELAY_MS}, or a [min, max] pair of them` },
  )
  .describe("Milliseconds, or [min, max] drawn from the seeded random source (min <= max)");

export const matchSchema = z
  .strictObject({
    operation: z.enum(OPERATION_IDS).optional().describe("An operationId of the API"),
    method: z
      .string()
      .regex(/^(get|post|patch|put|delete|GET|POST|PATCH|PUT|DELETE)$/, "must be GET, POST, PATCH, PUT or DELETE")
      .transform((m) => m.toUpperCase())
      .optional(),
    path: z
      .string()
      .regex(/^\//, "must start with /")
      .max(MAX_GLOB_LENGTH)
      .optional()
      .describe("A path template such as /customers/{id}/redemptions, or a glob: * matches within a segment, ** across segments"),
    customerId: z.string().min(1).optional(),
    apiKey: z.string().min(1).optional().describe("Only requests of the shop with this API key"),
    headers: stringRecord().optional().describe("Header name (any case) to exact value"),
    body: matchObject().optional().describe("Partial deep match of the JSON body"),
    query: stringRecord().optional().describe("Query parameter to exact value"),
    api: z.enum(["rest", "graphql"]).optional().describe("Only requests of this API; absent: both (a GraphQL root field is matched as its REST twin)"),
    graphql: z
      .strictObject({
        operationName: z.string().min(1).optional().describe("The executed operation's name, exactly"),
        field: z.enum(ROOT_FIELDS).optional().describe("A root field of the GraphQL schema"),
      })
      .optional()
      .describe("Only GraphQL root fields: of this operation, this field"),
  })
  .describe("All given fields must hold");

export const respondSchema = z
  .strictObject({
    error: z.enum(ERROR_CODES).optional().describe("A documented error code, answered with its status and envelope"),
    message: z.string().min(1).optional().describe("With error: the message instead of the default one"),
    status: z.int().min(200, "must be from 200 to 599: a 1xx status is not a final answer").max(599).optional().describe("A raw response status"),
    body: jsonValue().optional().describe("With status: the raw body (JSON)"),
    headers: responseHeaders().optional().describe("With status: extra response headers (not the framing ones: Content-Length, Transfer-Encoding, Connection, ...)"),
    rateLimit: z
      .strictObject({ limit: count(0), windowSeconds: z.int().min(1).max(31_536_000) })
      .optional()
      .describe("A 429 RATE_LIMITED limiter over the matched requests"),
    fault: z.enum(FAULTS).optional(),
    commit: z
      .boolean()
      .optional()
      .describe("With error, status or fault: the real handler runs and commits first, then this answer replaces its response"),
    delayMs: delayMs.optional(),
  })
  .superRefine((r, ctx) => {
    const kinds = (["error", "status", "rateLimit", "fault"] as const).filter((k) => r[k] !== undefined);
    if (kinds.length > 1) {
      ctx.addIssue({ code: "custom", message: `takes one of error, status, rateLimit or fault, not ${kinds.join(" and ")}` });
    }
    if (kinds.length === 0 && r.delayMs === undefined) {
      ctx.addIssue({ code: "custom", message: "needs one of error, status, rateLimit, fault or delayMs" });
    }
    if (r.commit === true && r.error === undefined && r.status === undefined && r.fault === undefined) {
      ctx.addIssue({ code: "custom", path: ["commit"], message: "goes with error, status or fault: the answer that replaces the handler's" });
    }
    if (r.message !== undefined && r.error === undefined) ctx.addIssue({ code: "custom", path: ["message"], message: "goes with error" });
    for (const key of ["body", "headers"] as const) {
      if (r[key] !== undefined && r.status === undefined) ctx.addIssue({ code: "custom", path: [key], message: "goes with status" });
    }
    if (r.body !== undefined && r.status !== undefined && NO_BODY_STATUSES.includes(r.status)) {
      ctx.addIssue({ code: "custom", path: ["body"], message: `cannot go with status ${r.status}, which has no body; remove it or pick another status` });
    }
  });

export const ruleSchema = z.strictObject({
  name: z.string().min(1).optional(),
  match: matchSchema.default({}),
  times: count(1).optional().describe("Apply N times, then the rule is spent"),
  after: count(0).optional().describe("Skip the first N matching requests"),
  probability: z.number().min(0).max(1).optional().describe("Chance to apply, drawn from the seeded random source"),
  respond: respondSchema,
});

export const scenarioSchema = z
  .strictObject({
    $schema: z.string().optional(),
    name: z.string().min(1).max(200).regex(/^[^/]+$/, "must not contain /"),
    description: z.string().optional(),
    rules: z.array(ruleSchema).min(1),
  })
  .describe("A loyalty-sim scenario: the first active rule that matches a request decides its answer");

export type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioSchema>;
export type Rule = z.output<typeof ruleSchema>;
export type Respond = z.output<typeof respondSchema>;

/** The JSON Schema editors use to check scenario files. */
export function scenarioJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(scenarioSchema, { io: "input", target: "draft-2020-12" }),
    title: "loyalty-sim scenario",
  };
}
