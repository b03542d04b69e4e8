/**
 * The error envelope, written in one place for every failure: domain errors, validation
 * failures, unknown routes and bugs.
 * @module
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ZodError } from "zod";
import { isoTimestamp } from "../engine/clock.js";
import { DomainError, ERROR_CATALOG, type ControlErrorCode, type ErrorCode, type FieldIssue } from "../engine/errors.js";
import type { AppEnv, DecidedBy } from "./env.js";
import { sendJson } from "./respond.js";

export function errorBody(code: ErrorCode | ControlErrorCode, status: number, message: string, now: number, details?: FieldIssue[]) {
  return {
    success: false as const,
    error: { message, code, statusCode: status, ...(details && { details }) },
    timestamp: isoTimestamp(now),
  };
}

/** The error's envelope; `decidedBy` names, for the journal, what answered when it was not the handler. */
export function sendError(c: Context<AppEnv>, error: DomainError, decidedBy?: DecidedBy): Response {
  if (decidedBy !== undefined) c.set("decidedBy", decidedBy);
  const body = errorBody(error.code, error.status, error.message, c.get("clock").now(), error.details);
  return sendJson(c, body, error.status as ContentfulStatusCode);
}

/** Writes every failure in the error envelope; anything but a DomainError is a bug (`onBug`), a 500. */
export function answerError(error: unknown, c: Context<AppEnv>, onBug?: (error: unknown) => void): Response {
  if (error instanceof DomainError) return sendError(c, error);
  onBug?.(error);
  return sendError(c, new DomainError("INTERNAL_ERROR"));
}

/** The answer to a request no route has. */
export function sendNoRoute(c: Context<AppEnv>): Response {
  return sendError(c, new DomainError("NOT_FOUND", `No route for ${c.req.method} ${c.req.path}`));
}

/** zod issues as field details; "received undefined" becomes the plainer "is required". */
export function zodDetails(error: ZodError, where: FieldIssue["in"]): FieldIssue[] {
  return error.issues.map((issue) => {
    const path = issue.path.map((p) => (typeof p === "number" ? `[${p}]` : String(p))).join(".").replace(/\.\[/g, "[");
    const missing = issue.code === "invalid_type" && /received undefined/.test(issue.message);
    return { in: where, path: path || "(root)", message: missing ? "is required" : issue.message };
  });
}

export function validationError(error: ZodError, where: FieldIssue["in"]): DomainError {
  return new DomainError("VALIDATION_ERROR", ERROR_CATALOG.VALIDATION_ERROR.message, zodDetails(error, where));
}
