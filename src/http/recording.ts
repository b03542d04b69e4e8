/**
 * The outermost API middleware: names the operation a request is for, and writes what happened
 * to the journal once the response (or fault) is known.
 * @module
 */
import type { MiddlewareHandler } from "hono";
import type { Engine } from "../engine/engine.js";
import { isoTimestamp } from "../engine/clock.js";
import type { Journal } from "../journal.js";
import type { OperationTable } from "../scenarios/operations.js";
import type { AppEnv } from "./env.js";

/** What the request log shows of a request. */
export interface RequestLogLine {
  method: string;
  path: string;
  status: number | null;
  fault: string | null;
  ms: number;
  scenario: string | null;
  requestId: string | null;
}

export function recordRequests(
  engine: Engine,
  journal: Journal,
  operations: () => OperationTable,
  onRequest?: (line: RequestLogLine) => void,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const at = engine.clock.now();
    const operation = operations().resolve(c.req.method, c.req.path);
    if (operation) c.set("operation", operation);
    await next();
    const res = c.res;
    const fault = c.get("fault") ?? null;
    const durationMs = Math.round((performance.now() - started) * 100) / 100;
    const decision = c.get("decision");
    onRequest?.({
      method: c.req.method,
      path: c.req.path,
      status: fault && fault !== "malformed_json" ? null : res.status,
      fault,
      ms: durationMs,
      scenario: decision ? `${decision.scenario}#${decision.rule}` : null,
      requestId: c.get("requestId"),
    });
    if (journal.capacity === 0) return;
    const hasBody = c.req.method !== "GET" && c.req.method !== "HEAD";
    const requestText = hasBody ? await c.req.text().catch(() => "") : "";
    // Responses written by the app leave their text behind (see http/respond.ts); only a response
    // made elsewhere has to be cloned and read.
    const responseText = fault && fault !== "malformed_json" ? "" : (c.get("responseText") ?? (await res.clone().text()));
    const customerId = operation?.template.startsWith("/rest_api/v1/customers/{id}") ? (operation.params.id ?? null) : null;
    journal.add({
      at: isoTimestamp(at),
      // Set by the credentials check only when both headers were right.
      shopId: c.get("shop")?.id ?? null,
      method: c.req.method,
      path: c.req.path,
      operation: operation?.operationId ?? null,
      customerId,
      query: c.req.query(),
      request: { text: requestText, type: c.req.header("Content-Type") ?? null },
      status: fault && fault !== "malformed_json" ? null : res.status,
      fault,
      // sendJson's answers are JSON; reading `res.headers` would make the Node adapter rebuild them.
      response: { text: responseText, type: c.get("outHeadersSent") ? "application/json" : res.headers.get("Content-Type") },
      durationMs,
      scenario: decision ?? null,
    });
  };
}
