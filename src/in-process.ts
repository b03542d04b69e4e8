/**
 * The simulator inside a test process, with no port: `createSimulator()` returns the app, a
 * `fetch` to hand to any client library, the engine, a typed client of the control API, and
 * `intercept()` for an app that calls production's URL itself.
 * @module
 */
import { parseConfig, type SimulatorOptions } from "./config.js";
import type { SimClock } from "./engine/clock.js";
import type { ErrorCode } from "./engine/errors.js";
import { connectionError, faultOf } from "./network-errors.js";
import { createInterceptor, type Interception } from "./intercept.js";
import { API_BASE } from "./http/base.js";
import { buildSimulator, type BuiltSimulator } from "./simulator.js";
import type { ScenarioInput } from "./scenarios/schema.js";

/** Origin of in-process URLs; any origin works, relative URLs resolve against this one. */
export const IN_PROCESS_ORIGIN = "http://loyalty-sim.local";

type AppLike = { fetch: (request: Request) => Response | Promise<Response> };

/**
 * A `fetch` that calls the app directly and turns network faults into what a real `fetch` does:
 * a reset or empty response rejects with `TypeError("fetch failed")`, a timeout waits for the
 * caller's AbortSignal and rejects with its reason.
 */
export function inProcessFetch(app: AppLike): typeof fetch {
  return async (input, init) => {
    const request = input instanceof Request && init === undefined ? input : new Request(typeof input === "string" && input.startsWith("/") ? `${IN_PROCESS_ORIGIN}${input}` : input, init);
    // The caller's own signal, not the request's copy: undici links the copy to it through a
    // WeakRef, so a request held only by a waiting handler can be garbage-collected and never see
    // the abort (a timeout fault would then hang forever).
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    signal?.throwIfAborted();
    const response = await (signal ? untilAborted(app.fetch(request), signal) : app.fetch(request));
    const fault = faultOf(response);
    if (!fault) return response;
    if (fault === "timeout") throw signal?.reason ?? new DOMException("This operation was aborted", "AbortError");
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

/** A control-API call that did not succeed, with the error envelope's fields. */
export class SimulatorError extends Error {
  override readonly name = "SimulatorError";

  constructor(
    readonly status: number,
    readonly code: ErrorCode | string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export interface ControlClientOptions {
  /** The shop to act on (the default shop without it). */
  apiKey?: string;
}

/** A small typed client of `/__sim`, over any fetch (in-process or a real URL). */
export function createControlClient(fetchFn: typeof fetch, origin: string, options: ControlClientOptions = {}) {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {};
    if (options.apiKey !== undefined) headers["X-Api-Key"] = options.apiKey;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetchFn(`${origin}/__sim${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
    const text = await res.text();
    const json = text ? JSON.parse(text) : undefined;
    if (!res.ok) {
      const error = json?.error ?? {};
      throw new SimulatorError(res.status, error.code ?? `HTTP_${res.status}`, error.message ?? text, error.details);
    }
    return json as T;
  }
  const query = (filter: Record<string, string | number | undefined>) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(filter)) if (v !== undefined) params.set(k, String(v));
    const s = params.toString();
    return s ? `?${s}` : "";
  };
  return {
    health: () => call<{ status: "ok"; version: string; uptimeMs: number }>("GET", "/health"),
    reset: () => call<{ reset: true; shops: number }>("POST", "/reset"),
    scenarios: () => call<{ scenarios: unknown[] }>("GET", "/scenarios"),
    addScenario: (scenario: ScenarioInput) => call<unknown>("POST", "/scenarios", scenario),
    removeScenario: (name: string) => call<void>("DELETE", `/scenarios/${encodeURIComponent(name)}`),
    clearScenarios: () => call<{ removed: number }>("DELETE", "/scenarios"),
    requests: (filter: { method?: string; path?: string; status?: number; customerId?: string; limit?: number } = {}) =>
      call<{ requests: Record<string, unknown>[] }>("GET", `/requests${query(filter)}`).then((r) => r.requests),
    clearRequests: () => call<void>("DELETE", "/requests"),
    clock: () => call<{ now: string; frozen: boolean }>("GET", "/clock"),
    setClock: (change: { advanceSeconds?: number; set?: string; frozen?: boolean }) => call<{ now: string; frozen: boolean }>("POST", "/clock", change),
    createShop: (shop: { seed?: number; customers?: number; plan?: "free" | "paid"; apiAccess?: boolean; rateLimit?: number | "off" } = {}) =>
      call<{ id: string; apiKey: string; apiSecret: string; seed: number; customers: number }>("POST", "/shops", shop),
    shops: () => call<{ shops: { id: string; apiKey: string; apiSecret: string }[] }>("GET", "/shops").then((r) => r.shops),
    createCustomer: (customer: { firstName: string; lastName: string; email: string; id?: string; phone?: string; dateOfBirth?: string; stampBalance?: number }) =>
      call<{ id: string; stampBalance: number }>("POST", "/customers", customer),
    mergeCustomer: (id: string, into: string) => call<{ id: string; mergedIntoCustomerId: string }>("POST", `/customers/${encodeURIComponent(id)}/merge`, { into }),
  };
}

export type ControlClient = ReturnType<typeof createControlClient>;

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
export function createSimulator(options: SimulatorOptions & { clock?: SimClock } = {}): InProcessSimulator {
  const { clock, ...rest } = options;
  const built = buildSimulator(parseConfig(rest), clock ? { clock } : {});
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
    intercept: network.intercept,
    restore: network.restore,
  };
}
