/**
 * A simulator for tests, built by the same `buildSimulator` as the CLI: fixed clock, seeded shop,
 * and a `call` helper that goes through `app.request()` like a client and checks every response
 * against the OpenAPI document. With LOYALTY_SIM_TEST_TRANSPORT=socket (vitest's "api-over-socket"
 * project), `call` goes over a real port instead, through the Node server the CLI runs.
 * @module
 */
import { afterAll, expect } from "vitest";
import { parseConfig } from "../../src/config.js";
import { fixedClock, type SimClock } from "../../src/engine/clock.js";
import type { ShopSpec } from "../../src/engine/engine.js";
import { DomainError } from "../../src/engine/errors.js";
import type { Scenario } from "../../src/scenarios/schema.js";
import { serve } from "../../src/simulator/server.js";
import { buildSimulator, defaultShopSpec } from "../../src/simulator/simulator.js";
import type { Program, ShopAccess } from "../../src/store/types.js";
import { assertMatchesContract } from "./openapi-check.js";

/** Tests run at this instant unless they move the clock. */
export const NOW = Date.parse("2026-11-23T12:00:00Z");
/** NOW as the API writes it. */
export const NOW_ISO = "2026-11-23T12:00:00+00:00";
export const BASE = "/rest_api/v1";
export const AUTH = { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret" };

export interface TestSimOptions {
  customers?: number;
  seed?: number;
  /** Changes to the default program (its own copy, read from the fixture file). */
  program?: (program: Program) => void;
  access?: Partial<ShopAccess>;
  now?: number;
  /** Scenarios loaded at start (they apply to every shop); `seed` also seeds their random draws. */
  scenarios?: Scenario[];
  /** Global latency of every API request, in ms or [min, max]. */
  latency?: number | [number, number];
  /** Entries the request journal keeps. */
  journalSize?: number;
}

export interface CallResult {
  status: number;
  headers: Headers;
  // Tests read into bodies freely; the contract check has already vouched for their shape.
  body: any;
}

/** The options as the simulator's config; 20 customers and seed 1 unless given. */
function configOf(options: TestSimOptions) {
  return parseConfig({
    port: 0,
    logLevel: "silent",
    customers: options.customers ?? 20,
    seed: options.seed ?? 1,
    ...(options.latency !== undefined && { latency: Array.isArray(options.latency) ? options.latency.join("-") : options.latency }),
    ...(options.journalSize !== undefined && { journalSize: options.journalSize }),
  });
}

/** The options' changes to the default shop. */
const shopChanges = (options: TestSimOptions) => (spec: ShopSpec) => {
  options.program?.(spec.program);
  Object.assign(spec.access, options.access);
};

export function defaultSpec(options: TestSimOptions = {}): ShopSpec {
  const spec = defaultShopSpec(configOf(options));
  shopChanges(options)(spec);
  return spec;
}

/** Whether `call` goes over a real port (vitest's "api-over-socket" project). */
const overSocket = process.env.LOYALTY_SIM_TEST_TRANSPORT === "socket";
const servers: Promise<{ close(): Promise<void> }>[] = [];
afterAll(async () => {
  for (const server of servers.splice(0)) await (await server).close();
});

export function createTestSim(options: TestSimOptions = {}) {
  const bugs: unknown[] = [];
  const config = configOf(options);
  const built = buildSimulator(config, {
    // Every shop's clock, the ones made by POST /__sim/shops included, starts stopped at `now`.
    newClock: () => fixedClock(options.now ?? NOW),
    defaultShop: shopChanges(options),
    onBug: (e) => bugs.push(e),
    ...(options.scenarios !== undefined && { scenarios: options.scenarios }),
    // As the CLI listens on 127.0.0.1.
    ...(overSocket && { loopbackHostsOnly: true }),
  });
  const { app, engine, shop, registry, journal, limiter, events } = built;
  /** The default shop's clock. */
  const clock: SimClock = shop.clock;
  const served = overSocket ? serve(built, config) : undefined;
  if (served) servers.push(served);
  const send = async (url: string, init: RequestInit): Promise<Response> => (served ? fetch(`${(await served).url}${url}`, init) : app.request(url, init));

  async function call(
    method: string,
    path: string,
    /** `unchecked`: skip the contract check and the 5xx guard (for forced or raw answers). */
    init: { body?: unknown; rawBody?: string; headers?: Record<string, string>; auth?: boolean; unchecked?: boolean } = {},
  ): Promise<CallResult> {
    const headers: Record<string, string> = { ...(init.auth === false ? {} : AUTH), ...init.headers };
    let body: string | undefined = init.rawBody;
    if (init.body !== undefined) {
      body = JSON.stringify(init.body);
      headers["Content-Type"] ??= "application/json";
    }
    const url = path.startsWith("/") && !path.startsWith(BASE) && !path.startsWith("/__") && !path.startsWith("/doc") && !path.startsWith("/openapi") ? `${BASE}${path}` : path;
    const res = await send(url, { method, headers, ...(body !== undefined && { body }) });
    const text = await res.text();
    const json = text && res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text;
    const pathname = new URL(url, "http://sim").pathname;
    if (init.unchecked) return { status: res.status, headers: res.headers, body: json };
    const forced = Object.keys(headers).some((name) => name.toLowerCase() === "prefer");
    assertMatchesContract(method, pathname, res.status, json, { forced });
    if (res.status >= 500) throw new Error(`${method} ${url} -> ${res.status}: ${text} ${String(bugs[0])}`);
    return { status: res.status, headers: res.headers, body: json };
  }

  /** A customer id by creation position, and one that is active (not removed or merged). */
  const customers = shop.store.data.customers;
  const activeCustomer = (minBalance = 0) => {
    const found = customers.find((c) => !c.excluded && c.mergedIntoCustomerId === undefined && c.balance >= minBalance);
    if (!found) throw new Error(`no active customer with ${minBalance} stamps in this seed`);
    return found.id;
  };

  return { app, engine, shop, clock, call, bugs, activeCustomer, registry, journal, limiter, events };
}

export type TestSim = ReturnType<typeof createTestSim>;

/** The exact error envelope of a response, at NOW. */
export function expectError(res: CallResult, status: number, code: string, message: string): void {
  expect(res.status).toBe(status);
  expect(res.body).toStrictEqual({ success: false, error: { message, code, statusCode: status }, timestamp: NOW_ISO });
}

/** The DomainError an engine call throws; fails the test when the call succeeds. */
export function refusal(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error("expected a DomainError, but the call succeeded");
}
