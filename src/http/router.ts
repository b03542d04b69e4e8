/**
 * The router factory every resource uses: one validation hook so every invalid input becomes the
 * same 422 VALIDATION_ERROR with field details, and helpers to declare routes with their
 * complete list of outcomes.
 * @module
 */
import { OpenAPIHono, createRoute, type RouteConfig } from "@hono/zod-openapi";
import type { Context, Handler, TypedResponse } from "hono";
import type { JSONParsed } from "hono/utils/types";
import type { z } from "@hono/zod-openapi";
import { isoTimestamp } from "../engine/clock.js";
import { JsonView } from "../engine/json-view.js";
import type { Page } from "../engine/pagination.js";
import { ERROR_CATALOG, type ErrorCode } from "../engine/errors.js";
import type { AppEnv } from "./env.js";
import { sendError, validationError } from "./errors.js";
import { andThen } from "./maybe-promise.js";
import { parseJsonBody } from "./request-body.js";
import { sendJsonText } from "./respond.js";
import { ErrorEnvelopeSchema } from "./schemas.js";

/** A router; `getPath` for the app at the top, the one that routes requests. */
export function createRouter(options: { getPath?: (request: Request) => string } = {}) {
  const router = new OpenAPIHono<AppEnv>({
    ...options,
    defaultHook: (result, c) => {
      if (!result.success) {
        const where = result.target === "json" ? "body" : result.target === "param" ? "path" : result.target === "query" ? "query" : "header";
        return sendError(c, validationError(result.error, where), "validation");
      }
      return undefined;
    },
  });
  const openapi = router.openapi;
  // Two kinds of input are checked here rather than by zod-openapi's validator middlewares, each an
  // async layer with a closure and a promise of its own; the route is still documented from its
  // schemas as usual (registered in full, then mounted hidden without them).
  // - Path parameters that are plain strings cannot be refused: every path segment is one. Their
  //   validator (an async zod parse, about 3 µs of a 30 µs `GET /customers/{id}`) is skipped and
  //   the handler is handed the router's parameters.
  // - A required JSON body is read and parsed in one step (see `parseJsonBody`), with the same
  //   outcomes as the three layers it replaces.
  router.openapi = ((route: RouteConfig & { hide?: boolean }, handler: Handler, hook?: Parameters<typeof openapi>[2]) => {
    const { params, body, ...others } = route.request ?? {};
    const plainParams = params !== undefined && onlyPlainStrings(params);
    const bodySchema = hook === undefined ? requiredJsonSchema(body) : undefined;
    if (!plainParams && !bodySchema) return openapi(route, handler as never, hook);
    const { middleware: _middleware, hide, ...documented } = route;
    if (!hide) router.openAPIRegistry.registerPath(documented);
    const request = { ...others, ...(!plainParams && params && { params }), ...(!bodySchema && body && { body }) };
    const withBody: Handler<AppEnv> = bodySchema
      ? (c, next) => {
          const checked = (result: z.ZodSafeParseResult<unknown>) => {
            if (!result.success) return sendError(c, validationError(result.error, "body"), "validation");
            c.req.addValidatedData("json", result.data as object);
            return handler(c, next);
          };
          return andThen(parseJsonBody(c, bodySchema), checked);
        }
      : handler;
    const passParams: Handler<AppEnv> = plainParams
      ? (c, next) => {
          // The gateway has decoded them already for the operation it names.
          c.req.addValidatedData("param", c.get("operation")?.params ?? c.req.param());
          return withBody(c, next);
        }
      : withBody;
    return openapi({ ...route, hide: true, request }, passParams as never, hook);
  }) as typeof openapi;
  return router;
}

/** The schema of a body that is required and JSON only, given as a zod schema. */
function requiredJsonSchema(body: NonNullable<RouteConfig["request"]>["body"]): z.ZodType | undefined {
  if (!body?.required) return undefined;
  const types = Object.keys(body.content);
  const media = body.content["application/json"];
  const schema = media && "schema" in media ? media.schema : undefined;
  return types.length === 1 && schema instanceof Object && "_zod" in schema ? (schema as z.ZodType) : undefined;
}

/** An object schema whose every field is a string without checks. */
function onlyPlainStrings(schema: unknown): boolean {
  const shape = (schema as { shape?: Record<string, { _zod?: { def: { type: string; checks?: unknown[] } } }> }).shape;
  return shape !== undefined && Object.values(shape).every((field) => field._zod?.def.type === "string" && !field._zod.def.checks?.length);
}

export { API_BASE } from "./base.js";

const RATE_HEADERS = {
  "X-RateLimit-Limit": { description: "Requests allowed per hour", schema: { type: "integer" as const } },
  "X-RateLimit-Remaining": { description: "Requests left in the current hour", schema: { type: "integer" as const } },
};

function errorResponse(codes: ErrorCode[]) {
  const list = codes.map((code) => `\`${code}\``).join(", ");
  return {
    description: `Error envelope: ${list}`,
    // A 401 identifies no shop, so it carries no quota headers.
    ...(!codes.includes("UNAUTHORIZED") && {
      headers: codes.includes("RATE_LIMITED")
        ? { ...RATE_HEADERS, "Retry-After": { description: "Seconds until the quota resets", schema: { type: "integer" as const } } }
        : RATE_HEADERS,
    }),
    content: { "application/json": { schema: ErrorEnvelopeSchema } },
  };
}

/** Outcomes every authenticated API route can have, whatever it does. */
const COMMON_ERRORS = [
  "UNAUTHORIZED",
  "API_ACCESS_DISABLED",
  "PLAN_UPGRADE_REQUIRED",
  "PAYLOAD_TOO_LARGE",
  "VALIDATION_ERROR",
  "RATE_LIMITED",
  "INTERNAL_ERROR",
] as const satisfies readonly ErrorCode[];

type ApiRouteInput = Omit<RouteConfig, "responses"> & {
  success: { description: string; schema: z.ZodType };
  errors?: ErrorCode[];
};

/** The statuses a route's error codes (and those of every API route) are answered with. */
type ErrorStatus<I extends ApiRouteInput> = (typeof ERROR_CATALOG)[(I extends { errors: (infer C extends ErrorCode)[] } ? C : never) | (typeof COMMON_ERRORS)[number]]["status"];

type JsonResponse<S extends z.ZodType> = { description: string; content: { "application/json": { schema: S } } };

/**
 * The route config as its type: the success and every error status with the envelope, as the
 * document lists them, so `RouteConfigToTypedResponse` (and hono/client) know each answer.
 */
export type ApiRoute<I extends ApiRouteInput> = Omit<I, "success" | "errors"> & {
  responses: { 200: JsonResponse<I["success"]["schema"]> } & { [S in ErrorStatus<I>]: JsonResponse<typeof ErrorEnvelopeSchema> };
} & { getRoutingPath(): string };

/**
 * An authenticated API route with its success response and every error status it can return:
 * the route's own domain errors plus those every API route can meet. Handlers only ever return
 * the success; errors are thrown and written by the app's error handler.
 */
export function apiRoute<const I extends ApiRouteInput>(input: I): ApiRoute<I> {
  const { success, errors = [], ...rest } = input;
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...errors, ...COMMON_ERRORS]) {
    const status = ERROR_CATALOG[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<number, unknown> = {
    200: {
      description: success.description,
      headers: RATE_HEADERS,
      content: { "application/json": { schema: success.schema } },
    },
  };
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) responses[status] = errorResponse(codes);
  // Built from the catalog at run time; `ApiRoute<I>` says the same from the catalog's literal types.
  return createRoute({ ...rest, security: [{ ApiKey: [], ApiSecret: [] }], responses } as RouteConfig) as unknown as ApiRoute<I>;
}

/** A success envelope with the engine's time. */
// Spelled out (and cast to) because TypeScript cannot relate hono's JSONParsed of a generic T to
// itself, and would otherwise infer a type too large to write into the .d.ts files.
type Json<B> = Response & TypedResponse<JSONParsed<B>, 200, "json">;

/** With a JsonView (a customer the engine keeps), its kept text is sent. */
export function ok<T>(c: Context<AppEnv>, data: JsonView<T>): Json<{ success: true; data: T; timestamp: string }>;
export function ok<T>(c: Context<AppEnv>, data: T): Json<{ success: true; data: T; timestamp: string }>;
export function ok(c: Context<AppEnv>, data: unknown): Response {
  return sendEnvelope(c, data);
}

/** A small reference list, returned whole with `meta.count`. */
export function okList<T>(c: Context<AppEnv>, items: T[]): Json<{ success: true; data: T[]; meta: { count: number }; timestamp: string }> {
  return sendEnvelope(c, items, { count: items.length }) as never;
}

/** A cursor-paginated page with `meta.pagination`. */
export function okPage<T>(
  c: Context<AppEnv>,
  page: Page<T>,
): Json<{ success: true; data: T[]; meta: { pagination: Page<T>["pagination"] }; timestamp: string }> {
  return sendEnvelope(c, page.items, { pagination: page.pagination }) as never;
}

/** `{ success: true, data, meta, timestamp }` as JSON, written out piece by piece so that a JsonView brings its kept text. */
function sendEnvelope(c: Context<AppEnv>, data: unknown, meta?: object): Response {
  const dataText = data instanceof JsonView ? data.text : JSON.stringify(data);
  const text = `{"success":true${dataText === undefined ? "" : `,"data":${dataText}`}${meta ? `,"meta":${JSON.stringify(meta)}` : ""},"timestamp":"${isoTimestamp(c.get("clock").now())}"}`;
  return sendJsonText(c, text, 200);
}
