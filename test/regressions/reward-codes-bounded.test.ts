/**
 * Issue 26, case 5. Was: `rewardCodes` escaped the list cap. Free grants gave one customer 100k
 * codes; then one 3.9 KB GraphQL query with 50 `rewardCodes` aliases blocked the event loop 9.7 s
 * and answered 500 (a reset on the first try); with 20k codes the answer was 114 MiB. A customer
 * now holds at most 1000 codes (a grant, redemption or tier reward past it is a 422 that changes
 * nothing, on REST and GraphQL alike), and each `rewardCodes` field counts 1000 items against
 * the 10,000 list items an operation may ask for.
 */
import { describe, expect, it } from "vitest";
import { graphqlSim, type GraphqlSim } from "../graphql/graphql-sim.js";
import { NOW_ISO } from "../support/sim.js";

const MAX_CODES = 1000;
const full = (id: string, held = MAX_CODES, more = 1) =>
  `Customer ${id} holds ${held} reward codes, and ${more} more would make ${held + more}: one customer may hold at most ${MAX_CODES} (codes are never removed); reset the shop (POST /__sim/reset) or use another customer`;
/** The 422 of a write past the limit. */
const refusal = (message: string) => ({
  success: false,
  error: { message, code: "VALIDATION_ERROR", statusCode: 422, details: [{ in: "path", path: "id", message }] },
  timestamp: NOW_ISO,
});

/** A customer with the stamps reward 101 costs, given codes through the store up to `codes`. */
function customerWithCodes(sim: GraphqlSim, codes: number): string {
  const id = sim.activeCustomer(5);
  const { store } = sim.shop;
  for (let n = store.codesOf(id).length; n < codes; n++) {
    store.addCode({ customerId: id, rewardId: 101, name: "Free extra shot or syrup", code: `LOYAL-T${n}`, used: false, voided: false, cost: 0, createdAt: 0 });
  }
  return id;
}

describe("issue 26, case 5: rewardCodes escapes the list cap", () => {
  it(`REST: a grant, a redemption or a tier's rewards past ${MAX_CODES} codes are a 422 naming the limit, and change nothing`, async () => {
    const sim = graphqlSim({ customers: 20 });
    const id = customerWithCodes(sim, MAX_CODES - 1);
    // Tier 4 gives two rewards: refused whole, its tier change included.
    const tierBefore = JSON.stringify(sim.shop.store.data);
    const tier = await sim.call("POST", `/customers/${id}/tier`, { body: { tier_id: 4, trigger_rewards: true } });
    expect([tier.status, tier.body]).toEqual([422, refusal(full(id, MAX_CODES - 1, 2))]);
    expect(JSON.stringify(sim.shop.store.data)).toBe(tierBefore);
    expect((await sim.call("POST", `/customers/${id}/reward-grants`, { body: { reward_product_id: 101 } })).status).toBe(200);
    const before = JSON.stringify(sim.shop.store.data);
    for (const [path, body] of [
      ["reward-grants", { reward_product_id: 101 }],
      ["redemptions", { reward_product_id: 101 }],
      ["tier", { tier_id: 1, trigger_rewards: true }],
    ] as const) {
      const res = await sim.call("POST", `/customers/${id}/${path}`, { body });
      expect([path, res.status, res.body]).toEqual([path, 422, refusal(full(id))]);
    }
    expect(JSON.stringify(sim.shop.store.data)).toBe(before);
    // Without its rewards, a tier change needs no room.
    expect((await sim.call("POST", `/customers/${id}/tier`, { body: { tier_id: 4 } })).status).toBe(200);
    // The codes are answered whole, as production does.
    const listed = await sim.call("GET", `/customers/${id}/reward-codes`);
    expect([listed.status, listed.body.data.length, listed.body.meta.count]).toEqual([200, MAX_CODES, MAX_CODES]);
  });

  it("GraphQL: the same refusal, as the field's VALIDATION_ERROR naming the argument", async () => {
    const sim = graphqlSim({ customers: 20 });
    const id = customerWithCodes(sim, MAX_CODES);
    const before = JSON.stringify(sim.shop.store.data);
    const res = await sim.gql(`mutation { grantReward(customerId: "${id}", rewardProductId: "101") { code } }`);
    expect(res.body).toStrictEqual({
      data: null,
      errors: [
        {
          message: "VALIDATION_ERROR",
          locations: [{ line: 1, column: 12 }],
          path: ["grantReward"],
          extensions: { reason: full(id), details: [{ in: "argument", path: "customerId", message: full(id) }] },
        },
      ],
    });
    expect(JSON.stringify(sim.shop.store.data)).toBe(before);
  });

  it(`each rewardCodes field counts ${MAX_CODES} list items: 11 are refused before anything runs, 10 are answered`, async () => {
    const sim = graphqlSim({ customers: 20 });
    const id = customerWithCodes(sim, MAX_CODES);
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `r${i}: rewardCodes(customerId: "${id}") { id code used }`).join(" ")} }`;
    const refused = await sim.gql(aliases(11));
    expect(refused.body).toStrictEqual({
      errors: [{ message: `An operation may ask for at most 10000 list items in all (the sum of its limits, ${MAX_CODES} for each rewardCodes); this one asks for 11000.` }],
    });
    const answered = await sim.gql(aliases(10));
    expect(Object.values(answered.body.data as Record<string, unknown[]>).map((codes) => codes.length)).toEqual(Array(10).fill(MAX_CODES));
    const mixed = await sim.gql(`{ rewardCodes(customerId: "${id}") { id } customers(limit: 1000) { items { id } } c: customers(limit: 8001) { items { id } } }`);
    expect(mixed.body.errors[0].message).toBe(`An operation may ask for at most 10000 list items in all (the sum of its limits, ${MAX_CODES} for each rewardCodes); this one asks for 10001.`);
  });
});
