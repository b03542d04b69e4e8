/**
 * What a read-only run may send: a GET to the REST API, or a POST to GraphQL whose document holds
 * query operations only. Anything else is a bug in verify, refused before it leaves.
 * @module
 */
import { API_BASE, GRAPHQL_PATH } from "../http/base.js";
import type { VerifyRequest } from "./request.js";

/** A request a read-only run was about to send: a bug in verify, never sent. */
export class ReadOnlyViolation extends Error {
  override readonly name = "ReadOnlyViolation";
}

export async function assertReadOnly(request: VerifyRequest): Promise<void> {
  const path = request.path.split("?")[0]!;
  if (request.method === "GET" && (path === API_BASE || path.startsWith(`${API_BASE}/`))) return;
  if (request.method === "POST" && path === GRAPHQL_PATH) {
    const why = await notOnlyQueries(request.body);
    if (why === undefined) return;
    throw new ReadOnlyViolation(`loyalty-sim verify tried to send POST ${GRAPHQL_PATH} with ${why} in read mode: a bug in verify; nothing was sent`);
  }
  throw new ReadOnlyViolation(`loyalty-sim verify tried to send ${request.method} ${path} in read mode: a bug in verify; nothing was sent`);
}

/** Undefined when the body's document is query operations only; else what it holds. */
async function notOnlyQueries(body: unknown): Promise<string | undefined> {
  const query = (body as { query?: unknown } | undefined)?.query;
  if (typeof query !== "string") return "no GraphQL document";
  // graphql-js is loaded only by a run that sends GraphQL: importing loyalty-sim stays light.
  const { parse, Kind } = await import("graphql");
  let operations: string[];
  try {
    operations = parse(query).definitions.flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION ? [d.operation] : []));
  } catch {
    return "a document that does not parse";
  }
  if (operations.length === 0) return "a document with no operation";
  const other = operations.find((op) => op !== "query");
  return other === undefined ? undefined : `a ${other} operation`;
}
