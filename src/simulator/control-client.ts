/**
 * The typed client of the control API (`/__sim`), over any fetch: the in-process simulator's, or
 * the global one against a simulator on a port. A failed call throws a `SimulatorError`.
 * @module
 */
import type { ErrorCode } from "../engine/errors.js";
import type { FieldIssue } from "../http/errors.js";
import type { Customer } from "../engine/views.js";
import type { RouteConfig, z } from "@hono/zod-openapi";
import * as routes from "../control/control.routes.js";
import * as inspect from "../control/inspect.routes.js";
import * as coverage from "../control/coverage.routes.js";
import type { CustomerDetail, CustomerSearch, Upcoming } from "../control/inspect.schemas.js";
import type { WhyTrace } from "../control/why.schemas.js";
import type { ClockChange, ClockState, JournalEntry, NewCustomer, NewShop, ScenarioSummary, ShopInfo, SimulatorHealth } from "../control/control.schemas.js";
import type { OperationId } from "../contract/index.js";
import type { ScenarioInput } from "../scenarios/schema.js";
import { DEFAULT_WAIT_MS, waitFailure, waitInTurns, type WaitOptions } from "./wait-for.js";

/**
 * A control-API call that did not succeed: the error envelope's status, code and details, and a
 * message that says which call failed and why, with the first offending field. A call that no
 * loyalty-sim answered (nothing listening, another server) has status 0 or the other server's
 * status, and a message that names the URL.
 */
export class SimulatorError extends Error {
  override readonly name = "SimulatorError";

  constructor(
    readonly status: number,
    readonly code: ErrorCode | string,
    message: string,
    readonly details?: FieldIssue[],
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** `(body email: Invalid email address, +2 more)`: test runners print the message, not `.details`. */
function detailsNote(details: FieldIssue[] | undefined): string {
  const [first, ...more] = details ?? [];
  if (!first) return "";
  return ` (${first.in} ${first.path}: ${first.message}${more.length ? `, +${more.length} more` : ""})`;
}

/** The error envelope's `error`, or undefined for any other answer. */
function envelopeError(json: unknown): { code: string; message: string; details?: FieldIssue[] } | undefined {
  if (typeof json !== "object" || json === null || (json as { success?: unknown }).success !== false) return undefined;
  const error = (json as { error?: { code?: unknown; message?: unknown; details?: unknown } }).error;
  if (typeof error?.code !== "string" || typeof error.message !== "string") return undefined;
  return { code: error.code, message: error.message, ...(Array.isArray(error.details) && { details: error.details as FieldIssue[] }) };
}

/** The error of an answer that is no success: loyalty-sim's envelope, or another server's answer. */
function failure(res: Response, json: unknown, method: string, url: URL): SimulatorError {
  const error = envelopeError(json);
  if (!error) {
    const type = res.headers.get("content-type")?.split(";")[0] || "without a content type";
    return new SimulatorError(res.status, `HTTP_${res.status}`, `no loyalty-sim answered at ${url.origin}${url.pathname} (got ${res.status} ${type})`);
  }
  const message = `${method} ${url.pathname}${url.search}: ${res.status} ${error.code}: ${error.message}${detailsNote(error.details)}`;
  return new SimulatorError(res.status, error.code, message, error.details);
}

/** A fetch that got no answer: fetch's TypeError names the reason in its cause (ECONNREFUSED...). */
function unreachable(error: unknown, url: URL): unknown {
  if (!(error instanceof TypeError)) return error;
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const code = typeof cause?.code === "string" ? cause.code : undefined;
  const why = code ?? (typeof cause?.message === "string" ? cause.message : error.message);
  return new SimulatorError(0, code ?? "UNREACHABLE", `could not reach loyalty-sim at ${url.origin}: ${why}`, undefined, { cause: error });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The JSON body a control route answers when it succeeds (undefined for a 204), from its schema. */
type Success<R extends RouteConfig> = {
  [S in keyof R["responses"]]-?: S extends 200 | 201
    ? R["responses"][S] extends { content: { "application/json": { schema: infer T extends z.ZodType } } }
      ? z.output<T>
      : never
    : S extends 204
      ? undefined
      : never;
}[keyof R["responses"]];

/** The filter of `requests()` and `count()`: every field given must hold. */
export interface RequestFilter {
  /** An operationId of the API, e.g. `awardStamps` (a GraphQL request has one per root field: its REST twin). */
  operation?: OperationId;
  /** `graphql`: only `POST /graphql` requests; `rest`: only the others. */
  api?: "rest" | "graphql";
  customerId?: string;
  /** The status the client got (an entry of a fault without a response has none). */
  status?: number;
  method?: string;
  /** A path template or glob, as in scenario rules. */
  path?: string;
  /** Only entries newer than the entry of this id: to poll, the newest id seen. */
  after?: number;
  /** Text to find, in any case, in the path and query, the headers (the request id too) or the bodies. */
  q?: string;
  /** At most this many entries, the newest (`requests()` only; 0 answers none). */
  limit?: number;
}

/** A typed client of `/__sim`: each method answers the route's success body, or throws a `SimulatorError`. */
export interface ControlClient {
  health(): Promise<SimulatorHealth>;
  /**
   * Made with an `apiKey`: that shop alone back to its seed, with its scenarios, journal entries,
   * rate windows and clock. Without: every shop, and everything else.
   */
  reset(): Promise<Success<typeof routes.simReset>>;
  /** The shop's active scenarios, in the order their rules are tried. */
  scenarios(): Promise<ScenarioSummary[]>;
  /** Adds (or replaces) a scenario of the shop; answers it as now active. */
  addScenario(scenario: ScenarioInput): Promise<ScenarioSummary>;
  removeScenario(name: string): Promise<void>;
  clearScenarios(): Promise<Success<typeof routes.simClearScenarios>>;
  /** The shop's journal, newest first. */
  requests(filter?: RequestFilter): Promise<JournalEntry[]>;
  /**
   * How many of the shop's journal entries pass the filter, e.g.
   * `expect(await control.count({ operation: "awardStamps", customerId })).toBe(1)`.
   */
  count(filter?: Omit<RequestFilter, "limit">): Promise<number>;
  /**
   * Waits until the filter selects `count` entries (default 1) and answers them, newest first;
   * throws a `SimulatorError` (`WAIT_TIMED_OUT`) naming how many matched and the newest entries
   * once `timeoutMs` (default 5000) has passed. For effects that come later: a webhook's job.
   * @example
   * await control.waitFor({ operation: "awardStamps", customerId, after: lastId }, { timeoutMs: 2000 });
   */
  waitFor(filter: Omit<RequestFilter, "limit">, options?: WaitOptions): Promise<JournalEntry[]>;
  /** The shop's journal entry of this id; a `SimulatorError` 404 once it is gone. */
  request(id: number): Promise<JournalEntry>;
  clearRequests(): Promise<void>;
  /** The shop's clock (each shop has its own). */
  clock(): Promise<ClockState>;
  setClock(change: ClockChange): Promise<ClockState>;
  /** A new isolated shop with its own credentials. */
  createShop(shop?: NewShop): Promise<ShopInfo>;
  shops(): Promise<ShopInfo[]>;
  /** Deletes the shop of `apiKey` and everything of it (the default shop cannot be deleted). */
  deleteShop(apiKey: string): Promise<void>;
  createCustomer(customer: NewCustomer): Promise<Customer>;
  /** Merges the customer `id` into `into`; answers the merged customer. */
  mergeCustomer(id: string, into: string): Promise<Customer>;
  /** Why the journal entry `id` got its answer: each check in order, down to the engine's reason. */
  why(id: number): Promise<WhyTrace>;
  /** The shop's customers whose id, email or name holds `q`, without the shop's secret. */
  findCustomers(query?: { q?: string; after?: string; limit?: number }): Promise<CustomerSearch>;
  /** One customer whole: codes grouped, a ledger page, what happens to them next. */
  customer(id: string, ledger?: { limit?: number; after?: string }): Promise<CustomerDetail>;
  /** The shop's next time-based events, soonest first. */
  upcoming(limit?: number): Promise<Upcoming>;
  /** The journal entries `filter` selects as a HAR 1.2 document. */
  har(filter?: Omit<RequestFilter, "limit"> & { limit?: number }): Promise<{ log: Record<string, unknown> }>;
  /**
   * Which outcomes of each operation the shop's requests met, and the writes sent again after
   * their answer was lost (docs/coverage.md). `shop`: another shop by id or API key, or `all`
   * for every shop summed.
   */
  coverage(options?: { shop?: string }): Promise<Success<typeof coverage.simGetCoverage>>;
  /** Forgets the coverage counts of the shop (`shop`: another, or `all`). */
  clearCoverage(options?: { shop?: string }): Promise<void>;
}

export interface ControlClientOptions {
  /** The shop to act on (the default shop without it). */
  apiKey?: string;
}

interface CallInput {
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

/** A small typed client of `/__sim`, over any fetch (in-process or a real URL). */
export function createControlClient(fetchFn: typeof fetch, origin: string, options: ControlClientOptions = {}): ControlClient {
  async function call<R extends RouteConfig>(route: R, input: CallInput = {}): Promise<Success<R>> {
    const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(input.params?.[name] ?? ""));
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(input.query ?? {})) if (v !== undefined) search.set(k, String(v));
    // Resolved from the root, so a URL with a path (such as the API's base URL) still finds /__sim.
    const url = new URL(`${path}${search.size ? `?${search}` : ""}`, origin);
    const method = route.method.toUpperCase();
    const headers: Record<string, string> = {};
    if (options.apiKey !== undefined) headers["X-Api-Key"] = options.apiKey;
    if (input.body !== undefined) headers["Content-Type"] = "application/json";
    const init = { method, headers, ...(input.body !== undefined && { body: JSON.stringify(input.body) }) };
    const res = await fetchFn(url.href, init).catch((error: unknown) => {
      throw unreachable(error, url);
    });
    const json = parseJson(await res.text());
    if (res.ok && (res.status === 204 || json !== undefined)) return json as Success<R>;
    throw failure(res, json, method, url);
  }
  return {
    health: () => call(routes.simHealth),
    reset: () => call(routes.simReset),
    scenarios: () => call(routes.simListScenarios).then((r) => r.scenarios),
    addScenario: (scenario) => call(routes.simAddScenario, { body: scenario }),
    removeScenario: (name) => call(routes.simDeleteScenario, { params: { name } }),
    clearScenarios: () => call(routes.simClearScenarios),
    requests: (filter = {}) => call(routes.simListRequests, { query: { ...filter } }).then((r) => r.requests),
    count: (filter = {}) => call(routes.simListRequests, { query: { ...filter, limit: 0 } }).then((r) => r.count),
    request: (id) => call(routes.simGetRequest, { params: { id: String(id) } }),
    waitFor: async (filter, waitOptions = {}) => {
      const ask = (wait: number, count: number) => call(routes.simListRequests, { query: { ...filter, wait, count } });
      const { answer, met } = await waitInTurns(ask, waitOptions);
      if (met) return answer.requests;
      const newest = answer.count === 0 ? await call(routes.simListRequests, { query: { limit: 3 } }).then((r) => r.requests) : [];
      const message = waitFailure(filter, waitOptions.count ?? 1, waitOptions.timeoutMs ?? DEFAULT_WAIT_MS, answer, newest);
      throw new SimulatorError(408, "WAIT_TIMED_OUT", message);
    },
    clearRequests: () => call(routes.simClearRequests),
    clock: () => call(routes.simGetClock),
    setClock: (change) => call(routes.simSetClock, { body: change }),
    createShop: (shop = {}) => call(routes.simCreateShop, { body: shop }),
    shops: () => call(routes.simListShops).then((r) => r.shops),
    deleteShop: (apiKey) => call(routes.simDeleteShop, { params: { apiKey } }),
    createCustomer: (customer) => call(routes.simCreateCustomer, { body: customer }),
    mergeCustomer: (id, into) => call(routes.simMergeCustomer, { params: { id }, body: { into } }),
    why: (id) => call(inspect.simWhyRequest, { params: { id: String(id) } }),
    findCustomers: (query = {}) => call(inspect.simSearchCustomers, { query }),
    customer: (id, ledger = {}) => call(inspect.simGetCustomer, { params: { id }, query: { ledgerLimit: ledger.limit, ledgerAfter: ledger.after } }),
    upcoming: (limit) => call(inspect.simUpcoming, { query: { limit } }),
    har: (filter = {}) => call(inspect.simExportHar, { query: { ...filter } }),
    coverage: (options = {}) => call(coverage.simGetCoverage, { query: { shop: options.shop } }),
    clearCoverage: (options = {}) => call(coverage.simClearCoverage, { query: { shop: options.shop } }),
  };
}

