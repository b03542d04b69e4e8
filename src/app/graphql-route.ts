/**
 * GraphQL's routes. `POST /graphql` goes through the API's side of the gateway (request id, CORS,
 * credentials, quota, body limit, journal) with its refusals written in GraphQL's shape; the route
 * then reads the request, applies `Prefer` and scenario rules per root field, and executes.
 * `GET /graphql` (GraphiQL), its files and the schema's text are plain routes, like `/doc`.
 * graphql-js is loaded on the first request for any of them, so start-up does not pay for it.
 * @module
 */
import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { StatusCode } from "hono/utils/http-status";
import type { Engine } from "../engine/engine.js";
import type { DocumentCache, FieldDecision, GraphQLContext, GraphQLHttpResponse, GraphQLParams, GraphiQLFile, MediaType, PreparedOperation } from "../graphql/index.js";
import type { ErrorCode } from "../engine/errors.js";
import { refusalResponse, wantsGraphiQL } from "../graphql/media.js";
import { applyRespond, preferOf, waitFor, type ScenarioDeps } from "../scenarios/gate.js";
import { decideRootFields, isRequestLevel, preferredOnEveryField } from "../scenarios/graphql-fields.js";
import type { Respond } from "../scenarios/schema.js";
import { GRAPHQL_PATH } from "../http/base.js";
import type { AppEnv } from "../http/env.js";
import { sendNoRoute } from "../http/errors.js";
import type { ErrorWriter, Exchange } from "../http/exchange.js";
import { findShopAgain } from "../http/gates/identify.js";
import type { Quotas } from "../http/gates/credentials.js";
import { noteReason } from "../http/journal/notes.js";
import type { Mount } from "../http/mount.js";
import { pathParams } from "../http/params.js";
import { bodyOf, requestHeader } from "../http/request-input.js";
import { isOwnLoopbackRequest } from "../http/gates/index.js";
import { PAGE_FILE_HEADERS } from "../http/page-headers.js";
import { sendJsonText } from "../http/respond.js";

type C = Context<AppEnv>;
type GraphQLModule = typeof import("../graphql/index.js");

let loading: Promise<GraphQLModule> | undefined;
/** graphql-js and the schema, on first use. */
function load(): Promise<GraphQLModule> {
  return (loading ??= import("../graphql/index.js"));
}

/** A GraphQL answer made by the steps of src/graphql, sent (and journaled) as the app's own JSON. */
function send(exchange: Exchange, res: Pick<GraphQLHttpResponse, "status" | "body" | "headers">): Response {
  return sendJsonText(exchange, res.body, res.status as StatusCode, res.headers);
}

/** How the gateway's GraphQL side writes its refusals (credentials, quota, body size, a bad `Prefer`): in GraphQL's shape. */
export const writeGraphQLRefusal: ErrorWriter = (exchange, error, status, details) =>
  send(exchange, refusalResponse(status, requestHeader(exchange.c, "accept"), error.code, error.message, details));

/** The scenarios' deps (the registry, the shops to find again after a wait, the global latency), and the engine. */
export interface GraphQLRouteDeps extends ScenarioDeps {
  engine: Engine;
  /** The quota's headers on the 405 of a GET (it counts as no request). */
  quotas?: Pick<Quotas, "headersNow">;
  onBug?: (error: unknown) => void;
}

const route = (method: "get" | "post" | "put" | "patch" | "delete", path: string, request?: object) =>
  createRoute({ method, path, hide: true, ...(request && { request }), responses: { 200: { description: "" } } });

/** What answers GraphQL requests once graphql-js is loaded: the module, the route's deps and the cache of parsed and validated documents. */
interface Runner {
  gql: GraphQLModule;
  deps: GraphQLRouteDeps;
  cache: DocumentCache;
}

/**
 * The answer to one GraphQL request, once the gateway let it through and read its body (spec
 * section 5.1, steps 4 to 9): the request read, the latency, the `Prefer` header (a valid one
 * replaces the scenarios; its delay, raw status and request-level errors act before parsing),
 * the document, then each root field's decision (the Prefer header's field code, else the
 * scenarios'), and the execution.
 */
async function answer(exchange: Exchange, r: Runner): Promise<Response> {
  const { c } = exchange;
  const read = r.gql.readRequest({ method: c.req.method, contentType: requestHeader(c, "content-type"), accept: requestHeader(c, "accept"), bodyText: bodyOf(exchange) });
  if (read.response) {
    exchange.decidedBy = "validation";
    return send(exchange, read.response);
  }
  const { registry, latency, shops } = r.deps;
  if (latency !== undefined) await waitFor(exchange, registry.drawDelay(latency, exchange.shop.id), shops);
  const preferred = preferOf(exchange);
  const fieldCode = preferred && fieldCodeOf(preferred);
  if (preferred) {
    const beforeParsing = fieldCode === undefined ? preferred : { ...preferred, error: undefined };
    const early = await applyRespond(exchange, beforeParsing, undefined, "forced by the Prefer header", r.deps, "prefer");
    if (early) return early;
  }
  const { prepared, response } = r.gql.prepareRequest(read.params, read.media, r.cache);
  if (response) {
    exchange.decidedBy = "validation";
    return send(exchange, response);
  }
  exchange.rootFields = prepared.rootFields;
  if (fieldCode !== undefined) {
    exchange.decidedBy = "prefer";
    return run(exchange, r, prepared, read.media, preferredOnEveryField(prepared, fieldCode));
  }
  if (preferred || !registry.hasScenarios(exchange.shop.id)) return run(exchange, r, prepared, read.media, undefined);
  const decided = await decideRootFields(exchange, prepared, r.deps);
  return decided.answer ?? run(exchange, r, prepared, read.media, decided.forced);
}

/** A code of the Prefer header that fails root fields, not the whole request. */
const fieldCodeOf = (preferred: Respond): ErrorCode | undefined => (preferred.error !== undefined && !isRequestLevel(preferred.error) ? preferred.error : undefined);

/**
 * Executes the operation and writes its result. A field that waits (a delay of its own) runs on the
 * shop as it is after the wait, as do the fields after it; a shop deleted meanwhile refuses the
 * whole request, as credentials that no longer exist.
 */
async function run(exchange: Exchange, r: Runner, prepared: PreparedOperation, media: MediaType, forced: Map<string, FieldDecision> | undefined): Promise<Response> {
  const { gql, deps } = r;
  if (forced) exchange.forcedFields = forced;
  let refused: unknown;
  const context: GraphQLContext = {
    // The body, the latency and the scenarios may have taken time since the credentials were checked.
    shop: findShopAgain(exchange, deps.shops),
    ...(forced && { forced }),
    wait: (ms) =>
      waitFor(exchange, ms, deps.shops).then(
        () => void (context.shop = exchange.shop),
        (error: unknown) => {
          refused ??= error;
          throw error;
        },
      ),
    ...(deps.onBug && { onBug: deps.onBug }),
    // The first field refused is the one the why trace explains.
    onRefusal: (reason) => void (exchange.notes?.reason ?? noteReason(exchange, reason)),
  };
  const done = await gql.executePrepared(prepared, context);
  if (refused !== undefined) throw refused;
  const written = gql.writeResult(prepared, media, done);
  if (written.graphql) exchange.graphql = written.graphql;
  return send(exchange, written);
}

/** A GraphiQL file, as `/doc` serves its own (`page`: a file of the page, which no other site may read or embed). */
function file(c: C, found: GraphiQLFile, page = true): Response {
  const headers: Record<string, string> = {
    "Content-Type": found.contentType,
    ...(found.cacheControl && { "Cache-Control": found.cacheControl }),
    ...(found.policy && { "Content-Security-Policy": found.policy }),
    ...(page && PAGE_FILE_HEADERS),
  };
  return c.body(typeof found.body === "string" ? found.body : new Uint8Array(found.body), 200, headers);
}

/**
 * `POST /graphql` on `api` (the gateway's GraphQL side; other methods there are refused with 405),
 * GraphiQL and the schema on `other`.
 */
export function graphqlRouters(api: Mount, other: Mount, deps: GraphQLRouteDeps) {
  let runner: Runner | undefined;
  const ready = async (): Promise<Runner> => {
    const gql = await load();
    return (runner ??= { gql, deps, cache: new gql.DocumentCache() });
  };
  const operations = (["post", "put", "patch", "delete"] as const).reduce(
    (mounting, method) => mounting.route(route(method, GRAPHQL_PATH), async (_c, exchange) => answer(exchange, runner ?? (await ready()))),
    api(),
  );
  const pages = other()
    // HEAD too (hono routes it here): it answers as GET does, without the body.
    .route(route("get", GRAPHQL_PATH), async (c, exchange) => {
      const gql = await load();
      const accept = requestHeader(c, "accept");
      // The page or the 405, by Accept: caches must tell them apart.
      exchange.headers.Vary = "Accept";
      if (wantsGraphiQL(c.req.method, accept)) {
        // The headers only for this machine's own request for the page: never another site's or host's.
        const credentials = isOwnLoopbackRequest(c) ? deps.engine.defaultShop().access : undefined;
        return file(c, gql.graphiqlPage({ credentials, endpoint: GRAPHQL_PATH }));
      }
      // Operations are not offered over GET: the 405 that says so, in GraphQL's shape, with the
      // quota's headers as every GraphQL answer to a shop's credentials has them.
      const { shop } = exchange;
      if (shop?.access.rateLimit != null && deps.quotas) Object.assign(exchange.headers, deps.quotas.headersNow(shop.id, shop.access.rateLimit, shop.clock.now()));
      return send(exchange, gql.readRequest({ method: c.req.method, accept }).response!);
    })
    .route(route("get", `${GRAPHQL_PATH}/init.js`), async (c) => file(c, (await load()).graphiqlInit()))
    // A public document, like /openapi.json: tools of other origins may read it.
    .route(route("get", `${GRAPHQL_PATH}/schema.graphql`), async (c) => file(c, (await load()).graphqlSchemaFile(), false))
    .route(route("get", `${GRAPHQL_PATH}/assets/{file}`, { params: pathParams({ file: {} }) }), async (c, exchange) => {
      const found = await (await load()).graphiqlAsset(c.req.param("file") ?? "");
      return found ? file(c, found) : sendNoRoute(exchange);
    });
  return [operations.router, pages.router] as const;
}
