/**
 * The simulator inside a test process, with no port: `createSimulator()` returns the app, a
 * `fetch` to hand to any client library, the engine, a typed client of the control API, and
 * `intercept()` for an app that calls production's URL itself.
 * @module
 */
import { parseConfig, type SimulatorOptions } from "../config.js";
import type { SimClock } from "../engine/clock.js";
import { connectionError, faultHolds, faultOf } from "../http/faults.js";
import { createControlClient, type ControlClient } from "./control-client.js";

export { createControlClient, SimulatorError, type ControlClient, type ControlClientOptions, type RequestFilter } from "./control-client.js";
export type { WaitOptions } from "./wait-for.js";
import { createInterceptor, type Interception } from "./intercept.js";
import { API_BASE, GRAPHQL_PATH } from "../http/base.js";
import { buildSimulator, type BuiltSimulator } from "./simulator.js";

/** Origin of in-process URLs; any origin works, relative URLs resolve against this one. */
export const IN_PROCESS_ORIGIN = "http://loyalty-sim.local";

/** The app; a held request (a timeout fault) waits for `env.signal`, the caller's own, when given. */
type AppLike = { fetch: (request: Request, env?: { signal: AbortSignal }) => Response | Promise<Response> };

/**
 * A `fetch` that calls the app directly and turns network faults into what a real `fetch` does
 * (`FAULT_KINDS` in http/faults.ts): a connection ended rejects with `TypeError("fetch failed")`,
 * a held request waits for the caller's AbortSignal and rejects with its reason.
 */
export function inProcessFetch(app: AppLike): typeof fetch {
  return async (input, init) => {
    const request = input instanceof Request && init === undefined ? input : new Request(typeof input === "string" && input.startsWith("/") ? `${IN_PROCESS_ORIGIN}${input}` : input, init);
    // The caller's own signal, not the request's copy: undici links the copy to it through a
    // WeakRef, so a request held only by a waiting handler can be garbage-collected and never see
    // the abort (a timeout fault would then hang forever).
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    signal?.throwIfAborted();
    const response = await (signal ? untilAborted(app.fetch(request, { signal }), signal) : app.fetch(request));
    const fault = faultOf(response);
    if (!fault) return response;
    // A held request ended because the caller gave up: a real fetch rejects with its signal's reason.
    if (faultHolds(fault)) throw signal?.reason ?? new DOMException("This operation was aborted", "AbortError");
    throw connectionError(fault, "fetch");
  };
}

/** The answer, or a rejection with the signal's reason once it aborts first (as a real fetch does). */
function untilAborted<T>(answer: T | Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    Promise.resolve(answer)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener("abort", onAbort));
  });
}

export interface InProcessSimulator {
  app: BuiltSimulator["app"];
  /** Hand this to a client library (or an msw-like interceptor) instead of the global fetch. */
  fetch: typeof fetch;
  engine: BuiltSimulator["engine"];
  control: ControlClient;
  apiKey: string;
  apiSecret: string;
  /** `http://loyalty-sim.local/rest_api/v1`: the base URL to give your client with `fetch`. */
  baseUrl: string;
  /** `http://loyalty-sim.local/graphql`: the GraphQL API, with `fetch` too. */
  graphqlUrl: string;
  /**
   * Answers every request the process makes to `origin` (production's `https://stamp.appydesign.io`
   * by default), through the global fetch, `node:http`/`https` or axios, from this simulator.
   * Each call adds an origin; another simulator's origin is refused.
   */
  intercept(origin?: string): Interception;
  /** Ends every interception of this simulator. */
  restore(): void;
}

/**
 * @example
 * const sim = createSimulator({ seed: 7, customers: 10 });
 * const res = await sim.fetch(`${sim.baseUrl}/shop`, { headers: { "X-Api-Key": sim.apiKey, "X-Api-Secret": sim.apiSecret } });
 */
export function createSimulator(options: SimulatorOptions & { newClock?: () => SimClock } = {}): InProcessSimulator {
  const { newClock, ...rest } = options;
  const built = buildSimulator(parseConfig(rest), newClock ? { newClock } : {});
  const fetchFn = inProcessFetch(built.app);
  const network = createInterceptor(built.app);
  return {
    app: built.app,
    fetch: fetchFn,
    engine: built.engine,
    control: createControlClient(fetchFn, IN_PROCESS_ORIGIN),
    apiKey: built.shop.access.apiKey,
    apiSecret: built.shop.access.apiSecret,
    baseUrl: `${IN_PROCESS_ORIGIN}${API_BASE}`,
    graphqlUrl: `${IN_PROCESS_ORIGIN}${GRAPHQL_PATH}`,
    intercept: network.intercept,
    restore: network.restore,
  };
}
