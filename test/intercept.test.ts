/**
 * `sim.intercept()`: requests to production's origin through the global fetch, `node:https` and
 * axios are answered by the in-process simulator, faults arrive as each client's own network
 * errors (the same as against the CLI on a real port), and `restore()` lets requests go out again.
 */
import https from "node:https";
import { createServer } from "node:net";
import axios from "axios";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createSimulator, PRODUCTION_ORIGIN, type InProcessSimulator } from "../src/index.js";
import type { Fault } from "../src/scenarios/schema.js";

const AUTH = { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret" };
const API = `${PRODUCTION_ORIGIN}/rest_api/v1`;
/** What the malformed_json fault sends: a customer cut off mid-way. */
const CUT = '{"success":true,"data":{"id":"6677889900","firstName":"Ali';

interface Options {
  method?: string;
  body?: unknown;
  /** The client's own timeout, in ms. */
  timeoutMs?: number;
}
type Reply = { status: number; body: string };
type Client = (url: string, options?: Options) => Promise<Reply>;

const headersFor = (body: unknown) => ({ ...AUTH, ...(body !== undefined && { "Content-Type": "application/json" }) });

/** Three clients an app may use, each with its own way to give up. */
const CLIENTS: Record<"fetch" | "https" | "axios", Client> = {
  fetch: async (url, { method = "GET", body, timeoutMs } = {}) => {
    const res = await fetch(url, {
      method,
      headers: headersFor(body),
      ...(body !== undefined && { body: JSON.stringify(body) }),
      ...(timeoutMs !== undefined && { signal: AbortSignal.timeout(timeoutMs) }),
    });
    return { status: res.status, body: await res.text() };
  },
  https: (url, { method = "GET", body, timeoutMs } = {}) =>
    new Promise((resolve, reject) => {
      const req = https.request(url, { method, headers: headersFor(body), ...(timeoutMs !== undefined && { timeout: timeoutMs }) }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, body: text }));
        res.on("error", reject);
      });
      req.on("timeout", () => req.destroy());
      req.on("error", reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    }),
  axios: async (url, { method = "GET", body, timeoutMs } = {}) => {
    const res = await axios.request<string>({
      url,
      method,
      headers: headersFor(body),
      data: body,
      ...(timeoutMs !== undefined && { timeout: timeoutMs }),
      validateStatus: () => true,
      responseType: "text",
      transformResponse: (text: string) => text,
    });
    return { status: res.status, body: res.data };
  },
};

/** Each fault as that client raises it against a real server (see test/scenarios/faults.test.ts). */
const FAILURES = {
  fetch: {
    connection_reset: { name: "TypeError", message: "fetch failed", cause: { message: "read ECONNRESET", code: "ECONNRESET", syscall: "read" } },
    empty_response: { name: "TypeError", message: "fetch failed", cause: { name: "SocketError", message: "other side closed", code: "UND_ERR_SOCKET" } },
    timeout: { name: "TimeoutError", message: "The operation was aborted due to timeout" },
    refused: { name: "TypeError", message: "fetch failed", cause: { code: "ECONNREFUSED" } },
  },
  https: {
    connection_reset: { message: "read ECONNRESET", code: "ECONNRESET", syscall: "read" },
    empty_response: { message: "socket hang up", code: "ECONNRESET" },
    timeout: { message: "socket hang up", code: "ECONNRESET" },
    refused: { code: "ECONNREFUSED", syscall: "connect" },
  },
  axios: {
    connection_reset: { isAxiosError: true, message: "read ECONNRESET", code: "ECONNRESET" },
    empty_response: { isAxiosError: true, message: "socket hang up", code: "ECONNRESET" },
    timeout: { isAxiosError: true, message: "timeout of 50ms exceeded", code: "ECONNABORTED" },
    refused: { isAxiosError: true, code: "ECONNREFUSED" },
  },
} as const;

/** The rejection of a call that must fail. */
const failure = (call: Promise<Reply>) => call.then((reply) => expect.unreachable(`answered ${reply.status}`), (e: unknown) => e);

/** A local port nothing listens on: connecting to it is refused at once, with no network needed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let sim: InProcessSimulator;
let id: string;
const faultOn = (operation: "getShop" | "getCustomer", fault: Fault) => sim.control.addScenario({ name: fault, rules: [{ match: { operation }, times: 1, respond: { fault } }] });

beforeEach(() => {
  sim = createSimulator({ customers: 3, seed: 11 });
  id = sim.engine.defaultShop().store.data.customers.find((c) => !c.excluded && !c.mergedIntoCustomerId)!.id;
});
afterEach(() => sim.restore());

describe.each(Object.keys(CLIENTS) as (keyof typeof CLIENTS)[])("%s to production's origin", (name) => {
  const call = CLIENTS[name];
  beforeEach(() => void sim.intercept());

  it("is answered in-process: status, body, and the journal shows the request as sent", async () => {
    const before = sim.engine.defaultShop().store.data.customers.find((c) => c.id === id)!.balance;
    const res = await call(`${API}/customers/${id}/stamps/award?source=till`, { method: "POST", body: { stamps: 2, comment: "two" } });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ success: true, data: { customerId: id, stampChange: 2, stampBalance: before + 2 } });
    expect(await sim.control.requests()).toMatchObject([
      { method: "POST", path: `/rest_api/v1/customers/${id}/stamps/award`, operation: "awardStamps", customerId: id, query: { source: "till" }, requestBody: { stamps: 2, comment: "two" }, status: 200 },
    ]);
  });

  it("answers /__sim on the same origin", async () => {
    const res = await call(`${PRODUCTION_ORIGIN}/__sim/clock`);
    expect([res.status, Object.keys(JSON.parse(res.body)).sort()]).toEqual([200, ["frozen", "now"]]);
  });

  it("a forced error scenario: the error envelope and its status", async () => {
    await sim.control.addScenario({ name: "gone", rules: [{ match: { operation: "getCustomer" }, respond: { error: "CUSTOMER_NOT_FOUND" } }] });
    const res = await call(`${API}/customers/${id}`);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toMatchObject({ success: false, error: { code: "CUSTOMER_NOT_FOUND", statusCode: 404 } });
  });

  it.each(["connection_reset", "empty_response"] as const)("%s: the client's own network error, then the next call is answered", async (fault) => {
    await faultOn("getCustomer", fault);
    expect(await failure(call(`${API}/customers/${id}`))).toMatchObject(FAILURES[name][fault]);
    expect((await call(`${API}/customers/${id}`)).status).toBe(200);
    expect((await sim.control.requests()).map((r) => [r.status, r.fault])).toEqual([[200, null], [null, fault]]);
  });

  it("timeout: no answer until the client's own timeout gives up, and the simulator holds nothing after", async () => {
    await faultOn("getShop", "timeout");
    expect(await failure(call(`${API}/shop`, { timeoutMs: 50 }))).toMatchObject(FAILURES[name].timeout);
    // The held request ends when the client gives up: its journal entry is written then.
    await vi.waitFor(async () => expect(await sim.control.requests()).toMatchObject([{ operation: "getShop", status: null, fault: "timeout" }]));
  });

  it("malformed_json: a 200 with the cut-off body", async () => {
    await faultOn("getShop", "malformed_json");
    expect(await call(`${API}/shop`)).toEqual({ status: 200, body: CUT });
  });

  it("after restore() the request goes out again (to an origin that refuses it)", async () => {
    const origin = `https://127.0.0.1:${await closedPort()}`;
    const interception = sim.intercept(origin);
    expect((await call(`${origin}/rest_api/v1/shop`)).status).toBe(200);
    interception.restore();
    expect(await failure(call(`${origin}/rest_api/v1/shop`))).toMatchObject(FAILURES[name].refused);
    expect((await call(`${API}/shop`)).status).toBe(200); // the other origin stays intercepted
    sim.restore();
    expect(await failure(call(`${origin}/rest_api/v1/shop`))).toMatchObject(FAILURES[name].refused);
  });
});
