/**
 * Regression (issue 18, part 1): one clock served every shop, so shop A advancing a year expired
 * shop B's stamps (9 -> 0), and `POST /__sim/clock` took an unknown `X-Api-Key`; scenarios loaded
 * at start counted `times`, `after`, rate windows and random draws over every shop. Now each shop
 * has its own clock, and its own counters, windows and draws.
 */
import { describe, expect, it } from "vitest";
import { DAY_MS, isoTimestamp } from "../../src/engine/clock.js";
import { parseScenario } from "../../src/scenarios/load.js";
import { NOW, NOW_ISO, createTestSim } from "../support/sim.js";
import { clockOf, DEFAULT, details, newShop, nine, NO_SUCH_SHOP, type Made } from "../support/shops.js";

const YEAR_LATER = NOW + 366 * DAY_MS;

describe("each shop has its own clock", () => {
  it("shop A advancing a year leaves shop B's stamps: 9 is still 9 (the issue's case)", async () => {
    const sim = createTestSim({ customers: 0 });
    const b = await newShop(sim);
    await sim.call("POST", "/__sim/customers", { body: nine("11") });
    await sim.call("POST", "/__sim/customers", { headers: b.key, body: nine("11") });

    const moved = await sim.call("POST", "/__sim/clock", { body: { advanceSeconds: 366 * 86_400 } });
    expect(moved.body).toStrictEqual({ now: isoTimestamp(YEAR_LATER), frozen: true });

    const inB = await sim.call("GET", "/customers/11", { auth: false, headers: b.auth });
    expect([inB.body.data.stampBalance, inB.body.timestamp]).toEqual([9, NOW_ISO]);
    const inA = await sim.call("GET", "/customers/11");
    expect([inA.body.data.stampBalance, inA.body.timestamp]).toEqual([0, isoTimestamp(YEAR_LATER)]);
    expect(await clockOf(sim, b)).toStrictEqual({ now: NOW_ISO, frozen: true });
  });

  it("B advancing leaves A (the default shop) as it was, and the clock of each is read with its key", async () => {
    const sim = createTestSim({ customers: 0 });
    const b = await newShop(sim);
    expect((await sim.call("POST", "/__sim/clock", { headers: b.key, body: { set: "2030-05-01T00:00:00Z", frozen: false } })).body).toStrictEqual({
      now: "2030-05-01T00:00:00+00:00",
      frozen: false,
    });
    expect(await clockOf(sim, DEFAULT)).toStrictEqual({ now: NOW_ISO, frozen: true });
    expect((await sim.call("GET", "/__sim/clock")).body).toStrictEqual({ now: NOW_ISO, frozen: true });
    expect(await clockOf(sim, b)).toStrictEqual({ now: "2030-05-01T00:00:00+00:00", frozen: false });
  });

  it("an earn rule's weekly window follows the shop's own clock", async () => {
    const sim = createTestSim({ customers: 0 });
    const b = await newShop(sim);
    const earn = (shop: Made) => sim.call("POST", "/customers/11/activities", { auth: false, headers: shop.auth, body: { earn_rule_id: 203 } });
    for (const shop of [DEFAULT, b]) {
      await sim.call("POST", "/__sim/customers", { headers: shop.key, body: nine("11") });
      expect((await earn(shop)).status).toBe(200);
    }
    await sim.call("POST", "/__sim/clock", { body: { advanceSeconds: 8 * 86_400 } });
    expect((await earn(DEFAULT)).status).toBe(200);
    const refused = await earn(b);
    expect([refused.status, refused.body.error.code, refused.body.timestamp]).toEqual([422, "ACTIVITY_NOT_AWARDED", NOW_ISO]);
  });

  it("the quota window follows the shop's clock: A advancing an hour reopens A's, not B's", async () => {
    const sim = createTestSim({ customers: 0, access: { rateLimit: 1 } });
    const b = await newShop(sim, { customers: 0, rateLimit: 1 });
    const shopOf = (shop: Made) => sim.call("GET", "/shop", { auth: false, headers: shop.auth });
    for (const shop of [DEFAULT, b]) expect((await shopOf(shop)).status).toBe(200);
    await sim.call("POST", "/__sim/clock", { body: { advanceSeconds: 3600 } });
    expect((await shopOf(DEFAULT)).status).toBe(200);
    const limited = await shopOf(b);
    expect([limited.status, limited.headers.get("Retry-After")]).toEqual([429, "3600"]);
  });

  it("the journal's `at` and every envelope follow the shop's clock; a request of no shop, the default shop's", async () => {
    const sim = createTestSim({ customers: 0 });
    const b = await newShop(sim);
    await sim.call("POST", "/__sim/clock", { headers: b.key, body: { set: "2031-01-01T00:00:00Z" } });
    expect((await sim.call("GET", "/shop", { auth: false, headers: b.auth })).body.timestamp).toBe("2031-01-01T00:00:00+00:00");
    const nobody = await sim.call("GET", "/shop", { auth: false, headers: { ...b.auth, "X-Api-Secret": "wrong" } });
    expect([nobody.status, nobody.body.timestamp]).toEqual([401, NOW_ISO]);
    const journal = async (shop: Made) => (await sim.call("GET", "/__sim/requests", { headers: shop.key })).body.requests.map((e: { at: string; status: number }) => [e.status, e.at]);
    expect(await journal(b)).toEqual([[200, "2031-01-01T00:00:00+00:00"]]);
    expect(await journal(DEFAULT)).toEqual([[401, NOW_ISO]]);
    // A control call's error is timed by the shop it names.
    expect((await sim.call("DELETE", "/__sim/scenarios/none", { headers: b.key })).body.timestamp).toBe("2031-01-01T00:00:00+00:00");
  });

  it.each(["GET", "POST"])("%s /__sim/clock with an unknown X-Api-Key is 422 naming the header, and moves no clock", async (method) => {
    const sim = createTestSim({ customers: 0 });
    const b = await newShop(sim);
    const res = await sim.call(method, "/__sim/clock", { headers: { "X-Api-Key": "sim_key_9" }, ...(method === "POST" && { body: { advanceSeconds: 60 } }) });
    expect(details(res)).toEqual([422, "VALIDATION_ERROR", NO_SUCH_SHOP]);
    for (const shop of [DEFAULT, b]) expect(await clockOf(sim, shop)).toStrictEqual({ now: NOW_ISO, frozen: true });
  });

  it("the clock's range (1970-9999) holds per shop", async () => {
    const sim = createTestSim({ customers: 0 });
    const b = await newShop(sim);
    await sim.call("POST", "/__sim/clock", { headers: b.key, body: { set: "9999-12-31T00:00:00Z" } });
    const past = await sim.call("POST", "/__sim/clock", { headers: b.key, body: { advanceSeconds: 86_400 } });
    expect(details(past)).toEqual([422, "VALIDATION_ERROR", [{ in: "body", path: "advanceSeconds", message: "would put the clock outside 1970-01-01T00:00:00+00:00 to 9999-12-31T23:59:59+00:00" }]]);
    // A's clock is far from the end: the same move is fine there.
    expect((await sim.call("POST", "/__sim/clock", { body: { advanceSeconds: 86_400 } })).body.now).toBe(isoTimestamp(NOW + DAY_MS));
  });
});

describe("scenarios loaded at start count per shop", () => {
  const startUp = parseScenario(
    {
      name: "boot",
      rules: [
        { name: "second", match: { operation: "listTiers" }, after: 1, times: 1, respond: { error: "RATE_LIMITED" } },
        { name: "window", match: { operation: "getShop" }, respond: { rateLimit: { limit: 1, windowSeconds: 60 } } },
      ],
    },
    "test",
  );

  it("`after` and `times` of a start-up rule: each shop gets its own second call refused, once", async () => {
    const sim = createTestSim({ customers: 0, scenarios: [startUp] });
    const b = await newShop(sim);
    const tiers = async (shop: Made) => (await sim.call("GET", "/tiers", { auth: false, headers: shop.auth })).status;
    expect([await tiers(DEFAULT), await tiers(DEFAULT), await tiers(DEFAULT)]).toEqual([200, 429, 200]);
    expect([await tiers(b), await tiers(b), await tiers(b)]).toEqual([200, 429, 200]);
    const rule = async (shop: Made) => (await sim.call("GET", "/__sim/scenarios", { headers: shop.key })).body.scenarios[0].rules[0];
    // A spent rule is no longer tried, so the third call does not count as a match.
    expect(await rule(b)).toMatchObject({ hits: 1, matches: 2, remaining: 0, spent: true });
    expect(await rule(DEFAULT)).toMatchObject({ hits: 1, matches: 2, remaining: 0, spent: true });
  });

  it("a start-up rateLimit rule's window is per shop, and follows the shop's clock", async () => {
    const sim = createTestSim({ customers: 0, scenarios: [startUp] });
    const b = await newShop(sim);
    const shopOf = async (shop: Made) => (await sim.call("GET", "/shop", { auth: false, headers: shop.auth })).status;
    expect([await shopOf(DEFAULT), await shopOf(DEFAULT), await shopOf(b)]).toEqual([200, 429, 200]);
    await sim.call("POST", "/__sim/clock", { headers: b.key, body: { advanceSeconds: 60 } });
    expect([await shopOf(b), await shopOf(DEFAULT)]).toEqual([200, 429]);
  });

  it("probabilities draw from a stream of each shop's own: B's answers do not depend on A's requests", async () => {
    const coin = parseScenario({ name: "coin", rules: [{ match: { operation: "listBeacons" }, probability: 0.5, respond: { error: "RATE_LIMITED" } }] }, "test");
    const run = async (aFirst: number) => {
      const sim = createTestSim({ customers: 0, scenarios: [coin], seed: 5 });
      const b = await newShop(sim);
      for (let i = 0; i < aFirst; i++) await sim.call("GET", "/beacons", { unchecked: true });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await sim.call("GET", "/beacons", { auth: false, headers: b.auth })).status);
      return statuses;
    };
    const alone = await run(0);
    expect(new Set(alone)).toEqual(new Set([200, 429]));
    expect(await run(7)).toEqual(alone);
  });
});
