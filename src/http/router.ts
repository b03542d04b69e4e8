/**
 * Routers, API route contracts with their complete list of outcomes, and the success envelopes
 * handlers answer with.
 * @module
 */
import { OpenAPIHono, createRoute, type RouteConfig } from "@hono/zod-openapi";
import type { TypedResponse } from "hono";
import type { JSONParsed } from "hono/utils/types";
import type { z } from "@hono/zod-openapi";
import { isoTimestamp } from "../engine/clock.js";
import { JsonView } from "../engine/json-view.js";
import type { Page } from "../engine/pagination.js";
import type { ErrorCode } from "../engine/errors.js";
import type { AppEnv } from "./env.js";
import { ERROR_STATUS } from "./errors.js";
import type { Exchange } from "./exchange.js";
import { sendJsonText } from "./respond.js";
import { ErrorEnvelopeSchema } from "./schemas.js";

/** A router; `getPath` for the app at the top, the one that routes requests. Routes are added through a `Mount`. */
export function createRouter(options: { getPath?: (request: Request) => string } = {}) {
  return new OpenAPIHono<AppEnv>(options);
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
type ErrorStatus<I extends ApiRouteInput> = (typeof ERROR_STATUS)[(I extends { errors: (infer C extends ErrorCode)[] } ? C : never) | (typeof COMMON_ERRORS)[number]];

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
    const status = ERROR_STATUS[code];
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
export function ok<T>(exchange: Exchange, data: JsonView<T>): Json<{ success: true; data: T; timestamp: string }>;
export function ok<T>(exchange: Exchange, data: T): Json<{ success: true; data: T; timestamp: string }>;
export function ok(exchange: Exchange, data: unknown): Response {
  return sendEnvelope(exchange, data);
}

/** A small reference list, returned whole with `meta.count`. */
export function okList<T>(exchange: Exchange, items: T[]): Json<{ success: true; data: T[]; meta: { count: number }; timestamp: string }> {
  return sendEnvelope(exchange, items, { count: items.length }) as never;
}

/** A cursor-paginated page with `meta.pagination`. */
export function okPage<T>(
  exchange: Exchange,
  page: Page<T>,
): Json<{ success: true; data: T[]; meta: { pagination: Page<T>["pagination"] }; timestamp: string }> {
  return sendEnvelope(exchange, page.items, { pagination: page.pagination }) as never;
}

/** `{ success: true, data, meta, timestamp }` as JSON, written out piece by piece so that a JsonView brings its kept text. */
function sendEnvelope(exchange: Exchange, data: unknown, meta?: object): Response {
  const dataText = data instanceof JsonView ? data.text : JSON.stringify(data);
  const text = `{"success":true${dataText === undefined ? "" : `,"data":${dataText}`}${meta ? `,"meta":${JSON.stringify(meta)}` : ""},"timestamp":"${isoTimestamp(exchange.clock.now())}"}`;
  return sendJsonText(exchange, text, 200);
}
