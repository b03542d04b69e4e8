/**
 * Regression (issue 26, case 7): with a balance of 2147483647, GraphQL's `awardStamps(stamps: 1)`
 * answered `data: null` with graphql-js's "Int cannot represent non 32-bit signed integer value"
 * while the award was saved (REST then read 2147483648): a client that retried awarded twice, reads
 * gave `stampBalance: null`, and the journal recorded the field with `error: null`. Every stamp
 * count is now bounded by 2^31-1, GraphQL's `Int`, in both APIs, before anything commits; and a
 * field that failed is journaled with its error, whatever it failed on.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MAX_STAMPS } from "../../src/engine/limits.js";
import { fixtureSchema } from "../../src/program/schema.js";
import { stateProblems } from "../../src/persistence/state-schema.js";
import { graphqlOverHttp } from "../graphql/http-sim.js";
import type { TestSim } from "../support/sim.js";

const BEYOND = `would take the balance beyond ${MAX_STAMPS}, the most stamps a balance may hold (production's GraphQL API types stamp counts as 32-bit integers)`;

/** A shop whose active customer holds `stamps`, set through REST. */
async function holding(stamps: number) {
  const sim = graphqlOverHttp({ customers: 5 });
  const id = sim.activeCustomer();
  const res = await sim.call("POST", `/customers/${id}/stamps/adjust`, { body: { stamps: stamps - (await sim.balance(id)) } });
  expect(res.body.data.stampBalance).toBe(stamps);
  return { ...sim, id };
}

const lastEntry = async (sim: TestSim) => (await sim.call("GET", "/__sim/requests?api=graphql&limit=1")).body.requests[0];

describe("issue 26, case 7: a GraphQL mutation reports failure for a write it saved", () => {
  it("awardStamps(stamps: 1) on a balance of 2147483647 is refused before it commits, the refusal journaled", async () => {
    const sim = await holding(MAX_STAMPS);
    const before = JSON.stringify(sim.shop.store.data);
    const res = await sim.post(`mutation { awardStamps(customerId: "${sim.id}", stamps: 1) { stampBalance } }`);
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({
      data: null,
      errors: [
        {
          message: "VALIDATION_ERROR",
          locations: [{ line: 1, column: 12 }],
          path: ["awardStamps"],
          extensions: { reason: "Request validation failed", details: [{ in: "argument", path: "stamps", message: BEYOND }] },
        },
      ],
    });
    expect(JSON.stringify(sim.shop.store.data)).toBe(before);
    expect(await sim.balance(sim.id)).toBe(MAX_STAMPS);
    expect((await lastEntry(sim)).graphql.fields).toStrictEqual([{ field: "awardStamps", alias: null, operation: "awardStamps", customerId: sim.id, error: "VALIDATION_ERROR" }]);
    const read = await sim.post(`{ customer(id: "${sim.id}") { stampBalance } }`);
    expect(read.body).toStrictEqual({ data: { customer: { stampBalance: MAX_STAMPS } } });
  });

  it("REST refuses the same award the same way", async () => {
    const sim = await holding(MAX_STAMPS);
    const res = await sim.call("POST", `/customers/${sim.id}/stamps/award`, { body: { stamps: 1 } });
    expect(res.status).toBe(422);
    expect(res.body.error).toStrictEqual({ message: "Request validation failed", code: "VALIDATION_ERROR", statusCode: 422, details: [{ in: "body", path: "stamps", message: BEYOND }] });
    expect(await sim.balance(sim.id)).toBe(MAX_STAMPS);
  });

  it("an award up to the bound commits and is answered: stampBalance 2147483647", async () => {
    const sim = await holding(MAX_STAMPS - 1);
    const res = await sim.post(`mutation { awardStamps(customerId: "${sim.id}", stamps: 1) { stampChange stampBalance } }`);
    expect(res.body).toStrictEqual({ data: { awardStamps: { stampChange: 1, stampBalance: MAX_STAMPS } } });
    expect(await sim.balance(sim.id)).toBe(MAX_STAMPS);
    expect((await lastEntry(sim)).graphql.fields[0].error).toBeNull();
  });

  it("a field that fails to serialise is journaled with graphql-js's error, not error: null", async () => {
    const sim = graphqlOverHttp({ customers: 20 });
    const merged = sim.shop.store.data.customers.find((c) => c.mergedIntoCustomerId !== undefined)!;
    const res = await sim.post(`{ customer(id: "${merged.id}") { id mergedIntoCustomerId } }`);
    const message = `Int cannot represent non 32-bit signed integer value: "${merged.mergedIntoCustomerId}"`;
    expect(res.body.errors.map((e: { message: string }) => e.message)).toStrictEqual([message]);
    expect((await lastEntry(sim)).graphql.fields).toStrictEqual([{ field: "customer", alias: null, operation: "getCustomer", customerId: merged.id, error: message }]);
  });

  it("a fixture or a data file holding a count beyond 2^31-1 is refused, naming the field", () => {
    const fixture = JSON.parse(readFileSync(new URL("../../fixtures/default.json", import.meta.url), "utf8"));
    fixture.rewards[0].price = MAX_STAMPS + 1;
    const parsed = fixtureSchema.safeParse(fixture);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => [i.path.join("."), i.message])).toStrictEqual([["rewards.0.price", `must be at most ${MAX_STAMPS}, the most stamps a balance may hold (production's GraphQL API types stamp counts as 32-bit integers)`]]);

    const sim = graphqlOverHttp({ customers: 0 });
    const { id } = sim.shop.syncCustomer({ firstName: "A", lastName: "B", email: "a@example.com", stampBalance: 5 });
    const state = JSON.parse(JSON.stringify({ format: "loyalty-sim-state", version: 1, savedAt: "", shops: [{ spec: sim.engine.spec("1"), data: sim.shop.store.data }] }));
    expect(stateProblems(state)).toEqual([]);
    state.shops[0].data.customers[0].balance = MAX_STAMPS + 1;
    state.shops[0].data.activities[0].stampChange = MAX_STAMPS + 1;
    expect(stateProblems(state)).toStrictEqual([
      `shops[0].data.customers[0].balance: must be at most ${MAX_STAMPS}, the most stamps a balance may hold (production's GraphQL API types stamp counts as 32-bit integers)`,
      `shops[0].data.activities[0].stampChange: must be between -${MAX_STAMPS} and ${MAX_STAMPS}, the most stamps a balance may hold (production's GraphQL API types stamp counts as 32-bit integers)`,
    ]);
    expect(id).toBe(state.shops[0].data.customers[0].id);
  });
});
