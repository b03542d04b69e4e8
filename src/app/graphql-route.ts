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
import { andThen, type MaybePromise } from "../http/maybe-promise.js";
import { refusalResponse, wantsGraphiQL } from "../graphql/media.js";
import { applyRespond, preferOf, waitFor, type ScenarioDeps } from "../scenarios/gate.js";
import { decideRootFields, isRequestLevel, preferredOnEveryField } from "../scenarios/graphql-fields.js";
import type { Respond } from "../scenarios/schema.js";
import { GRAPHQL_PATH } from "../http/base.js";
import type { AppEnv } from "../http/env.js";
import { sendNoRoute, type FieldIssue } from "../http/errors.js";
import type { Gate } from "../http/gateway.js";
import { findShopAgain } from "../http/gates/identify.js";
import type { Mount } from "../http/mount.js";
import { pathParams } from "../http/params.js";
import { bodyText, requestHeader } from "../http/request-input.js";
import { isOwnLoopbackRequest } from "../http/gates/index.js";
import { PAGE_FILE_HEADERS } from "../http/page-headers.js";
import { sendJsonText, setHeader } from "../http/respond.js";

type C = Context<AppEnv>;
type GraphQLModule = typeof import("../graphql/index.js");

let loading: Promise<GraphQLModule> | undefined;
let loaded: GraphQLModule | undefined;
/** graphql-js and the schema, on first use. */
function load(): GraphQLModule | Promise<GraphQLModule> {
  return loaded ?? (loading ??= import("../graphql/index.js").then((module) => (loaded = module)));
}

/** A GraphQL answer made by the steps of src/graphql, sent (and journaled) as the app's own JSON. */
function send(c: C, res: Pick<GraphQLHttpResponse, "status" | "body" | "headers">): Response {
  return sendJsonText(c, res.body, res.status as StatusCode, res.headers);
}

function writeRefusal(c: C, error: { code: string; message: string }, status: number, details?: FieldIssue[]): Response {
  return send(c, refusalResponse(status, requestHeader(c, "accept"), error.code, error.message, details));
}

/** First of GraphQL's gates: the gateway's refusals (credentials, quota, body size, a bad `Prefer`) in GraphQL's shape. */
export const graphqlRefusals: Gate = (c) => {
  c.set("writeError", writeRefusal);
  return undefined;
};

/** The scenarios' deps (the registry, the shops to find again after a wait, the global latency), and the engine. */
export interface GraphQLRouteDeps extends ScenarioDeps {
  engine: Engine;
  onBug?: (error: unknown) => void;
}

const route = (method: "get" | "post" | "put" | "patch" | "delete", path: string, request?: object) =>
  createRoute({ method, path, hide: true, ...(request && { request }), responses: { 200: { description: "" } } });

/**
 * The answer to one GraphQL request, once the gateway let it through (spec section 5.1, steps 4 to
 * 9): without a promise when nothing waits (graphql-js loaded, the body here, no delay, `Prefer` or
 * scenario, no delayed field).
 */
function answer(c: C, runner: MaybePromise<Runner>): MaybePromise<Response> {
  return andThen(runner, (r) => andThen(bodyText(c), (text) => answerText(c, r, text)));
}

/** What answers GraphQL requests once graphql-js is loaded: the module, the route's deps and the cache of parsed and validated documents. */
interface Runner {
  gql: GraphQLModule;
  deps: GraphQLRouteDeps;
  cache: DocumentCache;
}

type Read = { params: GraphQLParams; media: MediaType };

function answerText(c: C, r: Runner, text: string): MaybePromise<Response> {
  const read = r.gql.readRequest({ method: c.req.method, contentType: requestHeader(c, "content-type"), accept: requestHeader(c, "accept"), bodyText: text });
  if (read.response) {
    c.set("decidedBy", "validation");
    return send(c, read.response);
  }
  const { registry, latency, shops } = r.deps;
  const preferred = () => withPrefer(c, r, read);
  return latency === undefined ? preferred() : waitFor(c, registry.drawDelay(latency, c.get("shop").id), shops).then(preferred);
}

/** A valid Prefer header replaces the scenarios; its delay, raw status and request-level errors act before parsing. */
function withPrefer(c: C, r: Runner, read: Read): MaybePromise<Response> {
  const preferred = preferOf(c);
  if (!preferred) return decideFields(c, r, read, undefined);
  const beforeParsing = fieldCodeOf(preferred) === undefined ? preferred : { ...preferred, error: undefined };
  return applyRespond(c, beforeParsing, undefined, "forced by the Prefer header", r.deps, "prefer").then((early) => early ?? decideFields(c, r, read, preferred));
}

/** A code of the Prefer header that fails root fields, not the whole request. */
const fieldCodeOf = (preferred: Respond): ErrorCode | undefined => (preferred.error !== undefined && !isRequestLevel(preferred.error) ? preferred.error : undefined);

/** The document, then each root field's decision: the Prefer header's field code, else the scenarios'. */
function decideFields(c: C, r: Runner, read: Read, preferred: Respond | undefined): MaybePromise<Response> {
  const { prepared, response } = r.gql.prepareRequest(read.params, read.media, r.cache);
  if (response) {
    c.set("decidedBy", "validation");
    return send(c, response);
  }
  const fieldCode = preferred && fieldCodeOf(preferred);
  if (fieldCode !== undefined) {
    c.set("decidedBy", "prefer");
    return run(c, r, prepared, read.media, preferredOnEveryField(prepared, fieldCode));
  }
  if (preferred || !r.deps.registry.hasScenarios(c.get("shop").id)) return run(c, r, prepared, read.media, undefined);
  return decideRootFields(c, prepared, r.deps).then((decided) => decided.answer ?? run(c, r, prepared, read.media, decided.forced));
}

/**
 * Executes the operation and writes its result. A field that waits (a delay of its own) runs on the
 * shop as it is after the wait, as do the fields after it; a shop deleted meanwhile refuses the
 * whole request, as credentials that no longer exist.
 */
function run(c: C, r: Runner, prepared: PreparedOperation, media: MediaType, forced: Map<string, FieldDecision> | undefined): MaybePromise<Response> {
  const { gql, deps } = r;
  let refused: unknown;
  const context: GraphQLContext = {
    // The body, the latency and the scenarios may have taken time since the credentials were checked.
    shop: findShopAgain(c, deps.shops),
    ...(forced && { forced }),
    wait: (ms) =>
      waitFor(c, ms, deps.shops).then(
        () => void (context.shop = c.get("shop")),
        (error: unknown) => {
          refused ??= error;
          throw error;
        },
      ),
    ...(deps.onBug && { onBug: deps.onBug }),
  };
  const result = gql.executePrepared(prepared, context);
  return andThen(result, (done) => {
    if (refused !== undefined) throw refused;
    const written = gql.writeResult(prepared, media, done);
    if (written.graphql) c.set("graphql", written.graphql);
    return send(c, written);
  });
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
  const ready = (): MaybePromise<Runner> => runner ?? andThen(load(), (gql) => (runner ??= { gql, deps, cache: new gql.DocumentCache() }));
  const operations = (["post", "put", "patch", "delete"] as const).reduce((mounting, method) => mounting.route(route(method, GRAPHQL_PATH), (c) => answer(c, ready())), api());
  const pages = other()
    // HEAD too (hono routes it here): it answers as GET does, without the body.
    .route(route("get", GRAPHQL_PATH), async (c) => {
      const gql = await load();
      const accept = requestHeader(c, "accept");
      // The page or the 405, by Accept: caches must tell them apart.
      setHeader(c, "Vary", "Accept");
      if (wantsGraphiQL(c.req.method, accept)) {
        // The headers only for this machine's own request for the page: never another site's or host's.
        const credentials = isOwnLoopbackRequest(c) ? deps.engine.defaultShop().access : undefined;
        return file(c, gql.graphiqlPage({ credentials, endpoint: GRAPHQL_PATH }));
      }
      // Operations are not offered over GET: the 405 that says so, in GraphQL's shape.
      return send(c, gql.readRequest({ method: c.req.method, accept }).response!);
    })
    .route(route("get", `${GRAPHQL_PATH}/init.js`), async (c) => file(c, (await load()).graphiqlInit()))
    // A public document, like /openapi.json: tools of other origins may read it.
    .route(route("get", `${GRAPHQL_PATH}/schema.graphql`), async (c) => file(c, (await load()).graphqlSchemaFile(), false))
    .route(route("get", `${GRAPHQL_PATH}/assets/{file}`, { params: pathParams({ file: {} }) }), async (c) => {
      const found = await (await load()).graphiqlAsset(c.req.param("file") ?? "");
      return found ? file(c, found) : sendNoRoute(c);
    });
  return [operations.router, pages.router] as const;
}
