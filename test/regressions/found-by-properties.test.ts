/**
 * Regressions found by the property-based tests in test/robustness/. Each one is pinned here with
 * the smallest request that showed it, so it stays fixed whatever the generators draw.
 */
import { describe, expect, it } from "vitest";
import { MAX_STAMPS } from "../../src/engine/limits.js";
import { createTestSim, expectError } from "../support/sim.js";

describe("found by bad-input.test.ts", () => {
  // Was 500 INTERNAL_ERROR: the scenario matcher decoded the path with decodeURIComponent, which
  // throws on a lone `%`; the router keeps such a segment as sent.
  it.each(["%", "%zz", "abc%", "%E0%A4%A", "%C3%28"])("a path id with the malformed escape %s is not found, not a 500", async (raw) => {
    const sim = createTestSim({ customers: 2 });
    expectError(await sim.call("GET", `/customers/${raw}`), 404, "CUSTOMER_NOT_FOUND", `Customer ${raw} not found`);
    expectError(await sim.call("GET", `/tiers/${raw}`), 404, "TIER_NOT_FOUND", `Tier ${raw} not found`);
    expect(sim.bugs).toEqual([]);
  });

  // Was: the merge debited the merged customer before crediting the kept one, so a credit refused
  // for overflow left the stamps gone from both.
  it("a merge whose credit would overflow changes nothing", async () => {
    const sim = createTestSim({ customers: 0 });
    const rich = sim.shop.syncCustomer({ firstName: "A", lastName: "A", email: "a@example.com", stampBalance: MAX_STAMPS });
    const poor = sim.shop.syncCustomer({ firstName: "B", lastName: "B", email: "b@example.com", stampBalance: 5 });
    const before = JSON.stringify(sim.shop.store.data);
    const res = await sim.call("POST", `/__sim/customers/${poor.id}/merge`, { body: { into: rich.id } });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details).toEqual([{ in: "body", path: "into", message: `would take the balance beyond ${MAX_STAMPS}, the most stamps a balance may hold (production's GraphQL API types stamp counts as 32-bit integers)` }]);
    expect(JSON.stringify(sim.shop.store.data)).toBe(before);
  });
});
