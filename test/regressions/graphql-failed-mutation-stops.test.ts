/**
 * Regression (issue 26, case 15 d): the README's scenario example said a forced error fails its
 * field and "the other root fields run"; in a mutation graphql-js runs the root fields one after
 * another and stops at a non-null one that failed, so the ones after it never run (and `data` is
 * null). The README now says so, and this pins what it says: the fields before stay applied, the
 * ones after do not run and are journaled NOT_RUN, a failed nullable field (updateCustomer) stops
 * nothing, and in a query the other root fields do run.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseScenario } from "../../src/scenarios/load.js";
import { graphqlOverHttp } from "../graphql/http-sim.js";

const checkoutFails = parseScenario(
  { name: "checkout-fails", rules: [{ match: { api: "graphql", graphql: { operationName: "Checkout", field: "redeemReward" } }, times: 1, respond: { error: "INSUFFICIENT_STAMPS" } }] },
  "test",
);

async function setup() {
  const sim = graphqlOverHttp({ customers: 20, scenarios: [checkoutFails] });
  const id = sim.activeCustomer(20);
  return { ...sim, id, fieldsOf: async () => (await sim.call("GET", "/__sim/requests?api=graphql&limit=1")).body.requests[0].graphql.fields.map((f: { alias: string | null; field: string; error: string | null }) => [f.alias ?? f.field, f.error]) };
}

describe("issue 26, case 15 (d): the README says \"the other root fields run\" where a failed non-null mutation field stops the later ones", () => {
  it("a forced error on redeemReward: the award before it stays applied, the award after it never runs", async () => {
    const sim = await setup();
    const before = await sim.balance(sim.id);
    const res = await sim.post(
      `mutation Checkout { a: awardStamps(customerId: "${sim.id}", stamps: 1) { stampBalance } redeemReward(customerId: "${sim.id}", rewardProductId: "101") { code } b: awardStamps(customerId: "${sim.id}", stamps: 100) { stampBalance } }`,
    );
    expect(res.body.data).toBeNull();
    expect(res.body.errors.map((e: { message: string; path: string[] }) => [e.message, e.path])).toStrictEqual([["INSUFFICIENT_STAMPS", ["redeemReward"]]]);
    expect(await sim.balance(sim.id)).toBe(before + 1);
    expect(await sim.fieldsOf()).toStrictEqual([["a", null], ["redeemReward", "INSUFFICIENT_STAMPS"], ["b", "NOT_RUN"]]);
  });

  it("a failed nullable mutation field stops nothing; in a query the other root fields run", async () => {
    const sim = await setup();
    const before = await sim.balance(sim.id);
    const mutation = await sim.post(`mutation { u: updateCustomer(id: "0", input: {}) { id } a: awardStamps(customerId: "${sim.id}", stamps: 2) { stampBalance } }`);
    expect(mutation.body.data).toStrictEqual({ u: null, a: { stampBalance: before + 2 } });
    expect(await sim.fieldsOf()).toStrictEqual([["u", "CUSTOMER_NOT_FOUND"], ["a", null]]);
    const query = await sim.post(`{ c: customer(id: "0") { id } shop { currency } }`);
    expect(query.body.data).toStrictEqual({ c: null, shop: { currency: "USD" } });
  });

  it("the GraphQL page's scenario example (once the README's) says what these show", () => {
    const readme = readFileSync(new URL("../../docs/graphql.md", import.meta.url), "utf8");
    const line = readme.split("\n").find((l) => l.includes("respond: { error: INSUFFICIENT_STAMPS }"))!;
    expect(line).not.toContain("the other root fields run");
    expect(line).toContain("# that field fails; the mutation fields after it do not run");
    expect(readme).toContain("stops at a non-null one that failed");
  });
});
