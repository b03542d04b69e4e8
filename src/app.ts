/**
 * createApp(deps): the whole HTTP surface. The API routers under the production base path,
 * behind credentials and the rate limit; the OpenAPI document and docs; one error handler that
 * writes every failure in the documented envelope.
 * @module
 */
import { HTTPException } from "hono/http-exception";
import { cors } from "./http/cors.js";
import type { Context } from "hono";
import type { AppEnv } from "./http/env.js";
import { customersRouter } from "./api/customers/customers.router.js";
import { programRouter } from "./api/program/program.router.js";
import { rewardsRouter } from "./api/rewards/rewards.router.js";
import { stampsRouter } from "./api/stamps/stamps.router.js";
import type { Engine } from "./engine/engine.js";
import { DomainError } from "./engine/errors.js";
import { checkCredentials, checkJsonBody, RateLimiter } from "./http/auth.js";
import { docsRouter } from "./http/docs.js";
import { sendError, sendNoRoute } from "./http/errors.js";
import { createGateway, throughGateway, type Gate } from "./http/gateway.js";
import { declaredLength, readBodyWithin } from "./http/request-body.js";
import { requestHeader } from "./http/request-headers.js";
import { requestPath } from "./http/path.js";
import { setHeader } from "./http/respond.js";
import { API_BASE, createRouter } from "./http/router.js";
import { openApiConfig } from "./openapi.js";
import { Journal } from "./journal.js";
import { createControlRouter } from "./control/control.router.js";
import { RequestRecorder, type RequestLogLine } from "./http/recording.js";
import { applyScenarios } from "./scenarios/gate.js";
import { ScenarioRegistry } from "./scenarios/registry.js";
import type { Scenario } from "./scenarios/schema.js";
import type { DataFileFailure } from "./store/data-file.js";

export interface AppDeps {
  engine: Engine;
  /** Scenarios loaded at start: they apply to every shop and come back on reset. */
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
  /** Called after `POST /__sim/reset` (persistence flushes there). */
  onReset?: () => Promise<void>;
  /** While writes to the `--data` file fail: why and since when (health reports it). */
  dataFileFailure?: () => DataFileFailure | undefined;
  /** Answer CORS preflights and expose the API's headers to browsers (default true). */
  cors?: boolean;
}

/** Headers a browser app under test needs to read. */
const EXPOSED_HEADERS = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "Retry-After", "X-Request-Id", "Idempotency-Key"];

/**
 * The body limit. A declared Content-Length is checked from the header alone; a body of unknown
 * length (chunked, or an in-process request's) is read up to the limit and kept for the handler.
 */
function limitBody(maxSize: number): Gate {
  const tooLarge = (c: Context<AppEnv>) => sendError(c, new DomainError("PAYLOAD_TOO_LARGE", `Request body is larger than ${maxSize} bytes`));
  return (c) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return undefined;
    const length = declaredLength(c);
    if (length !== undefined) return Number.parseInt(length, 10) > maxSize ? tooLarge(c) : undefined;
    return readBodyWithin(c, maxSize).then((within) => (within ? undefined : tooLarge(c)));
  };
}

/** Writes every failure in the error envelope; anything but a DomainError or hono's body errors is a bug. */
function answerError(error: unknown, c: Context<AppEnv>, onBug?: (error: unknown) => void): Response {
  if (error instanceof DomainError) return sendError(c, error);
  if (error instanceof HTTPException && error.status === 400) {
    // Hono's JSON validator throws this for a body that does not parse.
    return sendError(
      c,
      new DomainError("VALIDATION_ERROR", "Request body is not valid JSON", [{ in: "body", path: "(root)", message: "is not valid JSON" }]),
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
    );
  }
  onBug?.(error);
  return sendError(c, new DomainError("INTERNAL_ERROR"));
}

export function createApp(deps: AppDeps) {
  const { engine } = deps;
  const limiter = new RateLimiter(engine.clock);
  const registry = new ScenarioRegistry(deps.scenarios ?? [], engine.clock, deps.seed ?? 1);
  const journal = new Journal(deps.journalSize ?? 1000);
  const app = createRouter({ getPath: requestPath });

  let requestCounter = 0;
  const identify: Gate = (c) => {
    c.set("clock", engine.clock);
    // A client's own request id is kept, so its logs and ours line up.
    const requestId = requestHeader(c, "x-request-id") ?? `req_${(++requestCounter).toString(36).padStart(6, "0")}`;
    setHeader(c, "X-Request-Id", requestId);
    const idempotencyKey = requestHeader(c, "idempotency-key");
    if (idempotencyKey !== undefined) setHeader(c, "Idempotency-Key", idempotencyKey);
    return undefined;
  };
  const onError = (error: unknown, c: Context<AppEnv>) => answerError(error, c, deps.onBug);
  const gateway = createGateway({
    everyRequest: [
      identify,
      ...(deps.cors === false
        ? []
        : [
            cors({
              allowHeaders: ["X-Api-Key", "X-Api-Secret", "Content-Type", "Prefer", "Idempotency-Key", "X-Request-Id"],
              allowMethods: ["GET", "POST", "PATCH", "PUT", "DELETE", "OPTIONS"],
              exposeHeaders: EXPOSED_HEADERS,
              maxAgeSeconds: 600,
            }),
          ]),
    ],
    recorder: new RequestRecorder(engine, journal, deps.onRequest),
    apiGates: [
      checkCredentials(engine, limiter),
      limitBody(deps.bodyLimitBytes ?? 1024 * 1024),
      checkJsonBody,
      applyScenarios({ registry, ...(deps.latency !== undefined && { latency: deps.latency }) }),
    ],
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
        ...(deps.onReset && { onReset: deps.onReset }),
        ...(deps.dataFileFailure && { dataFileFailure: deps.dataFileFailure }),
      }),
    ),
  );

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

  return { app, api, limiter, registry, journal };
}

export type App = ReturnType<typeof createApp>["app"];
export type ApiRoutes = ReturnType<typeof createApp>["api"];
