/**
 * The library's ways in serve `/graphql` too (spec 5.5): `createSimulator`'s `fetch` and
 * `graphqlUrl`, `intercept()` of production's origin, and `startSimulator` on a real port.
 * @module
 */
import { afterEach, describe, expect, it } from "vitest";
import { createSimulator, graphqlSchemaSDL, PRODUCTION_ORIGIN, startSimulator, type InProcessSimulator } from "../../src/index.js";

const QUERY = JSON.stringify({ query: "{ shop { programName currencySymbol } }" });
/** The default fixture's shop, as GET /shop answers it. */
const SHOP = { data: { shop: { programName: "Crumb & Bean Rewards", currencySymbol: "$" } } };

const post = (fetchFn: typeof fetch, url: string, sim: { apiKey: string; apiSecret: string }) =>
  fetchFn(url, { method: "POST", headers: { "Content-Type": "application/json", "X-Api-Key": sim.apiKey, "X-Api-Secret": sim.apiSecret }, body: QUERY });

describe("GraphQL through the library", () => {
  let sim: InProcessSimulator | undefined;
  afterEach(() => sim?.restore());

  it("createSimulator: sim.fetch reaches sim.graphqlUrl", async () => {
    sim = createSimulator({ customers: 2 });
    const res = await post(sim.fetch, sim.graphqlUrl, sim);
    expect([res.status, await res.json()]).toEqual([200, SHOP]);
  });

  it("intercept(): the global fetch to production's /graphql is answered by the simulator", async () => {
    sim = createSimulator({ customers: 2 });
    sim.intercept();
    const res = await post(fetch, `${PRODUCTION_ORIGIN}/graphql`, sim);
    expect([res.status, await res.json()]).toEqual([200, SHOP]);
    expect((await sim.control.requests({ api: "graphql" })).map((e) => e.path)).toEqual(["/graphql"]);
  });

  it("startSimulator: graphqlUrl on the real port; the SDL is exported as text", async () => {
    const running = await startSimulator({ customers: 2, logLevel: "silent" });
    try {
      expect(running.graphqlUrl).toBe(`${running.url}/graphql`);
      const res = await post(fetch, running.graphqlUrl, running);
      expect([res.status, await res.json()]).toEqual([200, SHOP]);
    } finally {
      await running.close();
    }
    expect(graphqlSchemaSDL).toContain("type Query {");
  });
});
