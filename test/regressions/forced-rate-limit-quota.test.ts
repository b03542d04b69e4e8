/**
 * Issue 31: the "why" of a forced RATE_LIMITED (a scenario's error, a scenario's limiter, the
 * Prefer header) read the quota from the answer's X-RateLimit-Remaining, which the forced answer
 * sets to 0 (or the scenario limiter's count): "passed, 0 of 1000 left" when about 992 were left.
 * Now the quota's own count, noted when the answer replaced it, is the one shown.
 */
import { describe, expect, it } from "vitest";
import { parseScenario } from "../../src/scenarios/load.js";
import { createTestSim } from "../support/sim.js";

const rateLimited = parseScenario(
  { name: "rate-limited", rules: [{ match: { operation: "getShop" }, respond: { error: "RATE_LIMITED" } }, { match: { operation: "listTiers" }, respond: { rateLimit: { limit: 1, windowSeconds: 60 } } }] },
  "test",
);

async function whyOfLast(sim: ReturnType<typeof createTestSim>) {
  const [entry] = (await sim.call("GET", "/__sim/requests?limit=1")).body.requests;
  return (await sim.call("GET", `/__sim/requests/${entry.id}/why`)).body;
}

describe("issue 31: the why of a forced RATE_LIMITED shows the quota really left", () => {
  it.each([
    ["a scenario's error", "/shop", {}],
    ["the Prefer header", "/program", { Prefer: "error=RATE_LIMITED" }],
  ])("%s", async (_, path, headers) => {
    const sim = createTestSim({ customers: 1, access: { rateLimit: 1000 }, scenarios: [rateLimited] });
    for (let i = 0; i < 7; i++) expect((await sim.call("GET", "/rewards")).status).toBe(200);
    const res = await sim.call("GET", path, { headers, unchecked: true });
    expect([res.status, res.headers.get("x-ratelimit-remaining")]).toEqual([429, "0"]);
    const why = await whyOfLast(sim);
    expect([why.quota.outcome, why.quota.remaining, why.quota.detail]).toEqual(["passed", 992, "992 of 1000 left in the window after this request"]);
  });

  it("a scenario's limiter that refuses", async () => {
    const sim = createTestSim({ customers: 1, access: { rateLimit: 1000 }, scenarios: [rateLimited] });
    expect((await sim.call("GET", "/tiers")).status).toBe(200);
    const res = await sim.call("GET", "/tiers", { unchecked: true });
    expect([res.status, res.headers.get("x-ratelimit-remaining"), res.headers.get("x-ratelimit-limit")]).toEqual([429, "0", "1"]);
    const why = await whyOfLast(sim);
    expect([why.quota.outcome, why.quota.limit, why.quota.remaining, why.quota.detail]).toEqual(["passed", 1000, 998, "998 of 1000 left in the window after this request"]);
  });
});
