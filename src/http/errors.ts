/**
 * Errors as HTTP answers, in one place: each code's status, where a refused field sits in the
 * request, and the envelope every failure is written in (domain errors, refused input, unknown
 * routes and bugs).
 * @module
 */
import { z, type RouteConfig } from "@hono/zod-openapi";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { isoTimestamp } from "../engine/clock.js";
import { DomainError, ERROR_CODES, ERROR_MESSAGES, type ErrorCode, type FieldProblem } from "../engine/errors.js";
import type { DecidedBy, FieldIssue, RequestLocation } from "./facts.js";

export type { FieldIssue, RequestLocation } from "./facts.js";
import { topField, zodIssues } from "../zod-issues.js";
import type { ErrorWriter, Exchange } from "./exchange.js";
import type { MountedRoute } from "./operation.js";
import { noteReason } from "./journal/notes.js";
import { sendJson } from "./respond.js";

/** Each code's status, as production answers it (see upstream-facts.md). */
export const ERROR_STATUS = {
  UNAUTHORIZED: 401,
  API_ACCESS_DISABLED: 403,
  PLAN_UPGRADE_REQUIRED: 403,
  NOT_FOUND: 404,
  CUSTOMER_NOT_FOUND: 404,
  TIER_NOT_FOUND: 404,
  REWARD_CODE_NOT_FOUND: 404,
  EARN_RULE_NOT_FOUND: 404,
  REWARD_NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  VALIDATION_ERROR: 422,
  VOID_FAILED: 422,
  ACTIVITY_NOT_AWARDED: 422,
  INSUFFICIENT_STAMPS: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
} as const satisfies Record<ErrorCode, ContentfulStatusCode>;

/** Each code with its status and default message. */
export const ERROR_CATALOG = Object.fromEntries(ERROR_CODES.map((code) => [code, { status: ERROR_STATUS[code], message: ERROR_MESSAGES[code] }])) as {
  [K in ErrorCode]: { status: (typeof ERROR_STATUS)[K]; message: (typeof ERROR_MESSAGES)[K] };
};

/**
 * Codes only the simulator's control API answers. Production never does, so they are no domain
 * errors: neither a scenario nor a `Prefer` header can force them on the API.
 */
export const CONTROL_ERROR_CATALOG = {
  FORBIDDEN: { status: 403, message: "The control API does not answer this caller" },
} as const;

export type ControlErrorCode = keyof typeof CONTROL_ERROR_CATALOG;


export function errorBody(code: ErrorCode | ControlErrorCode, status: number, message: string, now: number, details?: FieldIssue[]) {
  return {
    success: false as const,
    error: { message, code, statusCode: status, ...(details && { details }) },
    timestamp: isoTimestamp(now),
  };
}

/** A VALIDATION_ERROR about one field, `where` the request carries it; `summary` is the error's own message. */
export function invalidInput(where: RequestLocation, path: string, message: string, summary?: string): DomainError {
  const issue: FieldIssue = { in: where, path, message };
  return new DomainError("VALIDATION_ERROR", summary, [issue]);
}

/** zod issues of the request's input (`where` it came from), as field details; a missing field "is required". */
export function fieldIssues(error: z.ZodError, where: RequestLocation): FieldIssue[] {
  return zodIssues(error.issues, { missing: "is required" }).map((issue) => ({ in: where, ...issue }));
}

export function validationError(error: z.ZodError, where: RequestLocation): DomainError {
  return new DomainError("VALIDATION_ERROR", undefined, fieldIssues(error, where));
}

/** The part of `request` whose schema has the field at the top of `path`; the body when none does. */
function locate(request: RouteConfig["request"], path: string): RequestLocation {
  const field = topField(path);
  const media = request?.body?.content["application/json"];
  const parts: [RequestLocation, unknown][] = [
    ["body", media && "schema" in media ? media.schema : undefined],
    ["query", request?.query],
    ["path", request?.params],
    ["header", request?.headers],
  ];
  for (const [where, schema] of parts) if (schema instanceof z.ZodObject && Object.hasOwn(schema.shape, field)) return where;
  return "body";
}

/** The fields of `details` placed in the request: the engine names fields, the route says where they are. */
function placed(details: readonly FieldProblem[], route: MountedRoute | undefined): FieldIssue[] {
  return details.map((d) => ("in" in d ? (d as FieldIssue) : { in: locate(route?.request, d.path), path: d.path, message: d.message }));
}

/** The REST error envelope: how refusals are written unless the route's side of the gateway says otherwise (GraphQL's). */
export const writeEnvelope: ErrorWriter = (exchange, error, status, details) =>
  sendJson(exchange, errorBody(error.code, status, error.message, exchange.clock.now(), details), status as ContentfulStatusCode);

/** The error's answer, in the request's error shape; `decidedBy` names, for the journal, what answered when it was not the handler. */
export function sendError(exchange: Exchange, error: DomainError, decidedBy?: DecidedBy): Response {
  if (decidedBy !== undefined) exchange.decidedBy = decidedBy;
  exchange.errorCode = error.code;
  if (error.reason !== undefined) noteReason(exchange, error.reason);
  const status = ERROR_STATUS[error.code];
  const details = error.details && placed(error.details, exchange.route);
  return exchange.writeError(exchange, error, status, details);
}

/** A refusal only the control API answers. */
export function sendControlError(exchange: Exchange, code: ControlErrorCode, message: string): Response {
  const { status } = CONTROL_ERROR_CATALOG[code];
  return sendJson(exchange, errorBody(code, status, message, exchange.clock.now()), status);
}

/** Writes every failure in the request's error shape; anything but a DomainError is a bug (`onBug`), a 500. */
export function answerError(error: unknown, exchange: Exchange, onBug?: (error: unknown) => void): Response {
  if (error instanceof DomainError) return sendError(exchange, error);
  onBug?.(error);
  return sendError(exchange, new DomainError("INTERNAL_ERROR"));
}

/** The answer to a request no route has. */
export function sendNoRoute(exchange: Exchange): Response {
  const { req } = exchange.c;
  return sendError(exchange, new DomainError("NOT_FOUND", `No route for ${req.method} ${req.path}`));
}
