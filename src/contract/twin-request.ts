/**
 * The REST request a GraphQL root field stands for: its arguments put where its twin takes them,
 * cursors in REST's form. Scenario rules for the REST operation are matched against it, and the
 * GraphQL resolver checks it with the twin's schemas and runs the twin's engine call on it.
 * @module
 */
import { restCursorOf } from "./cursors.js";
import { REST_TWINS, type OperationId, type RestTwin, type RootField } from "./index.js";

/** The twin's input as sent, before its checks: path parameters and query as text, the JSON body in REST's names. */
export interface TwinInput {
  params: Record<string, string>;
  /** Query parameters as strings, cursors in REST's form (a text that is no GraphQL cursor is kept as sent). */
  query: Record<string, string>;
  /** Absent arguments left out, record ids of digits as integers; undefined when the twin takes no body. */
  body?: Record<string, unknown>;
}

/** The REST request a root field stands for: what a scenario rule for its twin is matched against. */
export interface RestTwinRequest extends TwinInput {
  operation: OperationId;
  method: RestTwin["method"];
  /** The twin's path with its ids filled in, below the API base. */
  path: string;
  customerId?: string;
}

/** An argument's value by its path (`input.birthdayDay`); null and absent are both undefined. */
export function argumentValue(args: Readonly<Record<string, unknown>>, argPath: string): unknown {
  let value: unknown = args;
  for (const key of argPath.split(".")) value = value === null || typeof value !== "object" ? undefined : (value as Record<string, unknown>)[key];
  return value ?? undefined;
}

/** A record id as REST bodies carry it: an integer when it is one, else the text as sent. */
function restRecordId(id: string): number | string {
  return /^(0|[1-9]\d*)$/.test(id) && Number.isSafeInteger(Number(id)) ? Number(id) : id;
}

export function twinInput(field: RootField, args: Readonly<Record<string, unknown>>): TwinInput {
  const twin = REST_TWINS[field];
  const params: Record<string, string> = {};
  const query: Record<string, string> = {};
  let body: Record<string, unknown> | undefined;
  for (const [argPath, to] of Object.entries(twin.args)) {
    if (to.in === "body") body ??= {};
    const value = argumentValue(args, argPath);
    if (value === undefined) continue;
    const text = String(value);
    if (to.in === "path") params[to.name] = text;
    else if (to.in === "query") query[to.name] = (to.cursor && restCursorOf(text)) || text;
    else body![to.name] = to.recordId ? restRecordId(text) : value;
  }
  return { params, query, ...(body !== undefined && { body }) };
}

/** The customer a root field is about: the argument that fills its twin's `/customers/{id}`. */
export function customerIdOf(field: RootField, args: Readonly<Record<string, unknown>>): string | undefined {
  const twin = REST_TWINS[field];
  if (!twin.path.startsWith("/customers/{id}")) return undefined;
  const argPath = Object.keys(twin.args).find((key) => twin.args[key]!.in === "path" && twin.args[key]!.name === "id");
  const value = argPath === undefined ? undefined : argumentValue(args, argPath);
  return value === undefined ? undefined : String(value);
}

export function restTwinRequest(field: RootField, args: Readonly<Record<string, unknown>>): RestTwinRequest {
  const twin = REST_TWINS[field];
  const { params, query, body } = twinInput(field, args);
  const filled = twin.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
  const customerId = customerIdOf(field, args);
  return {
    operation: twin.operation,
    method: twin.method,
    path: filled,
    params,
    query,
    ...(body !== undefined && { body }),
    ...(customerId !== undefined && { customerId }),
  };
}
