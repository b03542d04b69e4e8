/**
 * A GraphQL answer's root fields that failed, read from its journal entry: the code each ended
 * with (the journal's `graphql.fields[].error`) and the engine's message (`extensions.reason` of
 * its error), and whether other fields answered (a partial answer). The why trace and the
 * inspector's list, Errors page and rule both read them from here.
 * @module
 */
import type { JournalEntry } from "../http/journal/record.js";

export interface FieldFailure {
  /** The root field, and the key it answered under (its alias, else its name). */
  field: string;
  key: string;
  /** The REST twin's operationId. */
  operation: string;
  customerId: string | null;
  code: string;
  message: string;
}

export interface GraphQLOutcome {
  /** The fields that failed, in the operation's order (`NOT_RUN` ones, after a failed mutation, included). */
  failed: FieldFailure[];
  /** Some fields answered while others failed. */
  partial: boolean;
}

interface ErrorShape {
  message?: unknown;
  path?: unknown[];
  extensions?: { reason?: unknown };
}

/** The outcome of a GraphQL entry whose operation ran; undefined for REST and for a request refused before it. */
export function graphqlOutcome(e: Pick<JournalEntry, "graphql" | "responseBody">): GraphQLOutcome | undefined {
  if (e.graphql === null) return undefined;
  const errors = ((e.responseBody as { errors?: ErrorShape[] } | null)?.errors ?? []) as ErrorShape[];
  const failed: FieldFailure[] = [];
  for (const f of e.graphql.fields) {
    if (f.error === null) continue;
    const key = f.alias ?? f.field;
    const error = errors.find((x) => Array.isArray(x.path) && x.path[0] === key);
    const reason = error?.extensions?.reason;
    const message = typeof reason === "string" ? reason : typeof error?.message === "string" ? error.message : f.error;
    failed.push({ field: f.field, key, operation: f.operation, customerId: f.customerId, code: f.error, message });
  }
  return { failed, partial: failed.length > 0 && failed.length < e.graphql.fields.length };
}

/** The first failure that ran (a `NOT_RUN` field only follows one). */
export const firstFailure = (outcome: GraphQLOutcome | undefined): FieldFailure | undefined => outcome?.failed.find((f) => f.code !== "NOT_RUN");
