import { describe, expect, it } from "vitest";
import { assertMatchesContract } from "../support/openapi-check.js";
import { BASE, createTestSim, type CallResult, expectError } from "../support/sim.js";

const TS = "2026-11-23T12:00:00+00:00";
const HOUR = 3_600_000;

const quota = (res: CallResult) => [res.headers.get("X-RateLimit-Limit"), res.headers.get("X-RateLimit-Remaining")];

describe("credentials", () => {
  it.each([
    ["no headers at all", {}],
    ["a missing key", { "X-Api-Secret": "sim_secret" }],
    ["a missing secret", { "X-Api-Key": "sim_key" }],
    ["a wrong secret", { "X-Api-Key": "sim_key", "X-Api-Secret": "nope" }],
    ["an unknown key", { "X-Api-Key": "other_key", "X-Api-Secret": "sim_secret" }],
    ["empty values", { "X-Api-Key": "", "X-Api-Secret": "" }],
    ["a secret differing in case", { "X-Api-Key": "sim_key", "X-Api-Secret": "SIM_SECRET" }],
  ])("%s is 401 UNAUTHORIZED without quota headers, and spends no quota", async (_, headers) => {
    const sim = createTestSim();
    for (const path of ["/shop", "/customers/1", "/no-such-route"]) {
      const res = await sim.call("GET", path, { auth: false, headers });
      expectError(res, 401, "UNAUTHORIZED", "Invalid API credentials");
      expect(quota(res)).toEqual([null, null]);
      expect(res.headers.get("Retry-After")).toBeNull();
    }
    const post = await sim.call("POST", `/customers/${sim.activeCustomer()}/stamps/award`, { auth: false, headers, body: { stamps: 5 } });
    expectError(post, 401, "UNAUTHORIZED", "Invalid API credentials");
    expect(quota(await sim.call("GET", "/shop"))).toEqual(["1000", "999"]);
    expect(sim.shop.ledgerMismatches()).toEqual([]);
  });

  it("the right credentials work", async () => {
    const sim = createTestSim({ access: { apiKey: "k2", apiSecret: "s2" } });
    expect((await sim.call("GET", "/shop", { auth: false, headers: { "X-Api-Key": "k2", "X-Api-Secret": "s2" } })).status).toBe(200);
    expect((await sim.call("GET", "/shop")).status).toBe(401);
  });
});

describe("shop access", () => {
  it.each([
    [{ apiAccess: false }, "API_ACCESS_DISABLED", "API access is not enabled for this shop; ask for it to be enabled"],
    [{ plan: "free" as const }, "PLAN_UPGRADE_REQUIRED", "The REST API is available on paid plans only; upgrade the shop's plan"],
    [{ apiAccess: false, plan: "free" as const }, "API_ACCESS_DISABLED", "API access is not enabled for this shop; ask for it to be enabled"],
  ])("%j is 403 %s on every route, with quota headers, changing nothing", async (access, code, message) => {
    const sim = createTestSim({ access });
    const id = sim.activeCustomer();
    const balance = sim.shop.store.customer(id)!.balance;
    const calls: [string, string, object?][] = [
      ["GET", "/shop"],
      ["GET", `/customers/${id}`],
      ["POST", `/customers/${id}/stamps/award`, { stamps: 5 }],
      ["GET", "/no-such-route"],
    ];
    for (const [i, [method, path, body]] of calls.entries()) {
      const res = await sim.call(method, path, { body });
      expectError(res, 403, code, message);
      expect(quota(res)).toEqual(["1000", String(999 - i)]);
    }
    expect(sim.shop.store.customer(id)!.balance).toBe(balance);
    expectError(await sim.call("GET", "/shop", { auth: false }), 401, "UNAUTHORIZED", "Invalid API credentials");
  });
});

describe("rate limit", () => {
  it("every authenticated response carries the quota headers, errors included", async () => {
    const sim = createTestSim();
    const id = sim.activeCustomer();
    const steps: [string, string, object | undefined, number][] = [
      ["GET", "/shop", undefined, 200],
      ["GET", "/customers/404", undefined, 404],
      ["POST", `/customers/${id}/stamps/award`, { stamps: 0 }, 422],
      ["POST", `/customers/${id}/stamps/adjust`, { stamps: -100000 }, 422],
      ["GET", "/nowhere", undefined, 404],
      ["POST", `/customers/${id}/stamps/award`, { stamps: 1 }, 200],
    ];
    for (const [i, [method, path, body, status]] of steps.entries()) {
      const res = await sim.call(method, path, { body });
      expect(res.status).toBe(status);
      expect(quota(res)).toEqual(["1000", String(999 - i)]);
      expect(res.headers.get("Retry-After")).toBeNull();
    }
  });

  it("with a quota of 3 the 4th request is 429 RATE_LIMITED until the hour has passed", async () => {
    const sim = createTestSim({ access: { rateLimit: 3 } });
    const id = sim.activeCustomer();
    const balance = sim.shop.store.customer(id)!.balance;
    for (const remaining of ["2", "1", "0"]) expect(quota(await sim.call("GET", "/shop"))).toEqual(["3", remaining]);

    const limited = await sim.call("POST", `/customers/${id}/stamps/award`, { body: { stamps: 5 } });
    expectError(limited, 429, "RATE_LIMITED", "Rate limit of 3 requests per hour exceeded; retry in 3600 s");
    expect(quota(limited)).toEqual(["3", "0"]);
    expect(limited.headers.get("Retry-After")).toBe("3600");
    expect(sim.shop.store.customer(id)!.balance).toBe(balance);

    // Refused requests do not extend the window; bad credentials are still 401 first.
    expectError(await sim.call("GET", "/shop", { auth: false }), 401, "UNAUTHORIZED", "Invalid API credentials");
    sim.clock.advance(HOUR - 1000);
    const later = await sim.call("GET", "/nowhere");
    expect([later.status, later.body.error.code, later.headers.get("Retry-After")]).toEqual([429, "RATE_LIMITED", "1"]);

    sim.clock.advance(1000);
    const reopened = await sim.call("GET", "/shop");
    expect(reopened.status).toBe(200);
    expect(quota(reopened)).toEqual(["3", "2"]);
    expect(reopened.headers.get("Retry-After")).toBeNull();
  });

  it("the limit is checked before the shop's access", async () => {
    const sim = createTestSim({ access: { rateLimit: 1, apiAccess: false } });
    expect((await sim.call("GET", "/shop")).body.error.code).toBe("API_ACCESS_DISABLED");
    const res = await sim.call("GET", "/shop");
    expect([res.status, res.body.error.code, res.headers.get("Retry-After")]).toEqual([429, "RATE_LIMITED", "3600"]);
  });

  it("rateLimit null: no quota headers and no limit", async () => {
    const sim = createTestSim({ access: { rateLimit: null } });
    for (let i = 0; i < 5; i++) {
      const res = await sim.call("GET", i % 2 ? "/customers/nobody" : "/shop");
      expect(res.status).toBe(i % 2 ? 404 : 200);
      expect(quota(res)).toEqual([null, null]);
    }
  });
});

describe("unknown routes", () => {
  const sim = createTestSim();

  it.each([
    ["GET", "/nope"],
    ["GET", "/customers/1/unknown"],
    ["DELETE", "/customers/1"],
    ["PUT", "/shop"],
    ["POST", "/tiers"],
  ])("%s %s under the base is 404 NOT_FOUND in the envelope", async (method, path) => {
    const res = await sim.call(method, path, { body: method === "GET" || method === "DELETE" ? undefined : {} });
    expectError(res, 404, "NOT_FOUND", `No route for ${method} ${BASE}${path}`);
    expect(res.headers.get("X-RateLimit-Limit")).toBe("1000");
  });

  it.each(["/nope", "/rest_api/v2/customers", "/rest_api"])("GET %s outside the base is 404 NOT_FOUND without credentials", async (path) => {
    const res = await sim.app.request(path);
    const body = await res.json();
    assertMatchesContract("GET", path, res.status, body);
    expect(res.status).toBe(404);
    expect(body).toStrictEqual({ success: false, error: { message: `No route for GET ${path}`, code: "NOT_FOUND", statusCode: 404 }, timestamp: TS });
    expect(res.headers.get("X-RateLimit-Limit")).toBeNull();
  });
});
