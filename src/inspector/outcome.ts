/**
 * What went wrong in a journal entry, as the list's Error column and the Errors page count it:
 * a REST answer's error code, a fault, or the codes of a GraphQL answer's failed fields (a
 * GraphQL refusal is a 200 whose error is inside its body).
 * @module
 */
import type { JournalEntry } from "../control/control.schemas.js";
import { graphqlOutcome } from "../control/graphql-failures.js";

/** The error envelope's code of an answer, if it is one. */
function envelopeCode(entry: JournalEntry): string | undefined {
  const body = entry.responseBody as { error?: { code?: unknown } } | null;
  return typeof body?.error?.code === "string" ? body.error.code : undefined;
}

/** The Error column: REST's code, or the codes of the GraphQL fields that failed, "partial" when others answered. */
export function errorLabel(entry: JournalEntry): string {
  const outcome = graphqlOutcome(entry);
  if (!outcome || outcome.failed.length === 0) return envelopeCode(entry) ?? "";
  const codes = [...new Set(outcome.failed.map((f) => f.code))].join(", ");
  return outcome.partial ? `${codes} (partial)` : codes;
}

/** Each error the Errors page counts for an entry, with the operation it counts under (a GraphQL field's REST twin). */
export function errorsOf(entry: JournalEntry): { code: string; operation: string }[] {
  const failed = graphqlOutcome(entry)?.failed.filter((f) => f.code !== "NOT_RUN") ?? [];
  if (failed.length > 0) return failed.map((f) => ({ code: f.code, operation: f.operation }));
  const code = envelopeCode(entry) ?? (entry.fault !== null ? `fault ${entry.fault}` : undefined);
  return code === undefined ? [] : [{ code, operation: entry.operation ?? entry.path }];
}
