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

/** An input's parts, those whose fields are all optional (a list's `query`) made optional themselves. */
type OptionalParts<In> = { [K in keyof In as {} extends In[K] ? never : K]: In[K] } & { [K in keyof In as {} extends In[K] ? K : never]?: In[K] };
/** Each answer of an endpoint (one per status), its input with optional parts optional. */
type LooseEndpoint<E> = E extends { input: infer In } ? { [K in keyof E]: K extends "input" ? OptionalParts<In> : E[K] } : E;
/** hono/client asks for `query: {}` where every query field is optional; a route's schema without that demand. */
type Loose<S> = { [P in keyof S]: { [M in keyof S[P]]: LooseEndpoint<S[P][M]> } };

/** The API's routes as hono types them, each with every documented answer. */
export type ApiSchema = Intersection<{ [Id in OperationId]: Loose<Added<RouteOf<(typeof OPERATIONS)[Id]>>> }[OperationId]>;

export function apiRouter(mount: Mount): OpenAPIHono<AppEnv, ApiSchema> {
  let mounting = mount();
  for (const op of Object.values(OPERATIONS) as Operation[]) mounting = mounting.route(ROUTES[op.id as OperationId] as RouteConfig, handlerOf(op) as never);
  return mounting.router as never;
}
