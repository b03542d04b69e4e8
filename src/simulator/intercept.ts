/**
 * Zero-code interception: every request the process makes to an origin, through the global
 * `fetch` or `node:http`/`node:https` (so axios, got, node-fetch...), is answered by an in-process
 * simulator, and its faults arrive as the network errors each client raises. Built on
 * @mswjs/interceptors, the layer under MSW, which extends Node's clients instead of replacing them.
 * @module
 */
import type { ClientRequest } from "node:http";
import { createRequire } from "node:module";
import type { RequestController } from "@mswjs/interceptors";
import { connectionError, faultOf, type ClientKind } from "../http/faults.js";

/** Production's origin (its API is at `https://stamp.appydesign.io/rest_api/v1`). */
export const PRODUCTION_ORIGIN = "https://stamp.appydesign.io";

/** The app; a held request (a timeout fault) waits for `env.signal`, when given, rather than its own. */
type AppLike = { fetch: (request: Request, env?: { signal: AbortSignal }) => Response | Promise<Response> };

/** One intercepted origin; `restore()` or disposing it (`using`) ends it. */
export interface Interception {
  /** The normalized origin, e.g. `https://stamp.appydesign.io`. */
  readonly origin: string;
  restore(): void;
  [Symbol.dispose](): void;
}

export interface Interceptor {
  intercept(origin?: string): Interception;
  /** Ends every interception of this simulator. */
  restore(): void;
}

interface Route {
  app: AppLike;
  /** Requests still waiting for the app, each with the controller that closes them on restore. */
  pending: Map<Request, AbortController>;
}

// One table for the process: the patched `fetch` and `http` modules are one per process, so
// simulators share one interceptor and each request finds its simulator by origin.
const routes = new Map<string, Route>();
let network: { dispose(): void } | undefined;

/** `sim.intercept()` and `sim.restore()` for the simulator whose app answers. */
export function createInterceptor(app: AppLike): Interceptor {
  const mine = new Set<Route>();
  const end = (origin: string, route: Route) => {
    if (routes.get(origin) !== route) return;
    routes.delete(origin);
    mine.delete(route);
    // As when a server shuts down: a request held by a timeout fault sees its connection close.
    for (const closing of route.pending.values()) closing.abort();
    if (routes.size === 0) {
      network?.dispose();
      network = undefined;
    }
  };
  return {
    intercept(origin = PRODUCTION_ORIGIN) {
      const key = originOf(origin);
      let route = routes.get(key);
      if (route && !mine.has(route)) throw new Error(`${key} is already intercepted by another simulator; restore() that one first`);
      if (!route) {
        route = { app, pending: new Map() };
        network ??= listen();
        routes.set(key, route);
        mine.add(route);
      }
      const done = () => end(key, route);
      return { origin: key, restore: done, [Symbol.dispose]: done };
    },
    restore() {
      for (const [origin, route] of routes) if (mine.has(route)) end(origin, route);
    },
  };
}

function originOf(origin: string): string {
  const url = URL.canParse(origin) ? new URL(origin) : undefined;
  if (!url || !/^https?:$/.test(url.protocol) || url.pathname !== "/" || url.search || url.hash || url.username) {
    throw new TypeError(`intercept(${JSON.stringify(origin)}): give an origin (scheme, host and port, no path), such as "${PRODUCTION_ORIGIN}"`);
  }
  return url.origin;
}

type Interceptors = typeof import("@mswjs/interceptors");
type ClientRequestModule = typeof import("@mswjs/interceptors/ClientRequest");
type FetchModule = typeof import("@mswjs/interceptors/fetch");

/** Starts intercepting `fetch` and `http`/`https` requests, routed by origin through `routes`. */
function listen(): { dispose(): void } {
  // Loaded on first use, synchronously so that intercept() can stay sync: createSimulator and the
  // CLI do not pay for it.
  const require = createRequire(import.meta.url);
  const { BatchInterceptor, RequestController, getRawRequest } = require("@mswjs/interceptors") as Interceptors;
  const { ClientRequestInterceptor } = require("@mswjs/interceptors/ClientRequest") as ClientRequestModule;
  const { FetchInterceptor } = require("@mswjs/interceptors/fetch") as FetchModule;

  async function answer(request: Request, controller: RequestController, client: ClientKind): Promise<void> {
    const route = routes.get(new URL(request.url).origin);
    if (!route) return; // not ours: it goes out untouched
    const raw = client === "http" ? (getRawRequest(request) as ClientRequest | undefined) : undefined;
    const closing = new AbortController();
    const gaveUp = () => closing.abort();
    request.signal.addEventListener("abort", gaveUp, { once: true });
    raw?.once("close", gaveUp);
    // Held here, the request keeps its signal alive: undici links it to the caller's signal only
    // through a WeakRef, and a timeout fault would otherwise never see the caller give up.
    route.pending.set(request, closing);
    let response: Response;
    try {
      response = await route.app.fetch(new Request(request, { signal: closing.signal }), { signal: closing.signal });
    } finally {
      route.pending.delete(request);
      request.signal.removeEventListener("abort", gaveUp);
      raw?.off("close", gaveUp);
    }
    if (request.signal.aborted || controller.readyState !== RequestController.PENDING) return; // fetch gave up: rejected with its signal's reason
    const fault = faultOf(response);
    // An answer to a destroyed request is dropped by the library, as the client gave up.
    if (fault === undefined || raw?.destroyed) return controller.respondWith(response);
    // The connection ends as the fault's kind says (a held request gets here only when restore() lets it go).
    controller.errorWith(connectionError(fault, client));
  }

  const http = new ClientRequestInterceptor();
  const fetch = new FetchInterceptor();
  const batch = new BatchInterceptor({ name: "loyalty-sim", interceptors: [http, fetch] });
  batch.apply();
  http.on("request", ({ request, controller }) => answer(request, controller, "http"));
  fetch.on("request", ({ request, controller }) => answer(request, controller, "fetch"));
  return batch;
}
