/**
 * Integer edges across REST and GraphQL (issue 26). Balances and inputs at and around the edges
 * (0, 1, 2^31-2, 2^31-1, 2^31, 2^53-1, 2^53, -2^31 and the like) meet every write that moves
 * stamps or checks an amount: award, adjust, redeem and grant of a variable reward, void (a refund
 * back to the cap) and earn rules (step x tier multiplier up to the cap). Each operation runs over
 * REST on one shop and over GraphQL on an identical one; both must end the same way (a GraphQL
 * `Int` refused by graphql-js before execution counts as REST's VALIDATION_ERROR), leave the same
 * shop, change nothing when refused, and GraphQL must answer every field of a write it committed
 * and of every read after it (never null with an Int error).
 *
 * FC_SEED=<n> replays a run.
 * @module
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_STAMPS } from "../../src/engine/limits.js";
import { graphqlOverHttp } from "../graphql/http-sim.js";

const SEED = process.env.FC_SEED !== undefined ? Number(process.env.FC_SEED) : Math.floor(Math.random() * 2 ** 31);
const MAX = MAX_STAMPS;
const SAFE = Number.MAX_SAFE_INTEGER;

/** The program's variable reward, with no upper bound of its own (the engine's, MAX_STAMPS, applies). */
const VARIABLE = 106;
/** An earn rule awarding half the cap (times the tier multiplier: 2 at the top tier), and one awarding 1. */
const BIG_RULE = 201;
const SMALL_RULE = 203;
const TOP_TIER = 4;

const balances = fc.oneof(fc.constantFrom(0, 1, 2, MAX - 2, MAX - 1, MAX, Math.floor(MAX / 2)), fc.integer({ min: 0, max: MAX }));
/** Amounts at the fixed edges, at the edges this balance makes (all of it, what is left to the cap), and anywhere. */
const amounts = (balance: number) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(0, 1, -1, 2, MAX - 1, MAX, MAX + 1, -MAX, -MAX - 1, -MAX - 2, SAFE, SAFE + 1, -SAFE, -SAFE - 1) },
    { weight: 2, arbitrary: fc.constantFrom(balance, balance + 1, -balance, -balance - 1, MAX - balance, MAX - balance + 1) },
    { weight: 1, arbitrary: fc.integer({ min: -(2 ** 32), max: 2 ** 32 }) },
  );

type Kind = "award" | "adjust" | "redeem" | "grant" | "void" | "earn";
const KINDS: Kind[] = ["award", "adjust", "redeem", "grant", "void", "earn"];
interface Case {
  kind: Kind;
  balance: number;
  amount: number;
  /** Sent as a GraphQL variable (coerced) or written in the document (validated). */
  asVariable: boolean;
  topTier: boolean;
}
const caseArb: fc.Arbitrary<Case> = balances.chain((balance) =>
  fc.record({ kind: fc.constantFrom(...KINDS), balance: fc.constant(balance), amount: amounts(balance), asVariable: fc.boolean(), topTier: fc.boolean() }),
);

function newShop() {
  return graphqlOverHttp({
    customers: 0,
    access: { rateLimit: null },
    program: (p) => {
      const reward = p.rewards.find((r) => r.id === VARIABLE)!;
      delete reward.maxAmount;
      for (const rule of p.earnRules) rule.limit = { kind: "none" };
      p.earnRules.find((r) => r.id === BIG_RULE)!.step = Math.floor(MAX / 2);
      p.settings.expiry = { mode: "off" };
    },
  });
}
type Shop = ReturnType<typeof newShop>;

/**
 * The customer of a case, made the same way in a shop: for a void, a code that cost the amount
 * (brought within what a code can cost) and then the balance; else the balance; at the top tier
 * or at none.
 */
function prepare(shop: Shop, c: Case, n: number): { id: string; codeId: string } {
  const id = String(7_000_000_000_000 + n);
  const cost = Math.min(MAX, Math.max(1, Math.abs(c.amount)));
  shop.shop.syncCustomer({ id, firstName: "Edge", lastName: String(n), email: `edge${n}@example.com`, stampBalance: c.kind === "void" ? cost : c.balance });
  let codeId = "";
  if (c.kind === "void") {
    codeId = String(shop.shop.store.data.nextCodeId);
    shop.shop.redeemReward(id, VARIABLE, cost);
    if (c.balance > 0) shop.shop.awardStamps(id, { stamps: c.balance });
  }
  if (c.topTier) shop.shop.setCustomerTier(id, { tierId: TOP_TIER, triggerRewards: false });
  return { id, codeId };
}

/** The REST request of a case. */
function restOf(c: Case, id: string, codeId: string): [string, object] {
  const base = `/customers/${id}`;
  switch (c.kind) {
    case "award":
      return [`${base}/stamps/award`, { stamps: c.amount }];
    case "adjust":
      return [`${base}/stamps/adjust`, { stamps: c.amount }];
    case "redeem":
      return [`${base}/redemptions`, { reward_product_id: VARIABLE, variable_amount: c.amount }];
    case "grant":
      return [`${base}/reward-grants`, { reward_product_id: VARIABLE, variable_amount: c.amount }];
    case "void":
      return [`${base}/reward-codes/${codeId}/void`, {}];
    case "earn":
      return [`${base}/activities`, { earn_rule_id: c.amount % 2 === 0 ? BIG_RULE : SMALL_RULE }];
  }
}

/** The GraphQL mutation of a case (its field is `m`), with the amount as a variable or a literal. */
function graphqlOf(c: Case, id: string, codeId: string): { query: string; variables?: Record<string, unknown> } {
  const amount = c.asVariable ? "$n" : String(c.amount);
  const who = `customerId: "${id}"`;
  const fields: Record<Kind, string> = {
    award: `awardStamps(${who}, stamps: ${amount}) { customerId stampChange stampBalance }`,
    adjust: `adjustStamps(${who}, stamps: ${amount}) { customerId stampChange stampBalance }`,
    redeem: `redeemReward(${who}, rewardProductId: "${VARIABLE}", variableAmount: ${amount}) { code name stampBalance }`,
    grant: `grantReward(${who}, rewardProductId: "${VARIABLE}", variableAmount: ${amount}) { code name stampBalance }`,
    void: `voidRewardCode(${who}, rewardCodeId: "${codeId}") { id code used }`,
    earn: `processActivity(${who}, earnRuleId: "${c.amount % 2 === 0 ? BIG_RULE : SMALL_RULE}") { customerId stampChange stampBalance }`,
  };
  const takesAmount = !["void", "earn"].includes(c.kind);
  if (c.asVariable && takesAmount) return { query: `mutation ($n: Int!) { m: ${fields[c.kind]} }`, variables: { n: c.amount } };
  return { query: `mutation { m: ${fields[c.kind].replace("$n", String(c.amount))} }` };
}

/** Every field a GraphQL read can give of the customer, each an Int or built of Ints. */
const READ = (id: string) =>
  `{ customer(id: "${id}") { stampBalance cards stampsToNextReward vipTierId } customerActivities(customerId: "${id}", limit: 5) { items { stampChange } pageInfo { count } } rewardCodes(customerId: "${id}") { id } }`;

const stateOf = (shop: Shop) => JSON.stringify(shop.shop.store.data);

describe(`integer edges across REST and GraphQL (FC_SEED=${SEED})`, () => {
  it("each write ends the same way over both APIs on identical shops, refusals change nothing, and GraphQL answers every committed field", async () => {
    const viaRest = newShop();
    const viaGraphql = newShop();
    const seen = new Set<string>();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        n++;
        const { id, codeId } = prepare(viaRest, c, n);
        expect(prepare(viaGraphql, c, n)).toStrictEqual({ id, codeId });
        const before = stateOf(viaRest);
        expect(stateOf(viaGraphql)).toBe(before);

        const [path, body] = restOf(c, id, codeId);
        const rest = await viaRest.call("POST", path, { body });
        const restOutcome = rest.status === 200 ? "OK" : rest.body.error.code;
        expect(rest.status).toBeLessThan(500);

        const { query, variables } = graphqlOf(c, id, codeId);
        const gql = await viaGraphql.post(query, variables);
        expect(gql.status).toBe(200);
        // graphql-js refuses an Int beyond 32 bits before anything runs: a request error, no data.
        const requestError = !("data" in gql.body);
        const graphqlOutcome = requestError ? "VALIDATION_ERROR" : (gql.body.errors?.[0]?.message ?? "OK");
        expect([c, graphqlOutcome]).toStrictEqual([c, restOutcome]);
        if (requestError) expect(gql.body.errors[0].message).toMatch(/Int cannot represent non 32-bit signed integer value/);

        // The same shop afterwards; a refusal changed nothing.
        expect(stateOf(viaGraphql)).toBe(stateOf(viaRest));
        if (restOutcome !== "OK") expect(stateOf(viaRest)).toBe(before);
        else {
          // Committed: every field answered, the numbers REST gives.
          expect(gql.body.errors).toBeUndefined();
          for (const value of Object.values(gql.body.data.m)) expect(value).not.toBeNull();
          if ("stampBalance" in gql.body.data.m) expect(gql.body.data.m.stampBalance).toBe(rest.body.data.stampBalance);
        }
        const read = await viaGraphql.post(READ(id));
        expect(read.body.errors).toBeUndefined();
        expect(read.body.data.customer.stampBalance).toBe((await viaRest.call("GET", `/customers/${id}`)).body.data.stampBalance);
        expect(viaRest.shop.store.customer(id)!.balance).toBeLessThanOrEqual(MAX);
        seen.add(`${c.kind} ${restOutcome}`);
      }),
      { seed: SEED, numRuns: Number(process.env.FC_RUNS ?? 150) },
    );
    expect(viaRest.shop.ledgerMismatches()).toEqual([]);
    expect(viaRest.bugs).toEqual([]);
    expect(viaGraphql.bugs).toEqual([]);
    // Not a tautology: every write was both committed and refused for its amount.
    for (const kind of KINDS) {
      expect([...seen].filter((s) => s.startsWith(`${kind} `)).sort(), `outcomes of ${kind}`).toEqual(expect.arrayContaining([`${kind} OK`, `${kind} VALIDATION_ERROR`]));
    }
  });
});
