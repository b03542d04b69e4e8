/**
 * What a request's way through the gateway leaves behind, as plain types: what decided it, the
 * notes for its "why" trace, its GraphQL operation, the fields it was refused for. The modules that
 * fill them and the journal that keeps them both import from here.
 * @module
 */
import type { FieldProblem, RefusalReason } from "../engine/errors.js";

/**
 * What decided a request's answer: the route's handler (also its own domain errors, and the 404
 * of a path no route has), a scenario rule, the `Prefer` header, the hourly quota (429), the
 * credentials check (401, or 403 for API access and plan), the body limit (413), or the request's
 * shape (422 before the handler: a body that is not JSON or breaks the schema, a bad `Prefer`).
 */
export const DECIDERS = ["handler", "scenario", "prefer", "quota", "credentials", "bodyLimit", "validation"] as const;
export type DecidedBy = (typeof DECIDERS)[number];

/** A scenario rule, as a request and the journal name it. */
export interface ScenarioRef {
  scenario: string;
  rule: number;
  ruleName?: string;
}

/** What a GraphQL request ran: its operation and each root field, with its REST twin and the code it ended with. */
export interface GraphQLFacts {
  operationType: "query" | "mutation";
  operationName: string | null;
  fields: { field: string; alias: string | null; operation: string; customerId: string | null; error: string | null }[];
}

/** A rule that matched (or was spent) but did not decide, and why. */
export type RuleSkip =
  | { scenario: string; rule: number; skipped: "spent"; times: number }
  | { scenario: string; rule: number; skipped: "after"; after: number; matches: number }
  | { scenario: string; rule: number; skipped: "probability"; probability: number; draw: number };

export interface DecisionNotes {
  reason?: RefusalReason;
  skips?: RuleSkip[];
  /** The hourly quota's limit and requests left, when a forced answer or a scenario's limiter sent its own X-RateLimit-* headers. */
  quota?: { limit: number; remaining: number };
}

/** Where a request carries a field. */
export type RequestLocation = "body" | "query" | "path" | "header";

/** One refused field, placed in the request: what the envelope's `details` list. */
export interface FieldIssue extends FieldProblem {
  in: RequestLocation;
}
