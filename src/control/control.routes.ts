/**
 * Route contracts of the simulator control API under `/__sim`: no API credentials, tagged
 * "Simulator control", operationIds prefixed `sim`.
 * @module
 */
import { createRoute, z, type RouteConfig } from "@hono/zod-openapi";
import { pathParams } from "../http/params.js";
import { CustomerSchema } from "../contract/shapes.js";
import { MAX_SCENARIO_VALUES, SCENARIO_TEXT_LIMIT, YAML_SCENARIO_LIMIT } from "../scenarios/limits.js";
import { scenarioSchema } from "../scenarios/schema.js";
import {
  ClockChangeSchema,
  ClockSchema,
  CONTROL_TAG,
  controlError,
  CreateCustomerSchema,
  CreateShopSchema,
  HealthSchema,
  JournalEntrySchema,
  MergeSchema,
  RequestIdParam,
  ScenarioSummarySchema,
  ShopInfoSchema,
  ShopKeyHeader,
  WaitQuerySchema,
} from "./control.schemas.js";

export const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });
const base = { tags: [CONTROL_TAG], security: [] as Record<string, string[]>[] };
const invalid = controlError("`VALIDATION_ERROR`: bad control input, with details");
export const bug = controlError("`INTERNAL_ERROR`: a bug in the simulator");

const MIB = 1024 * 1024;

const forbidden = controlError(
  "`FORBIDDEN`: a browser page of another site (its `Origin`, or `Sec-Fetch-Site: cross-site` or `same-site`), or, while bound to a loopback address, a `Host` that is not localhost, 127.0.0.1 or [::1]",
);

/**
 * A control route with the outcomes every control call can have: another site's page is refused;
 * any method but GET may be sent a body, and one over the limit (1 MiB, as the API's; 4 MiB for a
 * scenario, 256 KiB of it as YAML) is refused.
 */
export function controlRoute<const R extends RouteConfig>(route: R) {
  const limit = route.method === "post" && route.path === "/__sim/scenarios" ? SCENARIO_TEXT_LIMIT : MIB;
  const tooLarge = controlError(`\`PAYLOAD_TOO_LARGE\`: the body is larger than ${limit / MIB} MiB${limit === SCENARIO_TEXT_LIMIT ? ` (${YAML_SCENARIO_LIMIT / 1024} KiB as YAML)` : ""}`);
  return createRoute({ ...base, ...route, responses: { ...route.responses, 403: forbidden, ...(route.method !== "get" && { 413: tooLarge }) } });
}

export const simHealth = controlRoute({
  method: "get",
  path: "/__sim/health",
  operationId: "simHealth",
  summary: "Health",
  description: "Liveness and version; the Docker HEALTHCHECK calls it. 503 `degraded` while writes to the `--data` file fail (they are retried every flush interval).",
  responses: { 200: json(HealthSchema, "The simulator is up"), 503: json(HealthSchema, "Up, but the `--data` file cannot be written: changes are not being saved"), 500: bug },
});

export const simReset = controlRoute({
  method: "post",
  path: "/__sim/reset",
  operationId: "simReset",
  summary: "Reset everything, or one shop",
  description:
    "Without `X-Api-Key`: every shop back to its seeded state, journal and rate windows cleared, scenarios back to those loaded at start, every shop's clock back to real time. " +
    "With `X-Api-Key`: that shop alone, and nothing of the others: its data back to its seed, its own scenarios removed and those loaded at start back with their counters at zero, its journal entries (for the default shop, also those of requests that named no shop), its rate windows and its clock back to real time. " +
    "Shops are generated again in slices, so other requests are answered meanwhile; the answer comes once all are done.",
  request: { headers: ShopKeyHeader },
  responses: {
    200: json(z.object({ reset: z.literal(true), shops: z.int().openapi({ description: "How many shops were reset (1 with `X-Api-Key`)" }) }), "Reset done"),
    422: invalid,
    500: bug,
  },
});

export const simListScenarios = controlRoute({
  method: "get",
  path: "/__sim/scenarios",
  operationId: "simListScenarios",
  summary: "List active scenarios",
  description: "Scenarios that apply to the shop, in the order rules are tried, with the shop's own hit counts and remaining `times` (those loaded at start count per shop too).",
  request: { headers: ShopKeyHeader },
  responses: { 200: json(z.object({ scenarios: z.array(ScenarioSummarySchema) }), "Active scenarios"), 422: invalid, 500: bug },
});

export const simAddScenario = controlRoute({
  method: "post",
  path: "/__sim/scenarios",
  operationId: "simAddScenario",
  summary: "Add a scenario",
  description:
    `Adds a scenario (JSON, or YAML with \`Content-Type: application/yaml\`) to the shop, before the others; one of the same name is replaced. At most \`--max-scenario-rules\` rules and ${MAX_SCENARIO_VALUES} JSON values (bodies included), \`--max-scenarios\` scenarios per shop, and \`--max-scenario-bytes\` held by the scenarios of all shops (422 beyond).`,
  request: {
    headers: ShopKeyHeader,
    body: {
      // Of two types: read by the handler, which refuses a missing body.
      required: false,
      content: {
        "application/json": { schema: scenarioSchema },
        "application/yaml": { schema: z.string().openapi({ description: "The same scenario as YAML" }) },
      },
    },
  },
  responses: { 201: json(ScenarioSummarySchema, "The scenario as now active"), 422: invalid, 500: bug },
});

export const simDeleteScenario = controlRoute({
  method: "delete",
  path: "/__sim/scenarios/{name}",
  operationId: "simDeleteScenario",
  summary: "Remove a scenario",
  description: "Removes the shop's scenario of that name (for the default shop, also one loaded at start: for itself, until it is reset).",
  request: { headers: ShopKeyHeader, params: pathParams({ name: {} }) },
  responses: { 204: { description: "Removed" }, 404: controlError("`NOT_FOUND`: no such scenario"), 422: invalid, 500: bug },
});

export const simClearScenarios = controlRoute({
  method: "delete",
  path: "/__sim/scenarios",
  operationId: "simClearScenarios",
  summary: "Remove all scenarios",
  description: "Removes the shop's scenarios (for the default shop, also those loaded at start: for itself, until it is reset).",
  request: { headers: ShopKeyHeader },
  responses: { 200: json(z.object({ removed: z.int() }), "How many were removed"), 422: invalid, 500: bug },
});

export const simListRequests = controlRoute({
  method: "get",
  path: "/__sim/requests",
  operationId: "simListRequests",
  summary: "Read and count the request journal",
  description:
    "API requests of the shop, newest first, with their headers and bodies as sent and answered, and what decided the answer. Every filter given must hold. `count` is how many entries the filters select, whatever `limit` keeps (`limit=0` only counts): a test's `verify`. " +
    "With `wait=MS` the answer waits (at most 30000 ms) until the filters select `count` entries (one without it), for an effect that comes later (a webhook's job, a queue); when the time runs out, the entries there are, with `timedOut: true`.",
  request: { headers: ShopKeyHeader, query: WaitQuerySchema },
  responses: {
    200: json(
      z.object({
        requests: z.array(JournalEntrySchema),
        count: z.int().openapi({ description: "Entries the filters select, before `limit`" }),
        timedOut: z.boolean().optional().openapi({ description: "With `wait`: true when the time ran out before the filters selected `count` entries, else false" }),
      }),
      "Journal entries",
    ),
    422: invalid,
    500: bug,
  },
});

export const simGetRequest = controlRoute({
  method: "get",
  path: "/__sim/requests/{id}",
  operationId: "simGetRequest",
  summary: "Read one journal entry",
  description: "The shop's journal entry of this id.",
  request: { headers: ShopKeyHeader, params: RequestIdParam },
  responses: {
    200: json(JournalEntrySchema, "The entry"),
    404: controlError("`NOT_FOUND`: no entry of this id in the shop's journal (pushed out of the ring, cleared, or another shop's)"),
    422: invalid,
    500: bug,
  },
});

export const simClearRequests = controlRoute({
  method: "delete",
  path: "/__sim/requests",
  operationId: "simClearRequests",
  summary: "Clear the request journal",
  description: "Forgets the shop's journal entries.",
  request: { headers: ShopKeyHeader },
  responses: { 204: { description: "Cleared" }, 422: invalid, 500: bug },
});

export const simGetClock = controlRoute({
  method: "get",
  path: "/__sim/clock",
  operationId: "simGetClock",
  summary: "Read the shop's clock",
  description:
    "The shop's current time (each shop has a clock of its own, real time until moved), which its expiry, rate windows, scenario rate windows, earn-rule limits, timestamps and journal follow.",
  request: { headers: ShopKeyHeader },
  responses: { 200: json(ClockSchema, "The clock"), 422: invalid, 500: bug },
});

export const simSetClock = controlRoute({
  method: "post",
  path: "/__sim/clock",
  operationId: "simSetClock",
  summary: "Move, set or freeze the shop's clock",
  description: "`advanceSeconds` moves it, `set` puts it at an instant, `frozen` stops or restarts it; no other shop's clock changes.",
  request: { headers: ShopKeyHeader, body: { required: true, content: { "application/json": { schema: ClockChangeSchema } } } },
  responses: { 200: json(ClockSchema, "The clock after the change"), 422: invalid, 500: bug },
});

export const simCreateShop = controlRoute({
  method: "post",
  path: "/__sim/shops",
  operationId: "simCreateShop",
  summary: "Create an isolated shop",
  description:
    "A new shop with the default program and its own seeded customers and credentials; parallel test files each take one. Generated in slices, so other requests are answered meanwhile. Refused (422) beyond `--max-shops` shops or `--max-customers` customers over all shops.",
  request: { body: { required: true, content: { "application/json": { schema: CreateShopSchema } } } },
  responses: { 201: json(ShopInfoSchema, "The new shop and its credentials"), 422: invalid, 500: bug },
});

export const simListShops = controlRoute({
  method: "get",
  path: "/__sim/shops",
  operationId: "simListShops",
  summary: "List shops",
  description: "Every shop of this simulator with its credentials.",
  responses: { 200: json(z.object({ shops: z.array(ShopInfoSchema) }), "The shops"), 500: bug },
});

export const simDeleteShop = controlRoute({
  method: "delete",
  path: "/__sim/shops/{apiKey}",
  operationId: "simDeleteShop",
  summary: "Delete a shop",
  description:
    "The shop and everything of it go: data, scenarios, journal entries, rate windows, clock (and from the `--data` file, which is flushed). Its id and API key are not given to another shop. The default shop cannot be deleted (422).",
  request: { params: pathParams({ apiKey: { description: "The shop's API key" } }) },
  responses: {
    204: { description: "Deleted" },
    404: controlError("`NOT_FOUND`: no shop has this API key"),
    422: controlError("`VALIDATION_ERROR`: the default shop's key (it cannot be deleted)"),
    500: bug,
  },
});

export const simCreateCustomer = controlRoute({
  method: "post",
  path: "/__sim/customers",
  operationId: "simCreateCustomer",
  summary: "Create a customer",
  description:
    "Creates a customer in the shop as if synced from the commerce platform (customers never come from the API). Refused (422) beyond `--max-customers` customers over all shops.",
  request: { headers: ShopKeyHeader, body: { required: true, content: { "application/json": { schema: CreateCustomerSchema } } } },
  responses: { 201: json(CustomerSchema, "The new customer"), 422: invalid, 500: bug },
});

export const simMergeCustomer = controlRoute({
  method: "post",
  path: "/__sim/customers/{id}/merge",
  operationId: "simMergeCustomer",
  summary: "Merge a customer into another",
  description: "As the commerce platform does: the balance moves to `into`, the merged customer keeps `mergedIntoCustomerId` and is refused changes.",
  request: {
    headers: ShopKeyHeader,
    params: pathParams({ id: {} }),
    body: { required: true, content: { "application/json": { schema: MergeSchema } } },
  },
  responses: {
    200: json(CustomerSchema, "The merged customer"),
    404: controlError("`CUSTOMER_NOT_FOUND`"),
    422: controlError("`VALIDATION_ERROR` or `ACTIVITY_NOT_AWARDED` (removed or already merged customer)"),
    500: bug,
  },
});
