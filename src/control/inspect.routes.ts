/**
 * Route contracts of the control API's reads for the inspector and test authors: the "why" trace
 * of a journal entry, customers, the shop's upcoming time-based events, the journal as HAR, the
 * events stream and marks.
 * @module
 */
import { z } from "@hono/zod-openapi";
import { pathParams } from "../http/params.js";
import { bug, controlRoute, json } from "./control.routes.js";
import { controlError, RequestIdParam, RequestsQuerySchema, ShopKeyHeader } from "./control.schemas.js";
import {
  CustomerDetailQuery,
  CustomerDetailSchema,
  CustomerSearchQuery,
  CustomerSearchSchema,
  ShopQuery,
  UpcomingQuery,
  UpcomingSchema,
} from "./inspect.schemas.js";
import { WhyTraceSchema } from "./why.schemas.js";

const invalid = controlError("`VALIDATION_ERROR`: bad input, or a `shop` or X-Api-Key that names no shop");

export const simWhyRequest = controlRoute({
  method: "get",
  path: "/__sim/requests/{id}/why",
  operationId: "simWhyRequest",
  summary: "Why one request got its answer",
  description:
    "The chain that decided the answer of one journal entry: credentials, quota, body check, `Prefer`, each active scenario rule in order (the first `match` field that ruled it out, or the condition that skipped it: `times` spent, `after`, the probability draw), validation, the handler, and the engine's own reason for a refusal (`reason`: balance and price, the earn rule's window, the removed or merged state, a used code).",
  request: { headers: ShopKeyHeader, params: RequestIdParam, query: ShopQuery },
  responses: { 200: json(WhyTraceSchema, "The trace"), 404: controlError("`NOT_FOUND`: no such entry for this shop"), 422: invalid, 500: bug },
});

export const simSearchCustomers = controlRoute({
  method: "get",
  path: "/__sim/customers",
  operationId: "simSearchCustomers",
  summary: "Find customers",
  description: "The shop's customers whose id, email or name holds `q`, with balance and tier, without the shop's secret and outside the quota and the journal. Expiry settles on read, as the API's reads do.",
  request: { headers: ShopKeyHeader, query: CustomerSearchQuery },
  responses: { 200: json(CustomerSearchSchema, "A page of customers"), 422: invalid, 500: bug },
});

export const simGetCustomer = controlRoute({
  method: "get",
  path: "/__sim/customers/{id}",
  operationId: "simGetCustomer",
  summary: "One customer, whole",
  description:
    "The customer as `GET /customers/{id}` answers (next reward, expiry, cards, tier), their codes grouped available, used and voided, a page of their ledger (newest first), and what happens to them next by time alone. No secret needed, outside the quota and the journal; expiry settles on read, as the API's reads do.",
  request: { headers: ShopKeyHeader, params: pathParams({ id: {} }), query: CustomerDetailQuery },
  responses: { 200: json(CustomerDetailSchema, "The customer"), 404: controlError("`CUSTOMER_NOT_FOUND`"), 422: invalid, 500: bug },
});

export const simUpcoming = controlRoute({
  method: "get",
  path: "/__sim/clock/upcoming",
  operationId: "simUpcoming",
  summary: "The shop's next time-based events",
  description:
    "Soonest first, at most `limit`: each customer's next expiry (when, how many stamps), earn-rule windows reopening for customers who reached a limit (among the newest 10,000 ledger entries), and the end of the hourly quota window. Expiry settles as the list is made, as the API's reads do.",
  request: { headers: ShopKeyHeader, query: UpcomingQuery },
  responses: { 200: json(UpcomingSchema, "The shop's clock and its next events"), 422: invalid, 500: bug },
});

export const simExportHar = controlRoute({
  method: "get",
  path: "/__sim/requests.har",
  operationId: "simExportHar",
  summary: "The journal as HAR 1.2",
  description:
    "The entries `GET /__sim/requests` selects (same filters), oldest first, as an HTTP Archive 1.2 log: request and response headers and bodies (credentials redacted, bodies over 16 KB as a note), timings, and the custom fields `_id`, `_decidedBy`, `_scenario` and `_fault`.",
  request: { headers: ShopKeyHeader, query: RequestsQuerySchema.extend(ShopQuery.shape) },
  responses: { 200: json(z.object({ log: z.record(z.string(), z.unknown()) }).openapi("SimHar"), "A HAR 1.2 document"), 422: invalid, 500: bug },
});

export const simEvents = controlRoute({
  method: "get",
  path: "/__sim/events",
  operationId: "simEvents",
  summary: "Live changes, as Server-Sent Events",
  description:
    "A stream for one shop: `journal` `{ lastId }` when its journal got entries, `clock` `{ now, frozen }`, `scenarios`, `shops` and `reset` `{}` when those changed; coalesced to one event of a kind per 200 ms, and sent only while someone listens. The first event is `journal` with the newest id. Not journaled, not counted by the quota.",
  request: { headers: ShopKeyHeader, query: ShopQuery },
  responses: { 200: { description: "An event stream", content: { "text/event-stream": { schema: z.string() } } }, 422: invalid, 500: bug },
});
