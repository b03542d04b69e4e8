/**
 * createApp(deps): the whole HTTP surface. The API routers under the production base path,
 * behind credentials and the rate limit; the OpenAPI document and docs; one error handler that
 * writes every failure in the documented envelope.
 * @module
 */
import { HTTPException } from "hono/http-exception";
import { cors } from "./http/cors.js";
import type { Context } from "hono";
import type { MergeSchemaPath } from "hono/types";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "./http/env.js";
import { customersRouter } from "./api/customers/customers.router.js";
import { programRouter } from "./api/program/program.router.js";
import { rewardsRouter } from "./api/rewards/rewards.router.js";
import { stampsRouter } from "./api/stamps/stamps.router.js";
import { DEFAULT_LIMITS, type Limits } from "./config.js";
import type { Engine } from "./engine/engine.js";
import { DomainError } from "./engine/errors.js";
import { checkCredentials, checkJsonBody, identifyShop, RateLimiter } from "./http/auth.js";
import { docsRouter } from "./http/docs.js";
import { sendError, sendNoRoute } from "./http/errors.js";
import { createGateway, throughGateway, type Gate } from "./http/gateway.js";
import { limitBody } from "./http/request-body.js";
import { requestHeader } from "./http/request-headers.js";
import { requestPath } from "./http/path.js";
import { sameOriginOnly } from "./http/same-origin.js";
import { setHeader } from "./http/respond.js";
import { API_BASE, createRouter } from "./http/router.js";
import { openApiConfig } from "./openapi.js";
import { Journal } from "./journal.js";
import { createControlRouter } from "./control/control.router.js";
import { EventHub } from "./control/events.js";
import { createInspectRouter } from "./control/inspect.router.js";
import { SCENARIO_BODY_LIMIT, simAddScenario } from "./control/control.routes.js";
import { RequestRecorder, type RequestLogLine } from "./http/recording.js";
import { applyScenarios } from "./scenarios/gate.js";
import { ScenarioRegistry } from "./scenarios/registry.js";
import type { Scenario } from "./scenarios/schema.js";
import type { DataFileFailure } from "./persistence/data-file.js";

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
  /** What the control API may make (default DEFAULT_LIMITS). */
  limits?: Partial<Limits>;
}

/** The control API's paths (hono routes `/%5F%5Fsim/...` there too: `c.req.path` is decoded). */
const isControl = (path: string) => path.startsWith("/__sim/") || path === "/__sim";

/** Headers a browser app under test needs to read. */
const EXPOSED_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "Retry-After", "X-Request-Id", "Idempotency-Key"];

/** Writes every failure in the error envelope; anything but a DomainError or hono's body errors is a bug. */
function answerError(error: unknown, c: Context<AppEnv>, onBug?: (error: unknown) => void): Response {
  if (error instanceof DomainError) return sendError(c, error);
  if (error instanceof HTTPException && error.status === 400) {
    // Hono's JSON validator throws this for a body that does not parse.
    return sendError(
      c,
      new DomainError("VALIDATION_ERROR", "Request body is not valid JSON", [{ in: "body", path: "(root)", message: "is not valid JSON" }]),
      "validation",
    );
  }
  if (error instanceof HTTPException && error.status === 415) {
    // @hono/zod-openapi's media-type gate, for a Content-Type its stricter pattern refuses
    // (e.g. "application/json ; charset=utf-8", or text/plain with an empty body).
    const type = c.req.header("Content-Type");
    return sendError(
      c,
      new DomainError("VALIDATION_ERROR", "Request body must be JSON", [
        { in: "header", path: "Content-Type", message: `must be application/json (optionally with "; charset=utf-8"), got ${type ?? "none"}` },
      ]),
      "validation",
    );
  }
  onBug?.(error);
  return sendError(c, new DomainError("INTERNAL_ERROR"));
}

/** A router's routes as mounted under the API base (what `app.route(API_BASE, router)` adds). */
type Mounted<R> = R extends OpenAPIHono<AppEnv, infer S> ? MergeSchemaPath<S, typeof API_BASE> : never;

/**
 * The API's routes with every documented answer, for `hono/client`. Spelled out from the routers
 * by name, so the .d.ts files refer to them instead of repeating every route's answers.
 */
export type ApiRoutes = OpenAPIHono<AppEnv, Mounted<typeof customersRouter> & Mounted<typeof stampsRouter> & Mounted<typeof rewardsRouter> & Mounted<typeof programRouter>>;

export type App = OpenAPIHono<AppEnv>;

export interface BuiltApp {
  app: App;
  /** The same app, typed with the API's routes. */
  api: ApiRoutes;
  limiter: RateLimiter;
  registry: ScenarioRegistry;
  journal: Journal;
  /** The control API's event stream: close it to end every open stream. */
  events: EventHub;
}

export function createApp(deps: AppDeps): BuiltApp {
  const { engine } = deps;
  const limiter = new RateLimiter();
  // A shop that is gone (a request still running when it was deleted) is timed by the default shop's clock.
  const clockOf = (shopId: string) => (engine.shop(shopId) ?? engine.defaultShop()).clock;
  const registry = new ScenarioRegistry(deps.scenarios ?? [], clockOf, deps.seed ?? 1);
  const journal = new Journal(deps.journalSize ?? 1000);
  const events = new EventHub(journal, engine);
  const app = createRouter({ getPath: requestPath });
  const bodyLimit = deps.bodyLimitBytes ?? 1024 * 1024;

  let requestCounter = 0;
  const identify: Gate = (c) => {
    identifyShop(engine, c);
    // A client's own request id is kept, so its logs and ours line up.
    const requestId = requestHeader(c, "x-request-id") ?? `req_${(++requestCounter).toString(36).padStart(6, "0")}`;
    setHeader(c, "X-Request-Id", requestId);
    const idempotencyKey = requestHeader(c, "idempotency-key");
    if (idempotencyKey !== undefined) setHeader(c, "Idempotency-Key", idempotencyKey);
    return undefined;
  };
  const onError = (error: unknown, c: Context<AppEnv>) => answerError(error, c, deps.onBug);
  const corsHeaders =
    deps.cors === false
      ? undefined
      : cors({
          allowHeaders: ["X-Api-Key", "X-Api-Secret", "Content-Type", "Prefer", "Idempotency-Key", "X-Request-Id"],
          allowMethods: ["GET", "POST", "PATCH", "PUT", "DELETE", "OPTIONS"],
          exposeHeaders: EXPOSED_HEADERS,
          maxAgeSeconds: 600,
        });
  const controlCallers = sameOriginOnly({ loopbackHostsOnly: deps.loopbackHostsOnly ?? false });
  // What browsers may do: call the API and read the docs from any page (CORS), but never drive the control API.
  const browsers: Gate = (c) => (isControl(c.req.path) ? controlCallers(c) : corsHeaders?.(c));
  const gateway = createGateway({
    everyRequest: [identify, browsers],
    recorder: new RequestRecorder(journal, deps.onRequest, (shopId) => limiter.windowEnd(shopId)),
    apiGates: [
      checkCredentials(limiter),
      limitBody(bodyLimit),
      checkJsonBody,
      applyScenarios({ registry, ...(deps.latency !== undefined && { latency: deps.latency }) }),
    ],
    // Control calls are limited too: a scenario (rules, bodies to match) may be a few MiB.
    plainGates: [limitBody((c) => (c.req.method === "POST" && c.req.path === simAddScenario.path ? SCENARIO_BODY_LIMIT : bodyLimit))],
    onError,
  });
  const toApi = <R extends Parameters<typeof throughGateway>[0]>(router: R) => throughGateway(router, API_BASE, gateway.api, true);
  const toOther = <R extends Parameters<typeof throughGateway>[0]>(router: R) => throughGateway(router, "", gateway.plain);

  const api = app
    .route(API_BASE, toApi(customersRouter))
    .route(API_BASE, toApi(stampsRouter))
    .route(API_BASE, toApi(rewardsRouter))
    .route(API_BASE, toApi(programRouter));
  app.route(
    "/",
    toOther(
      createControlRouter({
        engine,
        registry,
        journal,
        limiter,
        limits: { ...DEFAULT_LIMITS, ...deps.limits },
        ...(deps.onReset && { onReset: deps.onReset }),
        ...(deps.dataFileFailure && { dataFileFailure: deps.dataFileFailure }),
        events,
      }),
    ),
  );
  app.route("/", toOther(createInspectRouter({ engine, registry, journal, limiter, events })));

  app.openAPIRegistry.registerComponent("securitySchemes", "ApiKey", {
    type: "apiKey",
    in: "header",
    name: "X-Api-Key",
    description: "The shop's API key (default `sim_key`)",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "ApiSecret", {
    type: "apiKey",
    in: "header",
    name: "X-Api-Secret",
    description: "The shop's API secret (default `sim_secret`)",
  });

  const document = createRouter();
  document.get("/openapi.json", (c) => {
    const origin = new URL(c.req.url).origin;
    return c.json(app.getOpenAPI31Document(openApiConfig([{ url: origin, description: "This simulator" }])));
  });
  app.route("/", toOther(document));
  app.route("/", toOther(docsRouter()));

  // A path under the API base that no route has is still an API request: checked and recorded.
  const isApi = (path: string) => path.startsWith(API_BASE) && (path.length === API_BASE.length || path[API_BASE.length] === "/");
  app.notFound((c) => (isApi(c.req.path) ? gateway.api : gateway.plain)(c, sendNoRoute));
  app.onError(onError);

  return { app, api, limiter, registry, journal, events };
}
