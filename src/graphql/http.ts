/**
 * GraphQL over HTTP (the 2024 text that graphql-http 1.23 implements and audits) as plain
 * functions of the request's method, headers and body text: no server, no gateway. A request goes
 * through four steps, which the `/graphql` route (app/graphql-route.ts) calls one by one to act
 * between them (scenario rules need the prepared operation): `readRequest`, `prepareRequest`,
 * `executePrepared` (execute.ts), `writeResult`.
 * Execution stays synchronous unless a resolver waits.
 * @module
 */
import type { ExecutionResult, GraphQLError } from "graphql";
import { jsonTextTooDeep, MAX_JSON_DEPTH } from "../http/json-depth.js";
import { REST_TWINS, type OperationId, type RootField } from "../contract/index.js";
import { customerIdOf } from "../contract/twin-request.js";
import type { DocumentCache } from "./documents.js";
import { prepareOperation, type PreparedOperation } from "./operation.js";
import { GRAPHQL_RESPONSE, JSON_MEDIA, negotiate, type MediaType } from "./media.js";

export { GRAPHQL_RESPONSE, JSON_MEDIA, negotiate, refusalResponse, wantsGraphiQL, type MediaType } from "./media.js";

export interface GraphQLHttpRequest {
  method: string;
  /** The `Content-Type` and `Accept` headers, as sent. */
  contentType?: string | undefined;
  accept?: string | undefined;
  bodyText?: string | undefined;
}

/** What one root field did, for the journal and the request log. */
export interface FieldRecord {
  field: RootField;
  alias: string | null;
  /** The REST twin's operationId. */
  operation: OperationId;
  customerId: string | null;
  /** The code (or graphql-js message) of the field's first error, its value's fields' included; NOT_RUN; null when it did not fail. */
  error: string | null;
}

export interface OperationRecord {
  operationType: "query" | "mutation";
  operationName: string | null;
  fields: FieldRecord[];
}

export interface GraphQLHttpResponse {
  status: number;
  headers: Record<string, string>;
  /** JSON text. */
  body: string;
  /** The operation that ran; null when the request was refused before one was known. */
  graphql: OperationRecord | null;
}

/** The request's parameters, checked (GraphQL over HTTP, "Request Parameters"). */
export interface GraphQLParams {
  query: string;
  operationName: string | null;
  variables: Record<string, unknown> | null;
}

function respond(status: number, media: MediaType, body: object, graphql: OperationRecord | null = null, headers: Record<string, string> = {}): GraphQLHttpResponse {
  return { status, headers: { "Content-Type": `${media}; charset=utf-8`, ...headers }, body: JSON.stringify(body), graphql };
}

const GET_CLIENTS_HINT = " A client that sends queries as GET must be set to POST: urql's `preferGetMethod: false`, Apollo's `useGETForQueries: false`.";

/** A refusal of the HTTP request itself (method, media types, body): a descriptive message. */
function refuse(status: number, media: MediaType, message: string, headers?: Record<string, string>): { response: GraphQLHttpResponse } {
  return { response: respond(status, media, { errors: [{ message }] }, null, headers) };
}

/** GraphQL's own refusal (syntax, validation, operation, variables, caps): 400, or 200 for plain JSON clients. */
function requestErrors(media: MediaType, errors: readonly GraphQLError[]): { response: GraphQLHttpResponse } {
  return { response: respond(media === GRAPHQL_RESPONSE ? 400 : 200, media, { errors }) };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Step 1: the method, the media types and the body, down to the parameters. */
export function readRequest(request: GraphQLHttpRequest): { response: GraphQLHttpResponse; params?: undefined } | { params: GraphQLParams; media: MediaType; response?: undefined } {
  const accepted = negotiate(request.accept);
  const media = accepted ?? JSON_MEDIA;
  if (request.method !== "POST") {
    // GET serves GraphiQL only (to a browser, by Accept): a GET or HEAD refused here is told POST alone.
    const overGet = request.method === "GET" || request.method === "HEAD";
    // A client that sends queries as GET by default (urql) meets this on every query: say how to switch it.
    const message = `GraphQL operations are sent with POST (GET /graphql serves GraphiQL to a browser).${overGet ? GET_CLIENTS_HINT : ""}`;
    return refuse(405, media, message, { Allow: overGet ? "POST" : "GET, POST" });
  }
  if (accepted === undefined) return refuse(406, media, `Accept must allow ${GRAPHQL_RESPONSE} or ${JSON_MEDIA}.`);
  const type = request.contentType?.split(";")[0]?.trim().toLowerCase();
  if (type !== JSON_MEDIA) return refuse(415, media, `Content-Type must be ${JSON_MEDIA}.`);
  const text = request.bodyText ?? "";
  if (text.trim() === "") return refuse(400, media, "The body is empty: send a JSON object with the `query`.");
  if (jsonTextTooDeep(text)) return refuse(400, media, `The body nests deeper than ${MAX_JSON_DEPTH} levels.`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refuse(400, media, "The body is not valid JSON.");
  }
  if (Array.isArray(body)) return refuse(400, media, "Batched operations (a JSON array) are not supported: send one JSON object per request.");
  if (!isObject(body)) return refuse(400, media, "The body must be a JSON object with the `query`.");
  const { query, operationName, variables, extensions } = body;
  if (typeof query !== "string") return refuse(400, media, "`query` must be a string: the GraphQL document.");
  if (operationName != null && typeof operationName !== "string") return refuse(400, media, "`operationName` must be a string or null.");
  if (variables != null && !isObject(variables)) return refuse(400, media, "`variables` must be an object or null.");
  if (extensions != null && !isObject(extensions)) return refuse(400, media, "`extensions` must be an object or null.");
  return { params: { query, operationName: operationName ?? null, variables: variables ?? null }, media };
}

/** Step 2: the document (parsed and validated, or cached), the operation, its variables and root fields. */
export function prepareRequest(
  params: GraphQLParams,
  media: MediaType,
  cache: DocumentCache,
): { response: GraphQLHttpResponse; prepared?: undefined } | { prepared: PreparedOperation; response?: undefined } {
  const compiled = cache.compile(params.query);
  if (compiled.errors) return requestErrors(media, compiled.errors);
  const { prepared, errors } = prepareOperation(compiled.document, params.operationName, params.variables, cache);
  return errors ? requestErrors(media, errors) : { prepared };
}

/** What a root field of a mutation is journaled with when it never ran: graphql-js stops at a non-null one that failed. */
export const NOT_RUN = "NOT_RUN";

/**
 * The root fields of a prepared operation with the code each ended with: the first error anywhere
 * in the field (a field of its value that could not be written counts), or NOT_RUN.
 */
export function operationRecord(prepared: PreparedOperation, result?: ExecutionResult): OperationRecord {
  const failed = new Map<string, string>();
  for (const error of result?.errors ?? []) {
    const key = error.path?.[0];
    if (typeof key === "string" && !failed.has(key)) failed.set(key, error.message);
  }
  // A mutation whose data is null stopped at its last failed field: the ones after it never ran.
  let stoppedAt = prepared.rootFields.length;
  if (prepared.operationType === "mutation" && result?.data === null) {
    const last = prepared.rootFields.findLastIndex(({ responseKey }) => failed.has(responseKey));
    if (last >= 0) stoppedAt = last;
  }
  return {
    operationType: prepared.operationType,
    operationName: prepared.operationName,
    fields: prepared.rootFields.map(({ field, alias, responseKey, args }, index) => ({
      field,
      alias,
      operation: REST_TWINS[field].operation,
      customerId: customerIdOf(field, args) ?? null,
      error: index > stoppedAt ? NOT_RUN : (failed.get(responseKey) ?? null),
    })),
  };
}

/** Step 4: `{ data, errors }` (data first, as production's examples write it), always 200. */
export function writeResult(prepared: PreparedOperation, media: MediaType, result: ExecutionResult): GraphQLHttpResponse {
  const body = result.errors && result.errors.length > 0 ? { data: result.data ?? null, errors: result.errors } : { data: result.data ?? null };
  return respond(200, media, body, operationRecord(prepared, result));
}
