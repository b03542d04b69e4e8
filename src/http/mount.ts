/**
 * The one way a route is mounted: documented from its config (`openAPIRegistry.registerPath`) and
 * registered once, as one hono handler (`router.on`) that runs the gateway's steps, then the
 * route's own: its input checks and its handler, which gets the request's record (exchange.ts)
 * with hono's context. Handlers read their checked input with `c.req.valid(...)`.
 * @module
 */
import type { OpenAPIHono, RouteConfig } from "@hono/zod-openapi";
import type { Context, Schema } from "hono";
import type { z } from "@hono/zod-openapi";
import type { AppEnv } from "./env.js";
import type { Exchange } from "./exchange.js";
import type { Side, Step } from "./gateway.js";
import type { MountedRoute } from "./operation.js";
import { isPlainPathParams } from "./params.js";
import { checked, readJsonBody } from "./request-input.js";
import { createRouter } from "./router.js";

type C = Context<AppEnv>;

/** What hono's own validator takes as the query: each name's value, or its values when repeated. */
function queryOf(c: C): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, values] of Object.entries(c.req.queries())) query[name] = values.length === 1 ? values[0]! : values;
  return query;
}

/**
 * The checks of a route's input, in @hono/zod-openapi's order: query, path, headers, body. Each
 * hands its part to the handler (`c.req.valid`) or throws a DomainError; the body was read by the
 * body limit's step.
 */
function inputChecks(route: RouteConfig): Step[] {
  const { query, params, headers, cookies, body } = route.request ?? {};
  const where = `${route.method.toUpperCase()} ${route.path}`;
  const checks: ((exchange: Exchange, c: C) => void)[] = [];
  if (query) checks.push((exchange, c) => c.req.addValidatedData("query", checked(exchange, query, queryOf(c), "query") as object));
  if (params) {
    // Every path segment is a string: plain string parameters cannot be refused.
    checks.push(
      isPlainPathParams(params)
        ? (exchange, c) => c.req.addValidatedData("param", exchange.params)
        : (exchange, c) => c.req.addValidatedData("param", checked(exchange, params, exchange.params, "path") as object),
    );
  }
  if (headers) {
    const schema = headers as z.ZodType;
    checks.push((exchange, c) => c.req.addValidatedData("header", checked(exchange, schema, c.req.header(), "header") as object));
  }
  if (cookies) throw new Error(`${where}: cookies are not read by this simulator`);
  const types = Object.keys(body?.content ?? {});
  const media = body?.content["application/json"];
  if (types.length === 1 && media && "schema" in media) {
    // Bodies of several types (JSON or YAML) are read by their handler; the route only documents them.
    if (!body!.required) throw new Error(`${where}: a JSON body must be required (an optional one is not read)`);
    const schema = media.schema as z.ZodType;
    checks.push((exchange, c) => c.req.addValidatedData("json", readJsonBody(exchange, schema) as object));
  }
  return checks.map((check) => (exchange) => void check(exchange, exchange.c));
}

export interface MountOptions {
  /** The gateway's side each route goes through (the API's, GraphQL's, or the other). */
  side: Side;
  /** Where the routers are mounted (`app.route(base, router)`); API operations are named with it. */
  base: string;
  /** What the gateway adds to each route's entry in the document: parameters it reads, answers only it gives. */
  documented?: { parameters?: { $ref: string }[]; responses?: RouteConfig["responses"] };
}

/** The route's entry with the gateway's additions; the route's own responses win over the gateway's. */
function withGateway(route: RouteConfig, added: MountOptions["documented"]): RouteConfig {
  if (!added) return route;
  return {
    ...route,
    ...(added.parameters && { parameters: [...(route.parameters ?? []), ...added.parameters] as RouteConfig["parameters"] }),
    ...(added.responses && { responses: { ...added.responses, ...route.responses } }),
  };
}

/** The routes a router has, as hono types them. */
type SchemaOf<H> = H extends OpenAPIHono<AppEnv, infer S> ? S : never;

/** A route's handler: hono's `H` as `router.openapi` types it (its checked input, its documented answers), given the request's record too. */
type WithExchange<H> = H extends (c: infer Ctx, next: never) => infer Answer ? (c: Ctx, exchange: Exchange) => Answer : never;

/** Mounts routes on one router, each typed as `router.openapi` types it (for hono/client). */
export class Mounting<S extends Schema = {}> {
  constructor(
    readonly router: OpenAPIHono<AppEnv, S>,
    private readonly options: MountOptions,
  ) {}

  route<R extends RouteConfig>(route: R, handler: WithExchange<Parameters<typeof this.router.openapi<R>>[1]>): Mounting<SchemaOf<ReturnType<typeof this.router.openapi<R>>>> {
    const { hide, middleware, ...documented } = route as R & { hide?: boolean };
    if (middleware !== undefined) throw new Error(`${route.method.toUpperCase()} ${route.path}: route middleware is not mounted; write a gate`);
    if (!hide) this.router.openAPIRegistry.registerPath(withGateway(documented, this.options.documented));
    const answer = handler as unknown as (c: C, exchange: Exchange) => Response | Promise<Response>;
    const mounted: MountedRoute = {
      template: this.options.base + route.path,
      ...(route.operationId !== undefined && { operationId: route.operationId }),
      ...(route.request !== undefined && { request: route.request }),
    };
    const steps: Step[] = [...inputChecks(route), (exchange) => answer(exchange.c, exchange)];
    this.router.on(route.method, route.path.replace(/\{([^}]+)\}/g, ":$1"), this.options.side.handler(mounted, steps));
    return this as never;
  }
}

/** Starts a router whose routes go through the gateway; `customersRouter(mount)` and the like take one. */
export type Mount = () => Mounting;

export function createMount(options: MountOptions): Mount {
  return () => new Mounting(createRouter(), options);
}
