/**
 * The REST API: every operation of the contract mounted on one router, each handler the
 * operation's `run` on the request's checked input, answered in the envelope of its kind.
 * @module
 */
import type { OpenAPIHono, RouteConfig } from "@hono/zod-openapi";
import type { Context } from "hono";
import { OPERATIONS, type OperationId } from "../contract/index.js";
import type { AnswerKind, Operation } from "../contract/operation.js";
import type { AppEnv } from "../http/env.js";
import type { Exchange } from "../http/exchange.js";
import type { Mount } from "../http/mount.js";
import { ok, okList, okPage } from "../http/router.js";
import { ROUTES, type RouteOf } from "./routes.js";

type C = Context<AppEnv, string, { out: { param: unknown; query: unknown; json: unknown } }>;

/** How each kind of answer is sent. */
const SEND: Record<AnswerKind, (exchange: Exchange, result: never) => Response> = { one: ok, list: okList, page: okPage };

function handlerOf(op: Operation): (c: C, exchange: Exchange) => Response {
  const send = SEND[op.answer.kind];
  return (c, exchange) => send(exchange, op.run(exchange.shop, { params: c.req.valid("param"), query: c.req.valid("query"), body: c.req.valid("json") } as never) as never);
}

/** Only its type is read: what `openapi()` adds to a router for route `R`, which hono/client reads. */
declare const typed: OpenAPIHono<AppEnv>;
type Added<R extends RouteConfig> = ReturnType<typeof typed.openapi<R>> extends OpenAPIHono<AppEnv, infer S> ? S : never;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The API's routes as hono types them, each with every documented answer. */
export type ApiSchema = Intersection<{ [Id in OperationId]: Added<RouteOf<(typeof OPERATIONS)[Id]>> }[OperationId]>;

export function apiRouter(mount: Mount): OpenAPIHono<AppEnv, ApiSchema> {
  let mounting = mount();
  for (const op of Object.values(OPERATIONS) as Operation[]) mounting = mounting.route(ROUTES[op.id as OperationId] as RouteConfig, handlerOf(op) as never);
  return mounting.router as never;
}
