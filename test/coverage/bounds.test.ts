/**
 * The counters never drop and never grow: 100,000 requests through a journal of one entry are all
 * counted, in a structure of a fixed size; the lost writes a shop remembers are bounded, the
 * oldest forgotten first. Reset and shop isolation: one shop's traffic never shows in another's.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config.js";
import { DUPLICATE_LIMITS } from "../../src/coverage/duplicates.js";
import { COUNTERS_SIZE } from "../../src/coverage/report.js";
import { createSimulator } from "../../src/index.js";
import { buildSimulator } from "../../src/simulator/simulator.js";
import { metCells } from "./cells.js";

setFlagsFromString("--expose-gc");
/** A full garbage collection, as `node --expose-gc` offers it: the heap measured holds what is kept, not what awaits collection. */
const gc = runInNewContext("gc") as () => void;

describe("issue 29: counters that never drop", () => {
  it("counts 100,000 requests through a journal of one entry, in counters of a fixed size", async () => {
    const built = buildSimulator(parseConfig({ customers: 3, journalSize: 1, rateLimit: "off", logLevel: "silent" }));
    const { app, shop } = built;
    const headers = { "X-Api-Key": shop.access.apiKey, "X-Api-Secret": shop.access.apiSecret };
    const id = shop.store.data.customers[0]!.id;
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    for (let i = 0; i < 100_000; i++) {
      const res = await app.request(i % 10 === 9 ? "/rest_api/v1/customers/999999" : `/rest_api/v1/customers/${id}`, { headers });
      await res.arrayBuffer();
    }
    expect(built.journal.size).toBe(1);
    const report = built.coverage.report("1", ["1"]);
    expect(metCells(report)).toEqual([
      ["getCustomer", "ok", 90_000, 0, 90_000, 0],
      ["getCustomer", "CUSTOMER_NOT_FOUND", 10_000, 0, 10_000, 0],
    ]);
    // One shop's counters, of the size made at its first request: nothing a request adds stays.
    expect(built.coverage.size).toBe(1);
    expect(COUNTERS_SIZE).toBe(21 * 22 * 4);
    // Not a measurement to tune: 100,000 requests kept as anything would hold far more than 64 MB.
    gc();
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(64 * 1024 * 1024);
  });

  it("remembers at most DUPLICATE_LIMITS.lostWrites lost writes a shop, forgetting the oldest first", async () => {
    const sim = createSimulator({ customers: 3, seed: 3, rateLimit: "off" });
    const json = { "X-Api-Key": sim.apiKey, "X-Api-Secret": sim.apiSecret, "Content-Type": "application/json" };
    const id = sim.engine.defaultShop().store.data.customers.find((c) => !c.excluded && !c.mergedIntoCustomerId)!.id;
    await sim.control.addScenario({ name: "lose", rules: [{ match: { operation: "awardStamps", headers: { "x-lose": "yes" } }, respond: { fault: "empty_response", commit: true } }] });
    const award = (n: number, lose: boolean) =>
      sim.fetch(`${sim.baseUrl}/customers/${id}/stamps/award`, { method: "POST", headers: { ...json, "X-Request-Id": `${lose ? "lost" : "retry"}-${n}`, ...(lose && { "X-Lose": "yes" }) }, body: JSON.stringify({ stamps: 1, comment: `visit ${n}` }) }).catch(() => undefined);
    // One more lost write than a shop remembers: the first is forgotten.
    for (let n = 0; n <= DUPLICATE_LIMITS.lostWrites; n++) await award(n, true);
    await award(0, false);
    await award(DUPLICATE_LIMITS.lostWrites, false);
    const report = await sim.control.coverage();
    expect(report.operations.awardStamps!.cells.find((c) => c.outcome === "lostAfterCommit")!.count).toBe(DUPLICATE_LIMITS.lostWrites + 1);
    expect(report.duplicateWrites).toEqual([{ operation: "awardStamps", customerId: id, first: `lost-${DUPLICATE_LIMITS.lostWrites}`, repeat: `retry-${DUPLICATE_LIMITS.lostWrites}`, idempotencyKey: false }]);
  });
});

describe("issue 29: reset and shop isolation", () => {
  async function twoShops() {
    const sim = createSimulator({ customers: 3, seed: 3, rateLimit: "off" });
    const other = await sim.control.createShop({ customers: 3 });
    const get = (key: string, secret: string, path: string) => sim.fetch(`${sim.baseUrl}${path}`, { headers: { "X-Api-Key": key, "X-Api-Secret": secret } });
    await get(sim.apiKey, sim.apiSecret, "/shop");
    await get(sim.apiKey, sim.apiSecret, "/shop");
    await get(other.apiKey, other.apiSecret, "/tiers");
    // A wrong secret with the other shop's key counts in the other shop's UNAUTHORIZED.
    await get(other.apiKey, "wrong", "/shop");
    return { sim, other };
  }

  it("shows each shop its own traffic, and every shop summed with ?shop=all", async () => {
    const { sim, other } = await twoShops();
    expect(metCells(await sim.control.coverage())).toEqual([["getShop", "ok", 2, 0, 2, 0]]);
    const theirs = [["listTiers", "ok", 1, 0, 1, 0], ["getShop", "UNAUTHORIZED", 1, 0, 1, 0]];
    expect(metCells(await sim.control.coverage({ shop: other.id }))).toEqual(theirs);
    expect(metCells(await sim.control.coverage({ shop: other.apiKey }))).toEqual(theirs);
    const all = await sim.control.coverage({ shop: "all" });
    expect(all.shop).toBe("all");
    expect(metCells(all)).toEqual([["listTiers", "ok", 1, 0, 1, 0], ["getShop", "ok", 2, 0, 2, 0], ["getShop", "UNAUTHORIZED", 1, 0, 1, 0]]);
    const res = await sim.fetch("/__sim/coverage?shop=nobody");
    expect([res.status, ((await res.json()) as { error: { code: string } }).error.code]).toEqual([422, "VALIDATION_ERROR"]);
  });

  it("DELETE /__sim/coverage clears one shop's counts, or all", async () => {
    const { sim, other } = await twoShops();
    await sim.control.clearCoverage({ shop: other.id });
    expect(metCells(await sim.control.coverage({ shop: other.id }))).toEqual([]);
    expect(metCells(await sim.control.coverage())).toEqual([["getShop", "ok", 2, 0, 2, 0]]);
    await sim.control.clearCoverage({ shop: "all" });
    expect(metCells(await sim.control.coverage({ shop: "all" }))).toEqual([]);
  });

  it("POST /__sim/reset clears the shop it resets, or every shop; a deleted shop's counts go with it", async () => {
    const { sim, other } = await twoShops();
    await sim.fetch("/__sim/reset", { method: "POST", headers: { "X-Api-Key": other.apiKey } });
    expect(metCells(await sim.control.coverage({ shop: other.id }))).toEqual([]);
    expect(metCells(await sim.control.coverage())).toEqual([["getShop", "ok", 2, 0, 2, 0]]);
    await sim.control.reset();
    expect(metCells(await sim.control.coverage({ shop: "all" }))).toEqual([]);
    await sim.fetch(`${sim.baseUrl}/tiers`, { headers: { "X-Api-Key": other.apiKey, "X-Api-Secret": other.apiSecret } });
    await sim.control.deleteShop(other.apiKey);
    expect(metCells(await sim.control.coverage({ shop: "all" }))).toEqual([]);
  });
});
