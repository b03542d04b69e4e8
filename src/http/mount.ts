/**
 * The one way a route is mounted: documented from its config (`openAPIRegistry.registerPath`) and
 * registered once, as one hono handler (`router.on`) that runs the gateway around the route's
 * input checks and its handler. Handlers read their checked input with `c.req.valid(...)`.
 * @module
 */
import type { OpenAPIHono, RouteConfig } from "@hono/zod-openapi";
import type { Context, Handler, Schema } from "hono";
import type { z } from "@hono/zod-openapi";
import type { AppEnv } from "./env.js";
import type { Wrap } from "./gateway.js";
import type { MountedRoute } from "./operation.js";
import type { MaybePromise } from "./maybe-promise.js";
import { isPlainPathParams } from "./params.js";
import { checked, readJsonBody } from "./request-input.js";
import { createRouter } from "./router.js";

type C = Context<AppEnv>;
/** Checks one part of a request's input and hands it to the handler (`c.req.valid`); throws a DomainError. */
type Check = (c: C) => MaybePromise<void>;

/** What hono's own validator takes as the query: each name's value, or its values when repeated. */
function queryOf(c: C): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, values] of Object.entries(c.req.queries())) query[name] = values.length === 1 ? values[0]! : values;
  return query;
}

/** The checks of a route's input, in @hono/zod-openapi's order: query, path, headers, body. */
function inputChecks(route: RouteConfig): Check[] {
  const { query, params, headers, cookies, body } = route.request ?? {};
  const where = `${route.method.toUpperCase()} ${route.path}`;
  const checks: Check[] = [];
  if (query) checks.push((c) => c.req.addValidatedData("query", checked(c, query, queryOf(c), "query") as object));
  if (params) {
    // Every path segment is a string: plain string parameters cannot be refused.
    checks.push(
      isPlainPathParams(params)
        ? (c) => c.req.addValidatedData("param", c.get("operation")?.params ?? c.req.param())
        : (c) => c.req.addValidatedData("param", checked(c, params, c.req.param(), "path") as object),
    );
  }
  if (headers) {
    const schema = headers as z.ZodType;
    checks.push((c) => c.req.addValidatedData("header", checked(c, schema, c.req.header(), "header") as object));
  }
  if (cookies) throw new Error(`${where}: cookies are not read by this simulator`);
  const types = Object.keys(body?.content ?? {});
  const media = body?.content["application/json"];
  if (types.length === 1 && media && "schema" in media) {
    // Bodies of several types (JSON or YAML) are read by their handler; the route only documents them.
    if (!body!.required) throw new Error(`${where}: a JSON body must be required (an optional one is not read)`);
    const schema = media.schema as z.ZodType;
    checks.push((c) => {
      const read = readJsonBody(c, schema);
      if (read instanceof Promise) return read.then((value: object) => c.req.addValidatedData("json", value));
      c.req.addValidatedData("json", read as object);
      return undefined;
    });
  }
  return checks;
}

/** Runs `checks` in order, from `i`; a promise only once one returns one. */
function runChecks(c: C, checks: readonly Check[], i = 0): MaybePromise<void> {
  for (; i < checks.length; i++) {
    const done = checks[i]!(c);
    if (done instanceof Promise) return done.then(() => runChecks(c, checks, i + 1));
  }
  return undefined;
}

const noNext = () => Promise.reject(new Error("a route's handler called next(): there is no next handler"));

export interface MountOptions {
  /** The gateway around each route (its API side, or the other). */
  wrap: Wrap;
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

/** Mounts routes on one router, each typed as `router.openapi` types it (for hono/client). */
export class Mounting<S extends Schema = {}> {
  constructor(
    readonly router: OpenAPIHono<AppEnv, S>,
    private readonly options: MountOptions,
  ) {}

  route<R extends RouteConfig>(route: R, handler: Parameters<typeof this.router.openapi<R>>[1]): Mounting<SchemaOf<ReturnType<typeof this.router.openapi<R>>>> {
    const { hide, middleware, ...documented } = route as R & { hide?: boolean };
    if (middleware !== undefined) throw new Error(`${route.method.toUpperCase()} ${route.path}: route middleware is not mounted; write a gate`);
    if (!hide) this.router.openAPIRegistry.registerPath(withGateway(documented, this.options.documented));
    const checks = inputChecks(route);
    const run = handler as unknown as Handler<AppEnv>;
    const inner = (c: C): MaybePromise<Response> => {
      const done = runChecks(c, checks);
      return (done === undefined ? run(c, noNext) : done.then(() => run(c, noNext))) as MaybePromise<Response>;
    };
    const mounted: MountedRoute = {
      template: this.options.base + route.path,
      ...(route.operationId !== undefined && { operationId: route.operationId }),
      ...(route.request !== undefined && { request: route.request }),
    };
    const { wrap } = this.options;
    this.router.on(route.method, route.path.replace(/\{([^}]+)\}/g, ":$1"), (c: C) => wrap(c, inner, mounted));
    return this as never;
  }
}

/** Starts a router whose routes go through the gateway; `customersRouter(mount)` and the like take one. */
export type Mount = () => Mounting;

export function createMount(options: MountOptions): Mount {
  return () => new Mounting(createRouter(), options);
}
