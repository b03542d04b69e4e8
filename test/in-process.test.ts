/**
 * The library API for test suites: `createSimulator` (no port), `startSimulator` (an ephemeral
 * port), the typed `hono/client` client and the control client.
 */
import { connect } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, createControlClient, createSimulator, IN_PROCESS_ORIGIN, SimulatorError, startSimulator, type Customer, type RunningSimulator, type StampResult } from "../src/index.js";

const auth = (sim: { apiKey: string; apiSecret: string }) => ({ "X-Api-Key": sim.apiKey, "X-Api-Secret": sim.apiSecret });
const json = { "Content-Type": "application/json" };
/** Seeded customers that can take stamps (not removed, not merged), oldest first. */
const activeIds = (sim: { engine: ReturnType<typeof createSimulator>["engine"] }, shopId = "1") =>
  sim.engine.shop(shopId)!.store.data.customers.filter((c) => !c.excluded && !c.mergedIntoCustomerId).map((c) => c.id);
/** The balance as the API shows it (a read applies due expiries first). */
async function balanceOf(sim: { baseUrl: string; apiKey: string; apiSecret: string; fetch?: typeof fetch }, id: string): Promise<number> {
  const res = await (sim.fetch ?? fetch)(`${sim.baseUrl}/customers/${id}`, { headers: auth(sim) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { stampBalance: number } }).data.stampBalance;
}

setFlagsFromString("--expose-gc");
/** A full garbage collection, as `node --expose-gc` offers it. */
const gc = runInNewContext("gc") as () => void;

/** Resolves true when something accepts a TCP connection on the port. */
const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });

describe("createSimulator", () => {
  it("returns the app, a fetch, the engine, a control client and the credentials, with no port", async () => {
    const sim = createSimulator({ customers: 4, seed: 5 });
    expect(Object.keys(sim).sort()).toEqual(["apiKey", "apiSecret", "app", "baseUrl", "control", "engine", "fetch", "graphqlUrl", "intercept", "restore"]);
    expect([sim.apiKey, sim.apiSecret, sim.baseUrl, sim.graphqlUrl]).toEqual(["sim_key", "sim_secret", `${IN_PROCESS_ORIGIN}/rest_api/v1`, `${IN_PROCESS_ORIGIN}/graphql`]);
    expect(sim.engine.defaultShop().store.customerCount).toBe(4);
    const viaApp = await sim.app.request("/rest_api/v1/shop", { headers: auth(sim) });
    expect(viaApp.status).toBe(200);
  });

  it.each([
    ["a relative path", "/rest_api/v1/shop"],
    ["the base URL", `${IN_PROCESS_ORIGIN}/rest_api/v1/shop`],
    ["any other origin", "http://example.test/rest_api/v1/shop"],
  ])("fetch takes %s", async (_, url) => {
    const sim = createSimulator({ customers: 1 });
    const res = await sim.fetch(url, { headers: auth(sim) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { programName: string } }).data.programName).toBe("Crumb & Bean Rewards");
  });

  it("fetch takes a URL object and a Request, and sends bodies", async () => {
    const sim = createSimulator({ customers: 2 });
    const id = activeIds(sim)[0]!;
    const before = await balanceOf(sim, id);
    expect((await sim.fetch(new URL(`${sim.baseUrl}/shop`), { headers: auth(sim) })).status).toBe(200);
    const req = new Request(`${sim.baseUrl}/customers/${id}/stamps/award`, { method: "POST", headers: { ...auth(sim), ...json }, body: JSON.stringify({ stamps: 4 }) });
    const res = await sim.fetch(req);
    expect(await res.json()).toMatchObject({ success: true, data: { customerId: id, stampChange: 4, stampBalance: before + 4 } });
    const unauth = await sim.fetch("/rest_api/v1/shop");
    expect([unauth.status, ((await unauth.json()) as { error: { code: string } }).error.code]).toEqual([401, "UNAUTHORIZED"]);
  });

  it("the typed client calls the API through sim.fetch", async () => {
    const sim = createSimulator({ customers: 3 });
    const client = createClient({ origin: IN_PROCESS_ORIGIN, apiKey: sim.apiKey, apiSecret: sim.apiSecret, fetch: sim.fetch });
    const list = await client.rest_api.v1.customers.$get({ query: { limit: "2", hasCount: "true" } });
    const page = await list.json();
    if (!page.success) throw new Error(page.error.message);
    expect(page.data).toHaveLength(2);
    expect(page.meta.pagination.count).toBe(3);
    const id = activeIds(sim)[0]!;
    const one = await client.rest_api.v1.customers[":id"].$get({ param: { id } });
    if (one.status !== 200) throw new Error(`status ${one.status}`);
    const customer: Customer = (await one.json()).data;
    expect(customer.id).toBe(id);
    const award = await client.rest_api.v1.customers[":id"].stamps.award.$post({ param: { id }, json: { stamps: 3, comment: "typed" } });
    if (award.status !== 200) throw new Error(`status ${award.status}`);
    const result: StampResult = (await award.json()).data;
    expect(result).toEqual({ customerId: id, stampChange: 3, stampBalance: customer.stampBalance + 3 });
    const missing = await client.rest_api.v1.customers[":id"].$get({ param: { id: "404404" } });
    if (missing.status !== 404) throw new Error(`status ${missing.status}`);
    expect((await missing.json()).error.code).toBe("CUSTOMER_NOT_FOUND");
    // @ts-expect-error stamps is a number: the client is typed from the routes
    await client.rest_api.v1.customers[":id"].stamps.award.$post({ param: { id }, json: { stamps: "3" } });
    // @ts-expect-error no such route
    expect(client.rest_api.v1.orders).toBeTypeOf("function");
  });

  it("the control client resets, scripts scenarios, reads the journal, moves the clock and makes shops and customers", async () => {
    const sim = createSimulator({ customers: 3 });
    const { control } = sim;
    const [a, b] = activeIds(sim) as [string, string];
    const seeded = await balanceOf(sim, a);
    await sim.fetch(`/rest_api/v1/customers/${a}/stamps/award`, { method: "POST", headers: { ...auth(sim), ...json }, body: JSON.stringify({ stamps: 9 }) });
    expect(await balanceOf(sim, a)).toBe(seeded + 9);
    expect(await control.reset()).toEqual({ reset: true, shops: 1 });
    expect(await balanceOf(sim, a)).toBe(seeded);

    await control.addScenario({ name: "no-shop", rules: [{ match: { operation: "getShop" }, times: 1, respond: { error: "INTERNAL_ERROR" } }] });
    expect((await sim.fetch("/rest_api/v1/shop", { headers: auth(sim) })).status).toBe(500);
    expect((await sim.fetch("/rest_api/v1/shop", { headers: auth(sim) })).status).toBe(200);
    const journal = await control.requests({ path: "/shop" });
    expect(journal.map((r) => [r.method, r.path, r.status])).toEqual([
      ["GET", "/rest_api/v1/shop", 200],
      ["GET", "/rest_api/v1/shop", 500],
    ]);
    expect(journal[1]!.scenario).toEqual({ scenario: "no-shop", rule: 0 });

    expect(await control.setClock({ set: "2027-01-01T00:00:00Z", frozen: true })).toEqual({ now: "2027-01-01T00:00:00+00:00", frozen: true });
    expect(await control.setClock({ advanceSeconds: 90 })).toEqual({ now: "2027-01-01T00:01:30+00:00", frozen: true });

    const created = await control.createCustomer({ firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", id: "123456789", stampBalance: 12 });
    expect(created).toMatchObject({ id: "123456789", stampBalance: 12 });
    expect(await control.mergeCustomer(b, "123456789")).toMatchObject({ id: b, mergedIntoCustomerId: "123456789" });
    const shop = await control.createShop({ customers: 2, seed: 4 });
    expect(shop).toMatchObject({ id: "2", apiKey: "sim_key_2", seed: 4, customers: 2 });
    expect((await control.shops()).map((s) => s.id)).toEqual(["1", "2"]);
  });

  it.each([
    ["an unknown customer to merge", (c: ReturnType<typeof createSimulator>["control"]) => c.mergeCustomer("404404", "1"), 404, "CUSTOMER_NOT_FOUND"],
    ["a customer id that exists", (c: ReturnType<typeof createSimulator>["control"], id: string) => c.createCustomer({ id, firstName: "A", lastName: "B", email: "a@b.co" }), 422, "VALIDATION_ERROR"],
    ["an invalid scenario", (c: ReturnType<typeof createSimulator>["control"]) => c.addScenario({ name: "x", rules: [] }), 422, "VALIDATION_ERROR"],
    ["a scenario that is not active", (c: ReturnType<typeof createSimulator>["control"]) => c.removeScenario("nope"), 404, "NOT_FOUND"],
  ])("control errors are SimulatorErrors with the envelope's status and code: %s", async (_, call, status, code) => {
    const sim = createSimulator({ customers: 2 });
    const error = await call(sim.control, activeIds(sim)[0]!).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(SimulatorError);
    expect(error).toMatchObject({ name: "SimulatorError", status, code });
    expect((error as SimulatorError).message).not.toBe("");
  });

  describe("network faults through sim.fetch behave as a real fetch's", () => {
    const faulty = async (fault: "connection_reset" | "empty_response" | "malformed_json" | "timeout") => {
      const sim = createSimulator({ customers: 1 });
      await sim.control.addScenario({ name: fault, rules: [{ match: { operation: "getShop" }, times: 1, respond: { fault } }] });
      return sim;
    };

    it.each([
      ["connection_reset", "ECONNRESET"],
      ["empty_response", "UND_ERR_SOCKET"],
    ] as const)("%s rejects with TypeError fetch failed, cause %s", async (fault, code) => {
      const sim = await faulty(fault);
      const error = await sim.fetch("/rest_api/v1/shop", { headers: auth(sim) }).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect(error).toMatchObject({ message: "fetch failed", cause: { code } });
      expect((await sim.fetch("/rest_api/v1/shop", { headers: auth(sim) })).status).toBe(200);
    });

    it("timeout waits for the caller's signal and rejects with its reason, even after a garbage collection", async () => {
      const sim = await faulty("timeout");
      const controller = new AbortController();
      const reason = new Error("client gave up");
      const held = sim.fetch("/rest_api/v1/shop", { headers: auth(sim), signal: controller.signal });
      await new Promise((r) => setTimeout(r, 10));
      gc(); // nothing but the caller's signal may be left to reach the waiting request
      controller.abort(reason);
      await expect(held).rejects.toBe(reason);
      await sim.control.addScenario({ name: "again", rules: [{ match: { operation: "getShop" }, times: 1, respond: { fault: "timeout" } }] });
      await expect(sim.fetch("/rest_api/v1/shop", { headers: auth(sim), signal: AbortSignal.timeout(20) })).rejects.toMatchObject({ name: "TimeoutError" });
    });

    it("an abort rejects with the signal's reason as a real fetch does: before the call, or during a delay", async () => {
      const sim = createSimulator({ customers: 1 });
      await expect(sim.fetch("/rest_api/v1/shop", { headers: auth(sim), signal: AbortSignal.abort(new Error("already")) })).rejects.toThrow("already");
      await sim.control.addScenario({ name: "slow", rules: [{ match: { operation: "getShop" }, respond: { delayMs: 10_000 } }] });
      // Not aborted, the delay would end in a 200 and the promise resolve.
      await expect(sim.fetch("/rest_api/v1/shop", { headers: auth(sim), signal: AbortSignal.timeout(30) })).rejects.toMatchObject({ name: "TimeoutError" });
    });

    it("malformed_json resolves 200 with a body that does not parse", async () => {
      const sim = await faulty("malformed_json");
      const res = await sim.fetch("/rest_api/v1/shop", { headers: auth(sim) });
      expect([res.status, res.headers.get("content-type")]).toEqual([200, "application/json"]);
      await expect(res.json()).rejects.toBeInstanceOf(SyntaxError);
    });
  });
});

describe("startSimulator", () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ customers: 5, seed: 2, rateLimit: "off" });
  });
  afterAll(() => sim.close());

  it("listens on an ephemeral port and hands out its URLs and credentials", async () => {
    expect(sim.port).toBeGreaterThan(0);
    expect(sim.port).not.toBe(4747);
    expect([sim.url, sim.baseUrl, sim.apiKey, sim.apiSecret]).toEqual([`http://127.0.0.1:${sim.port}`, `http://127.0.0.1:${sim.port}/rest_api/v1`, "sim_key", "sim_secret"]);
    const res = await fetch(`${sim.baseUrl}/customers?hasCount=true`, { headers: auth(sim) });
    expect(((await res.json()) as { meta: { pagination: { count: number } } }).meta.pagination.count).toBe(5);
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
    expect(await sim.control.health()).toMatchObject({ status: "ok" });
  });

  it("reset() puts every shop back to its seeded state", async () => {
    const id = activeIds(sim)[0]!;
    const seeded = await balanceOf(sim, id);
    const res = await fetch(`${sim.baseUrl}/customers/${id}/stamps/award`, { method: "POST", headers: { ...auth(sim), ...json }, body: JSON.stringify({ stamps: 6 }) });
    expect(((await res.json()) as { data: { stampBalance: number } }).data.stampBalance).toBe(seeded + 6);
    await sim.reset();
    expect(await balanceOf(sim, id)).toBe(seeded);
  });

  it("two simulators run side by side, each with its own state; close() frees the port", async () => {
    const other = await startSimulator({ customers: 5, seed: 2, apiKey: "k2", apiSecret: "s2" });
    expect(other.port).not.toBe(sim.port);
    const id = activeIds(other)[0]!;
    expect(activeIds(sim)[0]).toBe(id);
    const before = await balanceOf(sim, id);
    const res = await fetch(`${other.baseUrl}/customers/${id}/stamps/award`, { method: "POST", headers: { ...auth(other), ...json }, body: JSON.stringify({ stamps: 2 }) });
    expect(res.status).toBe(200);
    expect([await balanceOf(other, id), await balanceOf(sim, id)]).toEqual([before + 2, before]);
    expect((await fetch(`${sim.baseUrl}/shop`, { headers: auth(other) })).status).toBe(401);
    await other.close();
    expect(await accepts(other.port)).toBe(false);
    await other.close(); // a second close is harmless
    expect(await accepts(sim.port)).toBe(true);
  });

  it("close() does not wait for a request held by a timeout fault", async () => {
    const other = await startSimulator({ customers: 1 });
    await other.control.addScenario({ name: "hang", rules: [{ match: { operation: "getShop" }, respond: { fault: "timeout" } }] });
    const held = fetch(`${other.baseUrl}/shop`, { headers: auth(other) }).then(() => "answered", () => "failed");
    await new Promise((r) => setTimeout(r, 50));
    await other.close();
    expect(await held).toBe("failed");
    expect(await accepts(other.port)).toBe(false);
  });

  it("a test file takes an isolated shop: control.createShop, then clients with its credentials", async () => {
    const mine = await sim.control.createShop({ customers: 3, seed: 11 });
    const client = createClient({ origin: sim.url, apiKey: mine.apiKey, apiSecret: mine.apiSecret });
    const list = await client.rest_api.v1.customers.$get({ query: { hasCount: "true" } });
    if (!list.ok) throw new Error(`status ${list.status}`);
    const page = await list.json();
    expect(page.meta.pagination.count).toBe(3);
    const id = page.data[0]!.id;
    await client.rest_api.v1.customers[":id"].stamps.award.$post({ param: { id }, json: { stamps: 5 } });
    expect(await balanceOf({ baseUrl: sim.baseUrl, ...mine }, id)).toBe(page.data[0]!.stampBalance + 5);
    // Its scenarios and journal are its own.
    const control = createControlClient(fetch, sim.url, { apiKey: mine.apiKey });
    await control.addScenario({ name: "mine", rules: [{ match: { operation: "getShop" }, respond: { error: "API_ACCESS_DISABLED" } }] });
    expect((await client.rest_api.v1.shop.$get()).status).toBe(403);
    expect((await fetch(`${sim.baseUrl}/shop`, { headers: auth(sim) })).status).toBe(200);
    expect((await control.requests()).map((r) => [r.method, r.path, r.status])).toEqual([
      ["GET", "/rest_api/v1/shop", 403],
      ["GET", `/rest_api/v1/customers/${id}`, 200],
      ["POST", `/rest_api/v1/customers/${id}/stamps/award`, 200],
      ["GET", "/rest_api/v1/customers", 200],
    ]);
  });
});
