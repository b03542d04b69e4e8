/**
 * createApp(deps): the whole HTTP surface, composed. The gates in the order they run, the API
 * routers under the production base path, the control API, the OpenAPI document and docs.
 * @module
 */
import type { MergeSchemaPath } from "hono/types";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { apiRouter, type ApiSchema } from "../api/router.js";
import { DEFAULT_LIMITS, type Limits } from "../config.js";
import { controlRouter } from "../control/control.router.js";
import { coverageRouter } from "../control/coverage.router.js";
import { Coverage } from "../coverage/counters.js";
import { EventHub } from "../control/events.js";
import { inspectRouter } from "../control/inspect.router.js";
import { inspectorRouter } from "../inspector/mount.js";
import { simAddScenario } from "../control/control.routes.js";
import { SCENARIO_TEXT_LIMIT } from "../scenarios/limits.js";
import type { Engine } from "../engine/engine.js";
import { API_BASE, GRAPHQL_PATH, isApiPath } from "../http/base.js";
import { docsRouter } from "../http/docs.js";
import type { AppEnv } from "../http/env.js";
import { answerError, sendNoRoute, writeEnvelope } from "../http/errors.js";
import { Exchange } from "../http/exchange.js";
import { createGateway, type GatewayOptions } from "../http/gateway.js";
import { graphqlRouters, writeGraphQLRefusal } from "./graphql-route.js";
import { bodyLimit, controlCallers, cors, credentials, identifyShop, jsonBodies, Quotas, requestId, shopAfterGates } from "../http/gates/index.js";
import { Journal } from "../http/journal/journal.js";
import { RequestRecorder, type RequestLogLine } from "../http/journal/recorder.js";
import { createMount } from "../http/mount.js";
import { requestPath } from "../http/path.js";
import { createRouter } from "../http/router.js";
import { openApiConfig, SECURITY_SCHEMES } from "./openapi.js";
import { applyScenarios } from "../scenarios/gate.js";
import { PREFER_DOCUMENT } from "../scenarios/prefer.js";
import { ScenarioRegistry } from "../scenarios/registry.js";
import type { Scenario } from "../scenarios/schema.js";
import type { DataFileFailure } from "../persistence/data-file.js";

export interface AppDeps {
  engine: Engine;
  /** Scenarios loaded at start: each shop has them (with counters of its own), and gets them back on reset. */
  scenarios?: Scenario[];
  /** Seed of scenario probabilities and delay ranges. */
  seed?: number;
  /** Global latency of every API request, in ms or [min, max]. */
  latency?: number | [number, number];
  /** Entries the request journal keeps (default 1000). */
  journalSize?: number;
  /** Largest accepted request body in bytes (default 1 MiB). */
  bodyLimitBytes?: number;
  /** Called with unexpected errors (bugs) before the 500 is written. */
  onBug?: (error: unknown) => void;
  /** Called once per API request with what the request log shows. */
  onRequest?: (line: RequestLogLine) => void;
  /** Called after `POST /__sim/reset` and a shop's deletion (persistence flushes there). */
  onReset?: () => Promise<void>;
  /** While writes to the `--data` file fail: why and since when (health reports it). */
  dataFileFailure?: () => DataFileFailure | undefined;
  /** Answer CORS preflights and expose the API's headers to browsers (default true; never for `/__sim`). */
  cors?: boolean;
  /** Bound to a loopback address: the control API refuses a Host that is not a loopback name. */
  loopbackHostsOnly?: boolean;
  /** Serve the inspector pages at /__sim/ui (default true). */
  inspector?: boolean;
  /** What the control API may make (default DEFAULT_LIMITS). */
  limits?: Partial<Limits>;
}

/** Headers a browser app under test may send and read, on the requests CORS covers. */
const CORS = {
  covers,
  allowHeaders: ["X-Api-Key", "X-Api-Secret", "Content-Type", "Prefer", "Idempotency-Key", "X-Request-Id"],
  allowMethods: ["GET", "POST", "PATCH", "PUT", "DELETE", "OPTIONS"],
  exposeHeaders: ["X-RateLimit-Limit", "X-RateLimit-Remaining", "Retry-After", "X-Request-Id", "Idempotency-Key"],
  maxAgeSeconds: 600,
};

/**
 * What CORS covers: the loyalty API, GraphQL's operations, and the two documents (no secret in
 * them; browser tools of other origins read them). Never the control API (see same-origin.ts), nor
 * a page or its files (GraphiQL, /doc, the inspector), which no other site may read.
 */
function covers(path: string, method: string): boolean {
  if (path === GRAPHQL_PATH) return method !== "GET" && method !== "HEAD";
  return isApiPath(path) || path === "/openapi.json" || path === `${GRAPHQL_PATH}/schema.graphql`;
}

/**
 * The API's routes with every documented answer, for `hono/client`, as mounted under the API base.
 * Spelled out by name, so the .d.ts files refer to it instead of repeating every route's answers.
 */
export type ApiRoutes = OpenAPIHono<AppEnv, MergeSchemaPath<ApiSchema, typeof API_BASE>>;

export type App = OpenAPIHono<AppEnv>;

export interface BuiltApp {
  app: App;
  /** The same app, typed with the API's routes. */
  api: ApiRoutes;
  limiter: Quotas;
  registry: ScenarioRegistry;
  journal: Journal;
  /** The control API's event stream: close it to end every open stream. */
  events: EventHub;
  /** What each shop's requests met, by operation and outcome (`GET /__sim/coverage`). */
  coverage: Coverage;
}

export function createApp(deps: AppDeps): BuiltApp {
  const { engine } = deps;
  const quotas = new Quotas();
  // A shop that is gone (a request still running when it was deleted) is timed by the default shop's clock.
  const clockOf = (shopId: string) => (engine.shop(shopId) ?? engine.defaultShop()).clock;
  const registry = new ScenarioRegistry(deps.scenarios ?? [], clockOf, deps.seed ?? 1);
  const journal = new Journal(deps.journalSize ?? 1000);
  const events = new EventHub(journal, engine);
  const coverage = new Coverage(engine);
  const maxBody = deps.bodyLimitBytes ?? 1024 * 1024;
  const onError: GatewayOptions["onError"] = (error, exchange) => answerError(error, exchange, deps.onBug);

  // The gates, in the order they run: the first that answers ends the request.
  const gateway = createGateway({
    everyRequest: [
      requestId(),
      identifyShop(engine),
      // Browsers may call the API from any page, but never drive the control API nor read the pages.
      controlCallers({ loopbackHostsOnly: deps.loopbackHostsOnly ?? false }),
      ...(deps.cors === false ? [] : [cors(CORS)]),
    ],
    api: [
      credentials(quotas),
      bodyLimit(() => maxBody),
      jsonBodies,
      applyScenarios({ registry, shops: engine, ...(deps.latency !== undefined && { latency: deps.latency }) }),
      // Reading the body and the scenarios' delays take time: the shop may have been reset or deleted meanwhile.
      shopAfterGates(engine),
    ],
    // GraphQL matches scenarios per root field (src/scenarios/graphql-fields.ts), and answers refusals in its own shape.
    graphql: { gates: [credentials(quotas), bodyLimit(() => maxBody)], writeError: writeGraphQLRefusal },
    // A scenario (rules, bodies to match) may be a few MiB.
    other: [bodyLimit(({ c }) => (c.req.method === "POST" && c.req.path === simAddScenario.path ? SCENARIO_TEXT_LIMIT : maxBody))],
    recorder: new RequestRecorder(journal, deps.onRequest, (shopId) => quotas.windowEnd(shopId), maxBody, coverage.count),
    onError,
  });
  // The scenario gate reads Prefer on every API request: each operation documents it and what it forces.
  const toApi = createMount({
    side: gateway.api,
    base: API_BASE,
    documented: { parameters: [{ $ref: `#/components/parameters/${PREFER_DOCUMENT.name}` }], responses: PREFER_DOCUMENT.responses },
  });
  const toOther = createMount({ side: gateway.other, base: "" });
  const toGraphql = createMount({ side: gateway.graphql, base: "" });

  const app = createRouter({ getPath: requestPath });
  const api = app.route(API_BASE, apiRouter(toApi));
  const limits = { ...DEFAULT_LIMITS, ...deps.limits };
  const { onReset, dataFileFailure } = deps;
  app.route("/", controlRouter(toOther, { engine, registry, journal, limiter: quotas, limits, ...(onReset && { onReset }), ...(dataFileFailure && { dataFileFailure }), events, coverage }));
  app.route("/", coverageRouter(toOther, { engine, coverage }));
  app.route("/", inspectRouter(toOther, { engine, registry, journal, limiter: quotas, events }));
  // The pages are one more client of the control API, in process.
  if (deps.inspector !== false) app.route("/", inspectorRouter(toOther, { control: (path, init) => Promise.resolve(app.request(path, init)) }));
  for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) app.openAPIRegistry.registerComponent("securitySchemes", name, scheme);
  app.openAPIRegistry.registerComponent("parameters", PREFER_DOCUMENT.name, PREFER_DOCUMENT.parameter);
  for (const router of graphqlRouters(toGraphql, toOther, { engine, registry, shops: engine, quotas, ...(deps.latency !== undefined && { latency: deps.latency }), ...(deps.onBug && { onBug: deps.onBug }) })) app.route("/", router);
  app.route("/", docsRouter(toOther, (origin) => app.getOpenAPI31Document(openApiConfig([{ url: origin, description: "This simulator" }]))));

  // A path under the API base that no route has is still an API request: checked and journaled.
  const noRoute = { api: gateway.api.handler(undefined, [sendNoRoute]), other: gateway.other.handler(undefined, [sendNoRoute]) };
  app.notFound((c) => (isApiPath(c.req.path) ? noRoute.api : noRoute.other)(c));
  // Only what fails outside the gateway's steps (they answer their own errors) reaches hono's handler.
  app.onError((error, c) => answerError(error, new Exchange(c, undefined, writeEnvelope), deps.onBug));

  return { app, api, limiter: quotas, registry, journal, events, coverage };
}
