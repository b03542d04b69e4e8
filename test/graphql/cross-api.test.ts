/**
 * One engine behind two APIs (issue 20): any sequence of writes, each sent through REST or GraphQL
 * at random, leaves a shop exactly as the same sequence sent through REST alone leaves a second
 * simulator of the same seed: the same outcome code at each step, then the same customers,
 * ledgers and reward codes. GraphQL renames one code, TIER_UPDATE_FAILED (A17); ids are digits (a
 * non-integer id is 422 in a REST body, not found in GraphQL: A5).
 * @module
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTestSim, type TestSim } from "../support/sim.js";
import { graphqlOverHttp } from "./http-sim.js";

const KINDS = ["award", "adjust", "redeem", "grant", "process", "void", "use", "tier"] as const;
type Kind = (typeof KINDS)[number];
interface Step {
  kind: Kind;
  customer: number;
  amount: number;
  id: string;
  viaGraphql: boolean;
}

const step = fc.record({
  kind: fc.constantFrom(...KINDS),
  customer: fc.nat(3),
  amount: fc.integer({ min: -12, max: 25 }),
  id: fc.constantFrom("101", "102", "102", "103", "201", "203", "999", "2", "3"),
  viaGraphql: fc.boolean(),
});

/** The REST request of a step: method, path below the base, body. */
function restOf(s: Step, c: string, codeId: string): [string, string, object] {
  switch (s.kind) {
    case "award":
      return ["POST", `/customers/${c}/stamps/award`, { stamps: s.amount }];
    case "adjust":
      return ["POST", `/customers/${c}/stamps/adjust`, { stamps: s.amount }];
    case "redeem":
      return ["POST", `/customers/${c}/redemptions`, { reward_product_id: Number(s.id) || s.id }];
    case "grant":
      return ["POST", `/customers/${c}/reward-grants`, { reward_product_id: Number(s.id) || s.id }];
    case "process":
      return ["POST", `/customers/${c}/activities`, { earn_rule_id: Number(s.id) || s.id }];
    case "void":
      return ["POST", `/customers/${c}/reward-codes/${codeId}/void`, {}];
    case "use":
      return ["POST", `/customers/${c}/reward-codes/${codeId}/use`, {}];
    case "tier":
      return ["POST", `/customers/${c}/tier`, { tier_id: Number(s.id) || s.id }];
  }
}

/** The GraphQL mutation of a step. */
function graphqlOf(s: Step, c: string, codeId: string): string {
  const who = `customerId: "${c}"`;
  const fields: Record<Kind, string> = {
    award: `awardStamps(${who}, stamps: ${s.amount}) { stampBalance }`,
    adjust: `adjustStamps(${who}, stamps: ${s.amount}) { stampBalance }`,
    redeem: `redeemReward(${who}, rewardProductId: "${s.id}") { code }`,
    grant: `grantReward(${who}, rewardProductId: "${s.id}") { code }`,
    process: `processActivity(${who}, earnRuleId: "${s.id}") { stampChange }`,
    void: `voidRewardCode(${who}, rewardCodeId: "${codeId}") { id }`,
    use: `markRewardCodeUsed(${who}, rewardCodeId: "${codeId}") { id }`,
    tier: `setCustomerTier(${who}, tierId: "${s.id}") { id }`,
  };
  return `mutation { ${fields[s.kind]} }`;
}

/** Everything REST shows of the customers: views, ledgers and reward codes. */
async function state(sim: TestSim, ids: string[]) {
  const out: unknown[] = [];
  for (const id of ids) {
    out.push((await sim.call("GET", `/customers/${id}`, { unchecked: true })).body);
    out.push((await sim.call("GET", `/customers/${id}/activities?limit=1000`, { unchecked: true })).body);
    out.push((await sim.call("GET", `/customers/${id}/reward-codes`, { unchecked: true })).body);
  }
  return out;
}

/** The newest available reward code's id of a customer (the one a void or use step acts on), or one that names none. */
async function newestCode(sim: TestSim, c: string): Promise<string> {
  const res = await sim.call("GET", `/customers/${c}/reward-codes?available=true`, { unchecked: true });
  const codes: { id: string }[] = res.status === 200 ? res.body.data : [];
  return codes[0]?.id ?? "999";
}

describe("REST and GraphQL on one shop", () => {
  it("any mix of the two APIs gives the codes, balances, ledgers and reward codes of REST alone (property)", async () => {
    // What the runs did, so that the property is known to cover each write's successes and refusals, through both APIs.
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 16 }), async (steps) => {
        const mixed = graphqlOverHttp({ customers: 20 });
        const rest = createTestSim({ customers: 20 });
        const records = mixed.shop.store.data.customers;
        // Active ones with stamps, a removed or merged one, and an id no shop has.
        const rich = records.filter((r) => !r.excluded && r.balance >= 20);
        const ids = [rich[0]!.id, rich[1]!.id, records.find((r) => r.excluded)!.id, "6000000000001"];
        for (const s of steps) {
          const c = ids[s.customer]!;
          const codeId = await newestCode(rest, c);
          expect(await newestCode(mixed, c)).toBe(codeId);
          const [method, path, body] = restOf(s, c, codeId);
          const alone = await rest.call(method, path, { body, unchecked: true });
          const expected = alone.status === 200 ? "ok" : alone.body.error.code;
          let got: string;
          if (s.viaGraphql) {
            const res = await mixed.post(graphqlOf(s, c, codeId));
            const message: string | undefined = res.body.errors?.[0]?.message;
            got = message === undefined ? "ok" : message === "TIER_UPDATE_FAILED" ? "ACTIVITY_NOT_AWARDED" : message;
          } else {
            const res = await mixed.call(method, path, { body, unchecked: true });
            got = res.status === 200 ? "ok" : res.body.error.code;
          }
          expect([s, got]).toEqual([s, expected]);
          for (const key of [`${s.kind} ${got === "ok" ? "ok" : "refused"}`, `${s.kind} via ${s.viaGraphql ? "graphql" : "rest"}`]) seen.set(key, (seen.get(key) ?? 0) + 1);
        }
        expect(await state(mixed, ids)).toEqual(await state(rest, ids));
      }),
      { numRuns: 40, seed: 7 },
    );
    expect([...seen.keys()].sort()).toEqual(KINDS.flatMap((k) => [`${k} ok`, `${k} refused`, `${k} via graphql`, `${k} via rest`]).sort());
  });
});
