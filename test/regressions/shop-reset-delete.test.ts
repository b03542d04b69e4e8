/**
 * Regression (issue 18, part 1): reset was global and shops could not be deleted, so in watch mode
 * they piled up. Now `POST /__sim/reset` with `X-Api-Key` resets that shop alone (data, scenarios,
 * journal, quota, clock) and `DELETE /__sim/shops/{apiKey}` removes any shop but the default one,
 * from the `--data` file too.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createControlClient, createSimulator, IN_PROCESS_ORIGIN, SimClock, SimulatorError, startSimulator } from "../../src/index.js";
import { parseScenario } from "../../src/scenarios/load.js";
import { NOW, NOW_ISO, createTestSim, type TestSim } from "../support/sim.js";
import { clockOf, DEFAULT, details, newShop, nine, NO_SUCH_SHOP, type Made } from "../support/shops.js";

describe("POST /__sim/reset", () => {
  /** Everything of a shop a test can see, through its own key. */
  async function seen(sim: TestSim, shop: Made) {
    const get = async (path: string) => (await sim.call("GET", path, { headers: shop.key })).body;
    return {
      data: JSON.stringify(sim.engine.shop(shop.id)!.store.data),
      clock: await get("/__sim/clock"),
      scenarios: await get("/__sim/scenarios"),
      journal: await get("/__sim/requests"),
      quota: (await sim.call("GET", "/shop", { auth: false, headers: shop.auth })).headers.get("X-RateLimit-Remaining"),
    };
  }

  /** Changes every part of a shop: data, clock, scenarios (its own, and a start-up one's counters), journal, quota. */
  async function use(sim: TestSim, shop: Made, set: string) {
    await sim.call("POST", "/__sim/customers", { headers: shop.key, body: nine("11") });
    await sim.call("POST", "/customers/11/stamps/award", { auth: false, headers: shop.auth, body: { stamps: 4 } });
    await sim.call("POST", "/__sim/scenarios", { headers: shop.key, body: { name: `own${shop.id}`, rules: [{ match: { operation: "listBeacons" }, respond: { error: "RATE_LIMITED" } }] } });
    await sim.call("GET", "/tiers", { auth: false, headers: shop.auth, unchecked: true });
    await sim.call("POST", "/__sim/clock", { headers: shop.key, body: { set, frozen: true } });
  }

  const startUp = parseScenario({ name: "boot", rules: [{ match: { operation: "listTiers" }, times: 5, respond: { status: 418 } }] }, "test");

  it.each([
    ["a shop of its own", 1],
    ["the default shop", 0],
  ])("with X-Api-Key, resets that shop alone (%s): back to its seed, scenarios, journal, quota and clock; the others untouched", async (_, which) => {
    const sim = createTestSim({ customers: 3, seed: 4, access: { rateLimit: 50 }, scenarios: [startUp] });
    const shops = [DEFAULT, await newShop(sim, { customers: 3, seed: 4, rateLimit: 50 }), await newShop(sim, { customers: 2, seed: 9, rateLimit: 50 })];
    const pristine = await seen(sim, shops[which]!);
    for (const [i, shop] of shops.entries()) await use(sim, shop, `203${i}-01-01T00:00:00Z`);
    const target = shops[which]!;
    const others = shops.filter((s) => s !== target);
    const before = await Promise.all(others.map((s) => seen(sim, s)));

    expect((await sim.call("POST", "/__sim/reset", { headers: target.key })).body).toStrictEqual({ reset: true, shops: 1 });

    // What `seen` read of the others (the quota call included) is the same again, one request on.
    const after = await Promise.all(others.map((s) => seen(sim, s)));
    others.forEach((shop, i) => {
      const { quota, journal, ...rest } = after[i]!;
      const was = before[i]!;
      expect(rest, `shop ${shop.id}`).toStrictEqual({ data: was.data, clock: was.clock, scenarios: was.scenarios });
      expect(journal.requests.slice(1), `shop ${shop.id}`).toStrictEqual(was.journal.requests);
      expect(Number(quota), `shop ${shop.id}`).toBe(Number(was.quota) - 1);
    });
    expect(await seen(sim, target)).toStrictEqual({ ...pristine, clock: { now: NOW_ISO, frozen: false } });
    // The quota call `seen` just made is journaled on the clock back at real time (here, NOW).
    const journal = (await sim.call("GET", "/__sim/requests", { headers: target.key })).body.requests;
    expect(journal.map((e: { path: string; at: string }) => [e.path, e.at])).toEqual([["/rest_api/v1/shop", NOW_ISO]]);
  });

  it("without X-Api-Key, resets everything: every shop's clock back to real time", async () => {
    const sim = createTestSim({ customers: 0 });
    const b = await newShop(sim);
    await sim.call("POST", "/__sim/clock", { body: { set: "2030-01-01T00:00:00Z" } });
    await sim.call("POST", "/__sim/clock", { headers: b.key, body: { set: "2031-01-01T00:00:00Z" } });
    expect((await sim.call("POST", "/__sim/reset", { auth: false })).body).toStrictEqual({ reset: true, shops: 2 });
    for (const shop of [DEFAULT, b]) expect(await clockOf(sim, shop)).toStrictEqual({ now: NOW_ISO, frozen: false });
  });

  it("with an unknown X-Api-Key is 422 naming the header, and resets nothing", async () => {
    const sim = createTestSim({ customers: 1 });
    await sim.call("POST", "/__sim/clock", { body: { set: "2030-01-01T00:00:00Z" } });
    const res = await sim.call("POST", "/__sim/reset", { headers: { "X-Api-Key": "nope" } });
    expect(details(res)).toEqual([422, "VALIDATION_ERROR", NO_SUCH_SHOP]);
    expect((await sim.call("GET", "/__sim/clock")).body.now).toBe("2030-01-01T00:00:00+00:00");
  });
});

describe("DELETE /__sim/shops/{apiKey}", () => {
  it("removes the shop and everything of it; 404 after; its id and key are not given again; the others untouched", async () => {
    const sim = createTestSim({ customers: 2 });
    const b = await newShop(sim, { customers: 2 });
    const c = await newShop(sim, { customers: 2 });
    for (const shop of [b, c]) {
      await sim.call("GET", "/shop", { auth: false, headers: shop.auth });
      await sim.call("POST", "/__sim/scenarios", { headers: shop.key, body: { name: "mine", rules: [{ respond: { status: 418 } }] } });
      await sim.call("POST", "/__sim/clock", { headers: shop.key, body: { advanceSeconds: 3600 } });
    }
    const cBefore = [JSON.stringify(sim.engine.shop(c.id)!.store.data), sim.registry.list(c.id), sim.journal.list({ shopId: c.id }), sim.engine.shop(c.id)!.clock.now()];

    const res = await sim.call("DELETE", `/__sim/shops/${b.key["X-Api-Key"]}`);
    expect([res.status, res.body]).toEqual([204, ""]);
    expect(sim.engine.shop(b.id)).toBeUndefined();
    expect(sim.journal.list({ shopId: b.id })).toEqual([]);
    expect(sim.registry.hasScenarios(b.id)).toBe(false);
    expect((await sim.call("GET", "/shop", { auth: false, headers: b.auth })).status).toBe(401);
    expect(details(await sim.call("GET", "/__sim/clock", { headers: b.key }))[2]).toEqual(NO_SUCH_SHOP);
    const again = await sim.call("DELETE", `/__sim/shops/${b.key["X-Api-Key"]}`);
    expect([again.status, again.body.error.code, again.body.error.message]).toEqual([404, "NOT_FOUND", "No shop has the API key sim_key_2 (see GET /__sim/shops)"]);
    expect((await sim.call("GET", "/__sim/shops")).body.shops.map((s: { id: string }) => s.id)).toEqual(["1", "3"]);
    expect((await newShop(sim)).id).toBe("4");

    expect([JSON.stringify(sim.engine.shop(c.id)!.store.data), sim.registry.list(c.id), sim.journal.list({ shopId: c.id }), sim.engine.shop(c.id)!.clock.now()]).toStrictEqual(cBefore);
  });

  it("the default shop refuses deletion with 422 saying why, and stays", async () => {
    const sim = createTestSim({ customers: 1 });
    const res = await sim.call("DELETE", "/__sim/shops/sim_key");
    expect(details(res)).toEqual([
      422,
      "VALIDATION_ERROR",
      [
        {
          in: "path",
          path: "apiKey",
          message: "is the default shop's, which cannot be deleted: control calls without X-Api-Key act on it (reset it instead: POST /__sim/reset with its X-Api-Key)",
        },
      ],
    ]);
    expect((await sim.call("GET", "/shop")).status).toBe(200);
  });

  it("a shop deleted while its reset is under way is not brought back by that reset", async () => {
    const sim = createTestSim({ customers: 1 });
    const b = await newShop(sim, { customers: 1000 });
    const resetting = sim.call("POST", "/__sim/reset", { headers: b.key });
    // Once its new data is being made (1000 customers are made in 4 slices, a pause after each).
    await new Promise((resolve) => setImmediate(resolve));
    expect(sim.engine.shop(b.id)).toBeDefined();
    expect((await sim.call("DELETE", `/__sim/shops/${b.key["X-Api-Key"]}`)).status).toBe(204);
    const res = await resetting;
    expect(details(res)).toEqual([422, "VALIDATION_ERROR", NO_SUCH_SHOP]);
    expect(sim.engine.shop(b.id)).toBeUndefined();
    expect(sim.engine.shops().map((s) => s.id)).toEqual(["1"]);
  });
});

describe("the control client", () => {
  it("reset() made with an apiKey resets its shop alone, without one everything; deleteShop(apiKey)", async () => {
    // Real time stands still at NOW here, so that "back to real time" is exact.
    const sim = createSimulator({ customers: 2, newClock: () => new SimClock(() => NOW) });
    const made = await sim.control.createShop({ customers: 2 });
    const mine = createControlClient(sim.fetch, IN_PROCESS_ORIGIN, { apiKey: made.apiKey });
    await mine.setClock({ set: "2029-01-01T00:00:00Z", frozen: true });
    await sim.control.setClock({ set: "2030-01-01T00:00:00Z", frozen: true });

    expect(await mine.reset()).toEqual({ reset: true, shops: 1 });
    expect(await mine.clock()).toEqual({ now: NOW_ISO, frozen: false });
    expect(await sim.control.clock()).toEqual({ now: "2030-01-01T00:00:00+00:00", frozen: true });
    expect(await sim.control.reset()).toEqual({ reset: true, shops: 2 });
    expect(await sim.control.clock()).toEqual({ now: NOW_ISO, frozen: false });

    expect(await sim.control.deleteShop(made.apiKey)).toBeUndefined();
    expect((await sim.control.shops()).map((s) => s.id)).toEqual(["1"]);
    const gone = await sim.control.deleteShop(made.apiKey).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(SimulatorError);
    expect([(gone as SimulatorError).status, (gone as SimulatorError).message]).toEqual([
      404,
      `DELETE /__sim/shops/${made.apiKey}: 404 NOT_FOUND: No shop has the API key ${made.apiKey} (see GET /__sim/shops)`,
    ]);
    const refused = (await sim.control.deleteShop(sim.apiKey).catch((e: unknown) => e)) as SimulatorError;
    expect([refused.status, refused.code, refused.details?.[0]?.path]).toEqual([422, "VALIDATION_ERROR", "apiKey"]);
  });
});

describe("--data after a deletion", () => {
  it("the file no longer holds the deleted shop (written at once), nor does a restart from it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "loyalty-sim-delete-"));
    const data = join(dir, "state.json");
    const shopIds = () => (JSON.parse(readFileSync(data, "utf8")) as { shops: { spec: { id: string } }[] }).shops.map((s) => s.spec.id);
    try {
      // A flush interval far longer than the test: every write seen here is one a control call made.
      const sim = await startSimulator({ customers: 2, data, flushMs: 60_000 });
      const made = await sim.control.createShop({ customers: 2 });
      await createControlClient(fetch, sim.url, { apiKey: made.apiKey }).reset();
      expect(shopIds()).toEqual(["1", "2"]);
      await sim.control.deleteShop(made.apiKey);
      expect(shopIds()).toEqual(["1"]);
      await sim.close();

      const again = await startSimulator({ data });
      try {
        expect((await again.control.shops()).map((s) => s.id)).toEqual(["1"]);
        const res = await fetch(`${again.baseUrl}/shop`, { headers: { "X-Api-Key": made.apiKey, "X-Api-Secret": made.apiSecret } });
        expect(res.status).toBe(401);
      } finally {
        await again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
