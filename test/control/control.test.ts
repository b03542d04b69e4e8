/**
 * The /__sim control API: health, reset, scenarios, the request journal, the clock, shops and
 * customers. Control calls choose their shop by X-Api-Key (the default shop without it).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseScenario } from "../../src/scenarios/load.js";
import { createTestSim, type CallResult, type TestSim } from "../support/sim.js";

const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
const TS = "2026-11-23T12:00:00+00:00";
const teapot = { status: 418 };
const active = (sim: TestSim) => sim.shop.store.data.customers.filter((c) => !c.excluded && !c.mergedIntoCustomerId).map((c) => c.id);
const errorOf = (res: CallResult) => [res.status, res.body.error.code, res.body.error.message];
const invalid = (res: CallResult) => {
  expect([res.status, res.body.error.code]).toEqual([422, "VALIDATION_ERROR"]);
  return res.body.error.details.map((d: { in: string; path: string; message: string }) => `${d.in} ${d.path}: ${d.message}`);
};

it("GET /__sim/health: status, the package version and uptime", async () => {
  const res = await createTestSim({ customers: 0 }).call("GET", "/__sim/health", { auth: false });
  expect(res.body).toStrictEqual({ status: "ok", version, uptimeMs: expect.any(Number) });
  expect(Number.isInteger(res.body.uptimeMs) && res.body.uptimeMs >= 0).toBe(true);
});

describe("POST /__sim/reset", () => {
  it("shops back to their seeded data, journal empty, rate windows cleared, start-up scenarios back, clock real", async () => {
    const sim = createTestSim({ access: { rateLimit: 3 }, scenarios: [parseScenario({ name: "start", rules: [{ match: { operation: "listTiers" }, respond: teapot }] }, "t")] });
    const seeded = JSON.stringify(createTestSim({ access: { rateLimit: 3 } }).shop.store.data);
    expect(JSON.stringify(sim.shop.store.data)).toBe(seeded);
    const [id] = active(sim);
    await sim.call("POST", `/customers/${id}/stamps/award`, { body: { stamps: 7 } });
    expect((await sim.call("GET", "/tiers", { unchecked: true })).status).toBe(418);
    expect((await sim.call("GET", "/shop")).status).toBe(200);
    expect((await sim.call("GET", "/shop", { unchecked: true })).status).toBe(429);
    await sim.call("POST", "/__sim/customers", { body: { firstName: "N", lastName: "N", email: "n@example.com" } });
    await sim.call("DELETE", "/__sim/scenarios/start");
    await sim.call("POST", "/__sim/scenarios", { body: { name: "runtime", rules: [{ respond: teapot }] } });
    await sim.call("POST", "/__sim/clock", { body: { set: "2030-01-01T00:00:00Z", frozen: true } });
    expect(JSON.stringify(sim.engine.shop("1")!.store.data)).not.toBe(seeded);

    expect((await sim.call("POST", "/__sim/reset", { auth: false })).body).toStrictEqual({ reset: true, shops: 1 });
    expect(JSON.stringify(sim.engine.shop("1")!.store.data)).toBe(seeded);
    expect((await sim.call("GET", "/__sim/requests")).body.requests).toEqual([]);
    expect((await sim.call("GET", "/__sim/clock")).body).toStrictEqual({ now: TS, frozen: false });
    const scenarios = (await sim.call("GET", "/__sim/scenarios")).body.scenarios;
    expect(scenarios.map((s: { name: string; rules: { hits: number; matches: number }[] }) => [s.name, s.rules[0]!.hits, s.rules[0]!.matches])).toEqual([["start", 0, 0]]);
    const shop = await sim.call("GET", "/shop");
    expect([shop.status, shop.headers.get("X-RateLimit-Remaining")]).toEqual([200, "2"]);
    expect((await sim.call("GET", "/tiers", { unchecked: true })).status).toBe(418);
  });
});

describe("/__sim/scenarios", () => {
  it("list with hit counts and remaining; add; delete by name; clear", async () => {
    const sim = createTestSim({ scenarios: [parseScenario({ name: "start", rules: [{ match: { operation: "listTiers" }, respond: teapot }] }, "t")] });
    const added = await sim.call("POST", "/__sim/scenarios", {
      body: { name: "two", description: "d", rules: [{ name: "r0", match: { operation: "getShop" }, times: 3, respond: teapot }, { match: { path: "/beacons" }, respond: { status: 409 } }] },
    });
    expect(added.status).toBe(201);
    for (let i = 0; i < 2; i++) await sim.call("GET", "/shop", { unchecked: true });
    await sim.call("GET", "/beacons", { unchecked: true });
    expect((await sim.call("GET", "/__sim/scenarios")).body.scenarios).toStrictEqual([
      {
        name: "two", description: "d", owner: "this shop",
        rules: [
          { index: 0, name: "r0", match: { operation: "getShop" }, respond: teapot, hits: 2, matches: 2, remaining: 1, spent: false },
          { index: 1, match: { path: "/beacons" }, respond: { status: 409 }, hits: 1, matches: 1, remaining: null, spent: false },
        ],
      },
      { name: "start", owner: "all shops", rules: [{ index: 0, match: { operation: "listTiers" }, respond: teapot, hits: 0, matches: 0, remaining: null, spent: false }] },
    ]);
    expect((await sim.call("DELETE", "/__sim/scenarios/two")).status).toBe(204);
    expect(errorOf(await sim.call("DELETE", "/__sim/scenarios/two"))).toEqual([404, "NOT_FOUND", "Scenario two is not active for this shop"]);
    expect((await sim.call("GET", "/shop")).status).toBe(200);
    await sim.call("POST", "/__sim/scenarios", { body: { name: "three", rules: [{ respond: teapot }] } });
    expect((await sim.call("DELETE", "/__sim/scenarios")).body).toStrictEqual({ removed: 2 });
    expect((await sim.call("GET", "/__sim/scenarios")).body.scenarios).toEqual([]);
    expect((await sim.call("GET", "/tiers")).status).toBe(200);
  });

  it("another shop's key sees, adds and clears only its own (start-up ones stay)", async () => {
    const sim = createTestSim({ customers: 2, scenarios: [parseScenario({ name: "start", rules: [{ match: { operation: "listTiers" }, respond: teapot }] }, "t")] });
    const b = (await sim.call("POST", "/__sim/shops", { body: {} })).body;
    const key = { "X-Api-Key": b.apiKey };
    await sim.call("POST", "/__sim/scenarios", { headers: key, body: { name: "mine", rules: [{ respond: teapot }] } });
    expect((await sim.call("GET", "/__sim/scenarios", { headers: key })).body.scenarios.map((s: { name: string }) => s.name)).toEqual(["mine", "start"]);
    expect((await sim.call("GET", "/__sim/scenarios")).body.scenarios.map((s: { name: string }) => s.name)).toEqual(["start"]);
    expect(errorOf(await sim.call("DELETE", "/__sim/scenarios/start", { headers: key }))).toEqual([404, "NOT_FOUND", "Scenario start is not active for this shop"]);
    expect((await sim.call("DELETE", "/__sim/scenarios", { headers: key })).body).toStrictEqual({ removed: 1 });
    expect((await sim.call("GET", "/__sim/scenarios", { headers: key })).body.scenarios.map((s: { name: string }) => s.name)).toEqual(["start"]);
    const unknown = await sim.call("GET", "/__sim/scenarios", { headers: { "X-Api-Key": "nope" } });
    expect(invalid(unknown)).toEqual(["header X-Api-Key: names no shop of this simulator (see GET /__sim/shops)"]);
  });
});

describe("/__sim/requests", () => {
  it("newest first, every field, the deciding rule, filters, clear", async () => {
    const sim = createTestSim({ scenarios: [parseScenario({ name: "s", rules: [{ name: "tp", match: { operation: "listTiers" }, respond: teapot }] }, "t")] });
    const [a, b] = active(sim) as [string, string];
    const award = await sim.call("POST", `/customers/${a}/stamps/award`, { body: { stamps: 3 } });
    await sim.call("GET", `/customers/${b}`);
    await sim.call("GET", "/customers/999");
    await sim.call("GET", "/tiers?x=1", { unchecked: true });
    await sim.call("GET", "/shop", { auth: false });
    const all = (await sim.call("GET", "/__sim/requests")).body.requests;
    expect(all.map((e: { method: string; path: string; status: number }) => `${e.method} ${e.path} ${e.status}`)).toEqual([
      "GET /rest_api/v1/shop 401",
      "GET /rest_api/v1/tiers 418",
      "GET /rest_api/v1/customers/999 404",
      `GET /rest_api/v1/customers/${b} 200`,
      `POST /rest_api/v1/customers/${a}/stamps/award 200`,
    ]);
    expect(all[4]).toStrictEqual({
      id: 1, requestId: "req_000001", at: TS, shopId: "1", method: "POST", path: `/rest_api/v1/customers/${a}/stamps/award`, api: "rest", graphql: null, operation: "awardStamps", customerId: a,
      query: {}, requestHeaders: { "content-type": "application/json", "x-api-key": "sim_key", "x-api-secret": "***" }, requestBody: { stamps: 3 },
      status: 200, fault: null,
      responseHeaders: { "x-request-id": "req_000001", "x-ratelimit-limit": "1000", "x-ratelimit-remaining": "999", "content-type": "application/json" },
      responseBody: award.body, committed: null, durationMs: expect.any(Number), decidedBy: "handler", scenario: null,
    });
    expect(all[1]).toMatchObject({
      operation: "listTiers", query: { x: "1" }, requestBody: null, status: 418, responseBody: null, decidedBy: "scenario", scenario: { scenario: "s", rule: 0, ruleName: "tp" },
      responseHeaders: { "x-request-id": "req_000004", "x-ratelimit-limit": "1000", "x-ratelimit-remaining": "996" },
    });
    expect(all[0]).toMatchObject({ shopId: null, operation: "getShop", decidedBy: "credentials", requestHeaders: {}, responseHeaders: { "x-request-id": "req_000005", "content-type": "application/json" } });
    const paths = async (query: string) =>
      (await sim.call("GET", `/__sim/requests?${query}`)).body.requests.map((e: { path: string }) => e.path.replace("/rest_api/v1", ""));
    expect(await paths("method=post")).toEqual([`/customers/${a}/stamps/award`]);
    expect(await paths("path=/customers/{id}")).toEqual(["/customers/999", `/customers/${b}`]);
    expect(await paths("path=/rest_api/v1/customers/{id}")).toEqual(["/customers/999", `/customers/${b}`]);
    expect(await paths("path=/customers/**")).toEqual(["/customers/999", `/customers/${b}`, `/customers/${a}/stamps/award`]);
    expect(await paths("status=404")).toEqual(["/customers/999"]);
    expect(await paths(`customerId=${a}`)).toEqual([`/customers/${a}/stamps/award`]);
    expect(await paths("limit=2")).toEqual(["/shop", "/tiers"]);
    const bad = await sim.call("GET", "/__sim/requests?status=abc&limit=-1");
    expect(invalid(bad)).toEqual(["query status: must be a whole number (digits only)", "query limit: must be a whole number (digits only)"]);
    expect((await sim.call("DELETE", "/__sim/requests")).status).toBe(204);
    expect((await sim.call("GET", "/__sim/requests")).body.requests).toEqual([]);
  });

  it("is bounded by journalSize, keeping the newest", async () => {
    const sim = createTestSim({ customers: 0, journalSize: 5 });
    for (let i = 0; i < 7; i++) await sim.call("GET", `/tiers/${(i % 4) + 1}`);
    const entries = (await sim.call("GET", "/__sim/requests")).body.requests;
    expect(entries.map((e: { id: number; path: string }) => `${e.id} ${e.path}`)).toEqual([7, 6, 5, 4, 3].map((n) => `${n} /rest_api/v1/tiers/${((n - 1) % 4) + 1}`));
  });
});

describe("/__sim/clock", () => {
  it("reads, advances, sets, freezes and unfreezes", async () => {
    const sim = createTestSim({ customers: 0 });
    const clock = (body?: object) => sim.call(body ? "POST" : "GET", "/__sim/clock", body ? { body } : {}).then((r) => r.body);
    expect(await clock()).toStrictEqual({ now: TS, frozen: true });
    expect(await clock({ advanceSeconds: 90 })).toStrictEqual({ now: "2026-11-23T12:01:30+00:00", frozen: true });
    expect(await clock({ advanceSeconds: -30.5 })).toStrictEqual({ now: "2026-11-23T12:00:59+00:00", frozen: true });
    expect(await clock({ set: "2027-02-01T08:00:00+01:00" })).toStrictEqual({ now: "2027-02-01T07:00:00+00:00", frozen: true });
    expect(await clock({ frozen: false })).toStrictEqual({ now: "2027-02-01T07:00:00+00:00", frozen: false });
    expect(sim.clock.now()).toBe(Date.parse("2027-02-01T07:00:00Z"));
  });

  it.each<[object, string]>([
    [{}, "body (root): needs advanceSeconds, set or frozen"],
    [{ advanceSeconds: "x" }, "body advanceSeconds: Invalid input: expected number, received string"],
    [{ set: "yesterday" }, "body set: Invalid ISO datetime"],
    [{ advanceSeconds: 1, set: "2027-01-01T00:00:00Z" }, "body set: takes advanceSeconds or set, not both"],
    [{ frozen: "no" }, "body frozen: Invalid input: expected boolean, received string"],
  ])("%j is 422 and leaves the clock", async (body, detail) => {
    const sim = createTestSim({ customers: 0 });
    expect(invalid(await sim.call("POST", "/__sim/clock", { body }))).toEqual([detail]);
    expect(sim.clock.now()).toBe(Date.parse(TS));
  });

  it("the shop's rate window reopens when time advances", async () => {
    const sim = createTestSim({ customers: 0, access: { rateLimit: 2 } });
    await sim.call("GET", "/shop");
    await sim.call("GET", "/shop");
    const limited = await sim.call("GET", "/shop");
    expect([limited.status, limited.headers.get("Retry-After")]).toEqual([429, "3600"]);
    await sim.call("POST", "/__sim/clock", { body: { advanceSeconds: 3599 } });
    expect((await sim.call("GET", "/shop")).headers.get("Retry-After")).toBe("1");
    await sim.call("POST", "/__sim/clock", { body: { advanceSeconds: 1 } });
    const reopened = await sim.call("GET", "/shop");
    expect([reopened.status, reopened.headers.get("X-RateLimit-Remaining")]).toEqual([200, "1"]);
  });

  it("a rolling expiry fires when time advances past it", async () => {
    const sim = createTestSim({ customers: 0 });
    const { id, stampsExpireAt } = (await sim.call("POST", "/__sim/customers", { body: { firstName: "E", lastName: "X", email: "e@example.com", stampBalance: 4 } })).body;
    expect(stampsExpireAt).toBe("2027-11-23T12:00:00+00:00");
    const balanceAfter = async (days: number) => {
      await sim.call("POST", "/__sim/clock", { body: { advanceSeconds: days * 86_400 } });
      return (await sim.call("GET", `/customers/${id}`)).body.data;
    };
    expect((await balanceAfter(364)).stampBalance).toBe(4);
    const after = await balanceAfter(2);
    expect([after.stampBalance, "stampsExpireAt" in after]).toEqual([0, false]);
    const [latest] = (await sim.call("GET", `/customers/${id}/activities`)).body.data;
    expect(latest).toMatchObject({ label: "4 stamps expired", stampChange: -4, createdAt: stampsExpireAt });
    expect(sim.shop.ledgerMismatches()).toEqual([]);
  });
});

describe("/__sim/shops", () => {
  it("creates a shop with credentials and options, and lists them", async () => {
    const sim = createTestSim({ customers: 3 });
    const b = await sim.call("POST", "/__sim/shops", { body: { seed: 99, customers: 4 } });
    expect(b.status).toBe(201);
    // `activities` is the ledger size; listing a customer's activities first settles any expired
    // stamps (an entry more), so the count is compared after walking the ledgers through the API.
    expect(b.body).toStrictEqual({ id: "2", apiKey: "sim_key_2", apiSecret: expect.stringMatching(/^sim_secret_[0-9a-f]{16}$/), seed: 99, customers: 4, activities: expect.any(Number), plan: "paid", apiAccess: true, rateLimit: 1000 });
    const ledgerSize = async (headers: Record<string, string> = {}) => {
      let n = 0;
      for (const c of (await sim.call("GET", "/customers?limit=1000", { headers })).body.data) n += (await sim.call("GET", `/customers/${c.id}/activities?limit=1&hasCount=true`, { headers })).body.meta.pagination.count;
      return n;
    };
    const [activitiesA, activitiesB] = [await ledgerSize(), await ledgerSize({ "X-Api-Key": "sim_key_2", "X-Api-Secret": b.body.apiSecret })];
    expect([activitiesA > 0, activitiesB >= b.body.activities]).toEqual([true, true]);
    const off = (await sim.call("POST", "/__sim/shops", { body: { rateLimit: "off" } })).body;
    expect([off.id, off.seed, off.customers, off.rateLimit]).toEqual(["3", 1, 3, null]);
    const listed = (await sim.call("GET", "/__sim/shops")).body.shops;
    expect(listed).toStrictEqual([{ id: "1", apiKey: "sim_key", apiSecret: "sim_secret", seed: 1, customers: 3, activities: activitiesA, plan: "paid", apiAccess: true, rateLimit: 1000 }, { ...b.body, activities: activitiesB }, off]);
    const res = await sim.call("GET", "/shop", { auth: false, headers: { "X-Api-Key": off.apiKey, "X-Api-Secret": off.apiSecret } });
    expect([res.status, res.headers.get("X-RateLimit-Limit")]).toEqual([200, null]);
    const bad = await sim.call("POST", "/__sim/shops", { body: { plan: "gold", customers: -1 } });
    expect(invalid(bad)).toEqual(["body customers: Too small: expected number to be >=0", 'body plan: Invalid option: expected one of "free"|"paid"']);
  });

  it.each<[object, number, string, string | null]>([
    [{ plan: "free" }, 403, "PLAN_UPGRADE_REQUIRED", "999"],
    [{ apiAccess: false }, 403, "API_ACCESS_DISABLED", "999"],
    [{ rateLimit: 1 }, 200, "", "0"],
  ])("options %j apply to the new shop only", async (options, status, code, remaining) => {
    const sim = createTestSim({ customers: 1 });
    const b = (await sim.call("POST", "/__sim/shops", { body: options })).body;
    const res = await sim.call("GET", "/shop", { auth: false, headers: { "X-Api-Key": b.apiKey, "X-Api-Secret": b.apiSecret } });
    expect([res.status, res.body.error?.code ?? "", res.headers.get("X-RateLimit-Remaining")]).toEqual([status, code, remaining]);
    expect((await sim.call("GET", "/shop")).headers.get("X-RateLimit-Remaining")).toBe("999");
  });

  it("a new shop is isolated on every endpoint, both ways", async () => {
    const sim = createTestSim({ customers: 5 });
    const b = (await sim.call("POST", "/__sim/shops", { body: { seed: 99, customers: 5 } })).body;
    const credsB = { "X-Api-Key": b.apiKey, "X-Api-Secret": b.apiSecret };
    const shopB = sim.engine.shop("2")!;
    const idA = active(sim)[0]!;
    const idB = shopB.store.data.customers.find((c) => !c.excluded && !c.mergedIntoCustomerId)!.id;
    shopB.awardStamps(idB, { stamps: 10 });
    const codeB = (await sim.call("POST", `/customers/${idB}/redemptions`, { headers: credsB, body: { reward_product_id: 101 } })).body.data.code;
    const codeIdB = shopB.store.codesOf(idB).find((c) => c.code === codeB)!.id;
    const before = JSON.stringify(sim.shop.store.data);
    const routes = (id: string, codeId: number): [string, string, object?][] => [
      ["GET", `/customers/${id}`], ["PATCH", `/customers/${id}`, { birthday_month: 1, birthday_day: 1 }], ["POST", `/customers/${id}/tier`, { tier_id: 2 }],
      ["POST", `/customers/${id}/stamps/award`, { stamps: 1 }], ["POST", `/customers/${id}/stamps/adjust`, { stamps: 1 }],
      ["POST", `/customers/${id}/activities`, { earn_rule_id: 201 }], ["GET", `/customers/${id}/activities`],
      ["POST", `/customers/${id}/redemptions`, { reward_product_id: 101 }], ["POST", `/customers/${id}/reward-grants`, { reward_product_id: 101 }],
      ["GET", `/customers/${id}/reward-codes`], ["POST", `/customers/${id}/reward-codes/${codeId}/use`], ["POST", `/customers/${id}/reward-codes/${codeId}/void`],
    ];
    for (const [method, path, body] of routes(idB, codeIdB)) {
      expect(errorOf(await sim.call(method, path, { body })), `${method} ${path}`).toEqual([404, "CUSTOMER_NOT_FOUND", `Customer ${idB} not found`]);
    }
    expect(JSON.stringify(sim.shop.store.data)).toBe(before);
    const beforeB = JSON.stringify(shopB.store.data);
    for (const [method, path, body] of routes(idA, codeIdB)) {
      expect(errorOf(await sim.call(method, path, { body, headers: credsB })), `${method} ${path}`).toEqual([404, "CUSTOMER_NOT_FOUND", `Customer ${idA} not found`]);
    }
    expect(JSON.stringify(shopB.store.data)).toBe(beforeB);
    const listA = (await sim.call("GET", "/customers?limit=100")).body.data.map((c: { id: string }) => c.id);
    const listB = (await sim.call("GET", "/customers?limit=100", { headers: credsB })).body.data.map((c: { id: string }) => c.id);
    expect(listA).toEqual(sim.shop.store.data.customers.map((c) => c.id));
    expect(listB).toEqual(shopB.store.data.customers.map((c) => c.id));
    expect(listA.filter((id: string) => listB.includes(id))).toEqual([]);
    const journalB = (await sim.call("GET", "/__sim/requests", { headers: { "X-Api-Key": b.apiKey } })).body.requests;
    expect(journalB.length).toBe(14);
    expect((await sim.call("GET", "/__sim/requests")).body.requests.length).toBe(13);
  });
});

describe("/__sim/customers", () => {
  it("creates a customer as if synced: 201, listed last, an imported balance with its ledger entry", async () => {
    const sim = createTestSim({ customers: 3 });
    const res = await sim.call("POST", "/__sim/customers", { body: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", id: "42", dateOfBirth: "10-12", stampBalance: 40 } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: "42", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", stampBalance: 40, cards: 4, dateOfBirth: "10-12", state: "active" });
    const list = (await sim.call("GET", "/customers?limit=100")).body.data;
    expect([list.length, list.at(-1).id]).toEqual([4, "42"]);
    expect((await sim.call("GET", "/customers/42/activities")).body.data).toStrictEqual([{ id: expect.any(String), label: "Stamps adjusted by the shop", stampChange: 40, createdAt: TS }]);
    const plain = (await sim.call("POST", "/__sim/customers", { body: { firstName: "B", lastName: "C", email: "b@example.com" } })).body;
    expect([plain.stampBalance, sim.shop.store.activitiesOf(plain.id).length]).toEqual([0, 0]);
    expect(invalid(await sim.call("POST", "/__sim/customers", { body: { firstName: "", email: "x", dateOfBirth: "31-13", id: "abc" } }))).toEqual([
      "body id: must be 1 to 20 digits",
      "body firstName: Too small: expected string to have >=1 characters",
      "body lastName: is required",
      "body email: Invalid email address",
      "body dateOfBirth: must be dd-mm",
    ]);
    expect(invalid(await sim.call("POST", "/__sim/customers", { body: { firstName: "A", lastName: "B", email: "a@example.com", id: "42" } }))).toEqual(["body id: customer 42 already exists"]);
  });

  it("merge moves the balance, marks mergedIntoCustomerId and refuses changes afterwards", async () => {
    const sim = createTestSim();
    const [a, b] = active(sim) as [string, string];
    sim.shop.awardStamps(a, { stamps: 7 });
    const balanceOf = async (id: string) => (await sim.call("GET", `/customers/${id}`)).body.data.stampBalance as number;
    const [balA, balB] = [await balanceOf(a), await balanceOf(b)];
    expect(balA).toBeGreaterThanOrEqual(7);
    const merged = await sim.call("POST", `/__sim/customers/${a}/merge`, { body: { into: b } });
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({ id: a, stampBalance: 0, mergedIntoCustomerId: b });
    expect(await balanceOf(b)).toBe(balA + balB);
    const refused = await sim.call("POST", `/customers/${a}/stamps/award`, { body: { stamps: 1 } });
    expect(errorOf(refused)).toEqual([422, "ACTIVITY_NOT_AWARDED", `Customer ${a} was merged into customer ${b}; use that customer instead`]);
    expect(errorOf(await sim.call("POST", "/__sim/customers/999/merge", { body: { into: b } }))).toEqual([404, "CUSTOMER_NOT_FOUND", "Customer 999 not found"]);
    expect(errorOf(await sim.call("POST", `/__sim/customers/${b}/merge`, { body: { into: "999" } }))).toEqual([404, "CUSTOMER_NOT_FOUND", "Customer 999 not found"]);
    expect(invalid(await sim.call("POST", `/__sim/customers/${b}/merge`, { body: { into: b } }))).toEqual(["body into: a customer cannot be merged into itself"]);
    expect(sim.shop.ledgerMismatches()).toEqual([]);
  });
});
