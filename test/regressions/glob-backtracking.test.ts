/**
 * Issue 17, case 1. Was: `match.path` globs and the journal's `?path=` filter were compiled to
 * backtracking regexes, so a few stars made every request take seconds, and a journal query hang
 * the server. The timeouts only make a regression fail instead of hanging the run.
 */
import { describe, expect, it } from "vitest";
import { createTestSim } from "../support/sim.js";

const teapot = { status: 418 };
/** The documented longest glob (docs/scenarios.md, Rules). */
const MAX_GLOB_LENGTH = 1024;

describe("path globs cost at most path x pattern", () => {
  it("a rule with /****************x answers every request at once", async () => {
    const sim = createTestSim({ customers: 1 });
    const added = await sim.call("POST", "/__sim/scenarios", { body: { name: "stars", rules: [{ match: { path: "/****************x" }, respond: teapot }] } });
    expect(added.status).toBe(201);
    const long = "1".repeat(50);
    for (let i = 0; i < 5; i++) expect((await sim.call("GET", `/customers/${long}`, { unchecked: true })).status).toBe(404);
    expect((await sim.call("GET", `/customers/${long}x`, { unchecked: true })).status).toBe(418);
  });

  it("a rule with /customers/*a*a*a*a*a*a*b against a 100-character id", async () => {
    const sim = createTestSim({ customers: 1 });
    await sim.call("POST", "/__sim/scenarios", { body: { name: "as", rules: [{ match: { path: "/customers/*a*a*a*a*a*a*b" }, respond: teapot }] } });
    const as = "a".repeat(100);
    expect((await sim.call("GET", `/customers/${as}`, { unchecked: true })).status).toBe(404);
    expect((await sim.call("GET", `/customers/${as}b`, { unchecked: true })).status).toBe(418);
  });

  it("GET /__sim/requests?path=/********************x over 20 entries", async () => {
    const sim = createTestSim({ customers: 1 });
    for (let i = 0; i < 19; i++) await sim.call("GET", `/customers/${"1".repeat(30 + i)}`, { unchecked: true });
    await sim.call("GET", "/customers/12x", { unchecked: true });
    const res = await sim.call("GET", `/__sim/requests?path=${encodeURIComponent("/********************x")}`);
    expect([res.status, res.body.requests.map((e: { path: string }) => e.path)]).toEqual([200, ["/rest_api/v1/customers/12x"]]);
  });

  it(`patterns longer than ${MAX_GLOB_LENGTH} characters are refused, in rules and in the journal filter`, async () => {
    const sim = createTestSim({ customers: 0 });
    const pattern = `/${"*a".repeat(MAX_GLOB_LENGTH / 2)}`;
    const rule = await sim.call("POST", "/__sim/scenarios", { body: { name: "long", rules: [{ match: { path: pattern }, respond: teapot }] } });
    expect([rule.status, rule.body.error.details]).toEqual([
      422,
      [{ in: "body", path: "rules[0].match.path", message: `Too big: expected string to have <=${MAX_GLOB_LENGTH} characters` }],
    ]);
    const query = await sim.call("GET", `/__sim/requests?path=${encodeURIComponent(pattern)}`);
    expect([query.status, query.body.error.details]).toEqual([422, [{ in: "query", path: "path", message: `Too big: expected string to have <=${MAX_GLOB_LENGTH} characters` }]]);
    const fits = await sim.call("GET", `/__sim/requests?path=${encodeURIComponent(pattern.slice(1))}`);
    expect([fits.status, fits.body.requests]).toEqual([200, []]);
  });
});
