/**
 * loyalty-sim as a library: run the simulator inside a test process (`createSimulator`) or on an
 * ephemeral port (`startSimulator`), and talk to it with typed clients.
 * @module
 */
import { hc } from "hono/client";
import type { ApiRoutes } from "./app/app.js";

export { createSimulator, inProcessFetch, createControlClient, SimulatorError, IN_PROCESS_ORIGIN } from "./simulator/in-process.js";
export type { InProcessSimulator, ControlClient, ControlClientOptions, RequestFilter, WaitOptions } from "./simulator/in-process.js";
export type {
  ClockChange,
  ClockState,
  JournalEntry,
  NewCustomer,
  NewShop,
  ScenarioSummary,
  ShopInfo,
  SimulatorHealth,
} from "./control/control.schemas.js";
export type { WhyTrace, RuleVerdict } from "./control/why.schemas.js";
export type { CoverageReport, CoverageCell, DuplicateWrite } from "./coverage/report.js";
export { formatCoverage, coverageFailures, COVERAGE_FORMATS, type CoverageFormat } from "./coverage/formats.js";
export type { CustomerDetail, CustomerSearch, Upcoming, UpcomingEvent } from "./control/inspect.schemas.js";
export type { RefusalReason } from "./engine/errors.js";
export { PRODUCTION_ORIGIN } from "./simulator/intercept.js";
export type { Interception } from "./simulator/intercept.js";
export { startSimulator } from "./simulator/server.js";
export type { RunningSimulator } from "./simulator/server.js";
export type { SimulatorOptions } from "./config.js";
export { createApp } from "./app/app.js";
export type { App, ApiRoutes } from "./app/app.js";
export { SimClock } from "./engine/clock.js";
export type { ErrorCode } from "./engine/errors.js";
export { ERROR_CATALOG } from "./http/errors.js";
/** The GraphQL schema (SDL), for client code generators; importing it does not load graphql-js. */
export { graphqlSchemaSDL } from "./graphql/sdl.js";
export type { Customer, Activity, RewardCode, Reward, Tier, EarnRule, Beacon, Shop } from "./engine/views.js";
export type { StampResult } from "./engine/stamps.js";
export type { RedemptionResult } from "./engine/rewards.js";
export type { PageInfo as Pagination } from "./engine/pagination.js";
export type { ScenarioInput as Scenario } from "./scenarios/schema.js";
export type { OperationId } from "./contract/index.js";
/** `loyalty-sim verify` as a function: the same checks against any target ([docs/verify.md](../docs/verify.md)). */
export { verify, CHECKS as VERIFY_CHECKS, textReport as verifyTextReport, type VerifyOptions, type VerifyResult, type Report as VerifyReport } from "./verify/index.js";

export interface ClientOptions {
  /** Up to and including `/rest_api/v1` is not needed: give the origin, e.g. `http://127.0.0.1:4747`. */
  origin: string;
  apiKey: string;
  apiSecret: string;
  /** Another fetch, e.g. `createSimulator().fetch` for in-process calls. */
  fetch?: typeof fetch;
}

// createClient's return type is left to inference on purpose: the .d.ts then spells the client
// out, and a consumer's type checker reads it instead of deriving it from the routers.
/**
 * A typed API client made with `hono/client`: paths, parameters, bodies and every documented
 * answer (each status with its body) are typed from the routes themselves.
 * @example
 * const client = createClient({ origin: sim.url, apiKey: sim.apiKey, apiSecret: sim.apiSecret });
 * const res = await client.rest_api.v1.customers[":id"].$get({ param: { id: "6000475504606" } });
 * if (res.status === 404) console.log((await res.json()).error.code); // "CUSTOMER_NOT_FOUND"
 */
export function createClient(options: ClientOptions) {
  return hc<ApiRoutes>(options.origin, {
    headers: { "X-Api-Key": options.apiKey, "X-Api-Secret": options.apiSecret },
    ...(options.fetch && { fetch: options.fetch }),
  });
}

/** The typed API client: every route with each documented status and its body. */
export type Client = ReturnType<typeof createClient>;
