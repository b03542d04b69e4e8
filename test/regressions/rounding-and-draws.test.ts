/**
 * Issue 17, case 16 (edges no test pinned). Seeded bugs went unnoticed: `Retry-After` rounded down
 * instead of up, and a `delayMs` range that always waits its maximum. Each test sits on the exact
 * boundary: a window with 59.001 s left says 60, with exactly 60 s left says 60, with 1 ms left
 * says 1; a seeded range draws the exact delays listed, spread over the whole range.
 */
import { describe, expect, it, vi } from "vitest";
import { parseScenario } from "../../src/scenarios/load.js";
import { ScenarioRegistry } from "../../src/scenarios/registry.js";
import { fixedClock } from "../../src/engine/clock.js";
import { createTestSim, NOW, type TestSim } from "../support/sim.js";

const HOUR = 3_600_000;

const retryAfter = async (sim: TestSim, path: string) => {
  const res = await sim.call("GET", path, { unchecked: true });
  return [res.status, res.headers.get("Retry-After"), res.body.error?.message];
};

describe("Retry-After is rounded up to whole seconds", () => {
  const EDGES: [string, number, string][] = [
    ["59.001 s left says 60", 59_001, "60"],
    ["exactly 60 s left says 60", 60_000, "60"],
    ["60.999 s left says 61", 60_999, "61"],
    ["1 ms left says 1", 1, "1"],
  ];

  it.each(EDGES)("the hourly quota: %s", async (_, left, seconds) => {
    const sim = createTestSim({ customers: 0, access: { rateLimit: 1 } });
    expect((await sim.call("GET", "/shop")).status).toBe(200);
    sim.clock.advance(HOUR - left);
    expect(await retryAfter(sim, "/shop")).toEqual([429, seconds, `Rate limit of 1 requests per hour exceeded; retry in ${seconds} s`]);
  });

  it.each(EDGES)("a scenario rateLimit rule of 120 s: %s", async (_, left, seconds) => {
    const scenario = parseScenario({ name: "t", rules: [{ match: { operation: "getShop" }, respond: { rateLimit: { limit: 1, windowSeconds: 120 } } }] }, "test");
    const sim = createTestSim({ customers: 0, access: { rateLimit: null }, scenarios: [scenario] });
    expect((await sim.call("GET", "/shop")).status).toBe(200);
    sim.clock.advance(120_000 - left);
    expect(await retryAfter(sim, "/shop")).toEqual([429, seconds, `Rate limit of 1 requests exceeded; retry in ${seconds} s`]);
  });
});

describe("a delayMs range draws over the whole range", () => {
  it("the delays a rule waits, seed 7: the exact draws, every value of [0, 3] among them", async () => {
    const scenario = parseScenario({ name: "t", rules: [{ match: { operation: "getShop" }, respond: { delayMs: [0, 3] } }] }, "test");
    const sim = createTestSim({ customers: 0, access: { rateLimit: null }, seed: 7, scenarios: [scenario] });
    const draw = vi.spyOn(sim.registry, "drawDelay");
    for (let i = 0; i < 40; i++) expect((await sim.call("GET", "/shop")).status).toBe(200);
    const waited = draw.mock.results.map((r) => r.value as number);
    expect(draw.mock.calls.every(([range]) => JSON.stringify(range) === "[0,3]")).toBe(true);
    expect(waited.slice(0, 16)).toEqual([0, 3, 1, 2, 3, 2, 2, 0, 1, 1, 2, 3, 1, 0, 1, 3]);
    expect([0, 1, 2, 3].map((ms) => waited.filter((w) => w === ms).length)).toEqual([8, 13, 9, 10]);
  });

  it("drawDelay, seed 42: the exact draws from [100, 20000], both ends reachable, the range reset with the registry", () => {
    const clock = fixedClock(NOW);
    const registry = new ScenarioRegistry([], () => clock, 42);
    const draws = Array.from({ length: 2000 }, () => registry.drawDelay([100, 20_000], "1"));
    expect(draws.slice(0, 8)).toEqual([7553, 19020, 14667, 12013, 3204, 3204, 1255, 17337]);
    expect([Math.min(...draws), Math.max(...draws)]).toEqual([164, 19_995]);
    const small = Array.from({ length: 400 }, () => registry.drawDelay([5, 6], "1"));
    expect([small.filter((d) => d === 5).length, small.filter((d) => d === 6).length]).toEqual([197, 203]);
    registry.reset();
    expect(registry.drawDelay([100, 20_000], "1")).toBe(7553);
    expect(registry.drawDelay(250, "1")).toBe(250);
  });
});
