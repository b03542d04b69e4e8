/**
 * Mutations on a seeded shop: each changes what its REST twin changes, refuses what it refuses
 * with the same code (GraphQL's own TIER_UPDATE_FAILED aside), and a refused one changes nothing
 * (acceptance checks 19-29 and 31).
 * @module
 */
import { beforeEach, describe, expect, it } from "vitest";
import { errorsOf, expectFieldError, graphqlSim, type GqlResult, type GraphqlSim } from "./graphql-sim.js";

let sim: GraphqlSim;
let C: string;
/** Everything the shop holds, to compare before and after a refused mutation. */
const state = () => JSON.stringify(sim.shop.store.data);
const balance = (id = C) => sim.shop.store.customer(id)!.balance;

beforeEach(() => {
  sim = graphqlSim();
  C = sim.activeCustomer(20);
  // Stamps that expired by now leave when their customer is first read, whatever the request.
  for (const c of sim.shop.store.data.customers) sim.shop.getCustomer(c.id);
});

/** Runs a mutation that must be refused, and checks the shop is as it was. */
async function refused(query: string, variables?: Record<string, unknown>): Promise<GqlResult> {
  const before = state();
  const res = await sim.gql(query, variables);
  expect(state()).toBe(before);
  return res;
}

describe("stamps", () => {
  it("awardStamps adds them and labels the activity with the comment (check 19)", async () => {
    const old = balance();
    const res = await sim.gql(`mutation { awardStamps(customerId: "${C}", stamps: 5, comment: "Birthday bonus", internalComment: "Awarded via API") { customerId stampChange stampBalance } }`);
    expect(res.body).toStrictEqual({ data: { awardStamps: { customerId: C, stampChange: 5, stampBalance: old + 5 } } });
    const newest = (await sim.call("GET", `/customers/${C}/activities?limit=1`)).body.data[0];
    expect(newest).toMatchObject({ label: "Birthday bonus", stampChange: 5 });
  });

  it("awardStamps(stamps: 0) is VALIDATION_ERROR; \"five\" and 3000000000 are GraphQL validation errors; nothing changes (check 20)", async () => {
    const zero = await refused(`mutation { awardStamps(customerId: "${C}", stamps: 0) { stampBalance } }`);
    expectFieldError(zero, null, "VALIDATION_ERROR", ["awardStamps"]);
    expect(zero.body.errors[0].extensions.details).toStrictEqual([{ in: "argument", path: "stamps", message: "Too small: expected number to be >=1" }]);
    const five = await refused(`mutation { awardStamps(customerId: "${C}", stamps: "five") { stampBalance } }`);
    expect(five.body).toStrictEqual({ errors: [{ message: 'Int cannot represent non-integer value: "five"', locations: [{ line: 1, column: 61 }] }] });
    const big = await refused(`mutation { awardStamps(customerId: "${C}", stamps: 3000000000) { stampBalance } }`);
    expect(errorsOf(big)).toStrictEqual([{ message: "Int cannot represent non 32-bit signed integer value: 3000000000" }]);
    expect(big.body.data).toBeUndefined();
  });

  it("argument checks come first, as REST's: a bad amount for an unknown customer is VALIDATION_ERROR", async () => {
    expectFieldError(await refused('mutation { awardStamps(customerId: "0", stamps: 0) { stampBalance } }'), null, "VALIDATION_ERROR", ["awardStamps"]);
    const long = await refused(`mutation { awardStamps(customerId: "${C}", stamps: 1, internalComment: "${"x".repeat(1001)}") { stampBalance } }`);
    expect(long.body.errors[0].extensions.details).toStrictEqual([{ in: "argument", path: "internalComment", message: "Too big: expected string to have <=1000 characters" }]);
  });

  it("adjustStamps deducts; below zero is INSUFFICIENT_STAMPS, 0 is VALIDATION_ERROR; the ledger still sums to the balance (check 21)", async () => {
    const old = balance();
    const res = await sim.gql(`mutation { adjustStamps(customerId: "${C}", stamps: -3) { stampChange stampBalance } }`);
    expect(res.body.data.adjustStamps).toStrictEqual({ stampChange: -3, stampBalance: old - 3 });
    const over = await refused(`mutation { adjustStamps(customerId: "${C}", stamps: ${-(old - 3 + 1)}) { stampBalance } }`);
    expectFieldError(over, null, "INSUFFICIENT_STAMPS", ["adjustStamps"]);
    const zero = await refused(`mutation { adjustStamps(customerId: "${C}", stamps: 0) { stampBalance } }`);
    expect(zero.body.errors[0].extensions.details).toStrictEqual([{ in: "argument", path: "stamps", message: "must not be 0" }]);
    expect(sim.shop.ledgerMismatches()).toEqual([]);
  });

  it("processActivity: a weekly rule twice is ACTIVITY_NOT_AWARDED; an unknown rule EARN_RULE_NOT_FOUND (check 22)", async () => {
    const query = (rule: string) => `mutation { processActivity(customerId: "${C}", earnRuleId: "${rule}") { stampChange stampBalance } }`;
    const old = balance();
    expect((await sim.gql(query("203"))).body.data.processActivity).toStrictEqual({ stampChange: 1, stampBalance: old + 1 });
    expectFieldError(await refused(query("203")), null, "ACTIVITY_NOT_AWARDED", ["processActivity"]);
    expectFieldError(await refused(query("999")), null, "EARN_RULE_NOT_FOUND", ["processActivity"]);
  });

  it("a balance may not pass 2^31-1, GraphQL's Int: the write is refused before it commits, so stampBalance is always answered (issue 26)", async () => {
    const old = balance();
    const res = await refused(`mutation { adjustStamps(customerId: "${C}", stamps: 2147483647) { stampBalance } }`);
    expectFieldError(res, null, "VALIDATION_ERROR", ["adjustStamps"]);
    expect(res.body.errors[0].extensions.details).toStrictEqual([{ in: "argument", path: "stamps", message: "would take the balance beyond 2147483647, the most stamps a balance may hold (production's GraphQL API types stamp counts as 32-bit integers)" }]);
    expect(balance()).toBe(old);
  });
});

describe("rewards and codes", () => {
  const redeem = (customer: string, reward: string) => `mutation { redeemReward(customerId: "${customer}", rewardProductId: ${reward}) { code name stampBalance } }`;

  it("redeemReward spends the price and issues an available code; voidRewardCode refunds it once (checks 23, 26)", async () => {
    const old = balance();
    const res = await sim.gql(redeem(C, '"102"'));
    const { code, stampBalance } = res.body.data.redeemReward;
    expect(code).toMatch(/^LOYAL-/);
    expect(stampBalance).toBe(old - 10);
    const codes = (await sim.gql(`{ rewardCodes(customerId: "${C}", available: true) { id code used } }`)).body.data.rewardCodes;
    const issued = codes.find((c: { code: string }) => c.code === code);
    expect(issued).toMatchObject({ used: false });

    const voided = await sim.gql(`mutation { voidRewardCode(customerId: "${C}", rewardCodeId: "${issued.id}") { id used } }`);
    expect(voided.body.data.voidRewardCode).toStrictEqual({ id: issued.id, used: true });
    expect(balance()).toBe(old);
    const again = await refused(`mutation { voidRewardCode(customerId: "${C}", rewardCodeId: "${issued.id}") { id } }`);
    expectFieldError(again, null, "VOID_FAILED", ["voidRewardCode"]);
    const other = sim.activeCustomer(0) === C ? sim.shop.store.data.customers.find((c) => c.id !== C)!.id : sim.activeCustomer(0);
    const theirs = await refused(`mutation { voidRewardCode(customerId: "${other}", rewardCodeId: "${issued.id}") { id } }`);
    expectFieldError(theirs, null, "REWARD_CODE_NOT_FOUND", ["voidRewardCode"]);
  });

  it("markRewardCodeUsed marks a fresh code used and refunds nothing (check 26)", async () => {
    const { code } = (await sim.gql(redeem(C, "101"))).body.data.redeemReward;
    const id = sim.shop.listRewardCodes(C, false).find((c) => c.code === code)!.id;
    const old = balance();
    const res = await sim.gql(`mutation { markRewardCodeUsed(customerId: "${C}", rewardCodeId: "${id}") { id code used } }`);
    expect(res.body.data.markRewardCodeUsed).toStrictEqual({ id, code, used: true });
    expect(balance()).toBe(old);
  });

  it("redeemReward refusals: too few stamps, unknown reward, tier-locked reward, unknown customer first (check 24)", async () => {
    const poor = sim.shop.store.data.customers.find((c) => !c.excluded && c.mergedIntoCustomerId === undefined && c.balance < 10)!.id;
    expectFieldError(await refused(redeem(poor, '"102"')), null, "INSUFFICIENT_STAMPS", ["redeemReward"]);
    expectFieldError(await refused(redeem(C, '"999"')), null, "REWARD_NOT_FOUND", ["redeemReward"]);
    expectFieldError(await refused(redeem(C, '"107"')), null, "REWARD_NOT_FOUND", ["redeemReward"]);
    expectFieldError(await refused(redeem("0", '"999"')), null, "CUSTOMER_NOT_FOUND", ["redeemReward"]);
  });

  it("a variable reward needs variableAmount within its bounds", async () => {
    const missing = await refused(redeem(C, '"106"'));
    expect(missing.body.errors[0].extensions.details).toStrictEqual([{ in: "argument", path: "variableAmount", message: "is required: reward 106 is a variable-amount reward" }]);
    const tooMany = await refused(`mutation { redeemReward(customerId: "${C}", rewardProductId: "106", variableAmount: 101) { code } }`);
    expect(tooMany.body.errors[0].extensions.details).toStrictEqual([{ in: "argument", path: "variableAmount", message: "must be between 1 and 100 for reward 106" }]);
    const zero = await refused(`mutation { redeemReward(customerId: "${C}", rewardProductId: "106", variableAmount: 0) { code } }`);
    expect(zero.body.errors[0].extensions.details).toStrictEqual([{ in: "argument", path: "variableAmount", message: "Too small: expected number to be >=1" }]);
    const old = balance();
    expect((await sim.gql(`mutation { redeemReward(customerId: "${C}", rewardProductId: "106", variableAmount: 3) { stampBalance } }`)).body.data.redeemReward).toStrictEqual({ stampBalance: old - 3 });
  });

  it("grantReward with an Int literal for the ID issues a code at no cost (check 25)", async () => {
    const old = balance();
    const res = await sim.gql(`mutation { grantReward(customerId: "${C}", rewardProductId: 102) { code name stampBalance } }`);
    expect(res.body.data.grantReward).toStrictEqual({ code: expect.stringMatching(/^LOYAL-/), name: "Free coffee of your choice", stampBalance: old });
  });
});

describe("customers", () => {
  it("setCustomerTier: an Int vipTierId and the tier's name; unknown tier; triggerRewards issues the tier's codes (check 27)", async () => {
    const res = await sim.gql(`mutation { setCustomerTier(customerId: "${C}", tierId: "3") { id vipTierId vipTierName nextReward { id } } }`);
    expect(res.body.data.setCustomerTier).toStrictEqual({ id: C, vipTierId: 3, vipTierName: "Gold", nextReward: null });
    expectFieldError(await refused(`mutation { setCustomerTier(customerId: "${C}", tierId: "99") { id } }`), null, "TIER_NOT_FOUND", ["setCustomerTier"]);
    const codes = sim.shop.listRewardCodes(C, false).length;
    await sim.gql(`mutation { setCustomerTier(customerId: "${C}", tierId: "4", triggerRewards: true) { id } }`);
    expect(sim.shop.listRewardCodes(C, false).length).toBe(codes + 2);
    await sim.gql(`mutation { setCustomerTier(customerId: "${C}", tierId: "2", triggerRewards: null) { id } }`);
    expect(sim.shop.listRewardCodes(C, false).length).toBe(codes + 2);
  });

  it("updateCustomer: a birthday, the pair rule, a platform field, an unknown id (check 28)", async () => {
    const update = (input: string, id = C) => `mutation { updateCustomer(id: "${id}", input: ${input}) { dateOfBirth } }`;
    expect((await sim.gql(update("{birthdayMonth: 12, birthdayDay: 10}"))).body).toStrictEqual({ data: { updateCustomer: { dateOfBirth: "10-12" } } });
    const feb30 = await refused(update("{birthdayMonth: 2, birthdayDay: 30}"));
    expectFieldError(feb30, { updateCustomer: null }, "VALIDATION_ERROR", ["updateCustomer"]);
    expect(feb30.body.errors[0].extensions.details).toStrictEqual([{ in: "argument", path: "input.birthdayDay", message: "month 2 has at most 29 days" }]);
    const alone = await refused(update("{birthdayMonth: 6}"));
    expectFieldError(alone, { updateCustomer: null }, "VALIDATION_ERROR", ["updateCustomer"]);
    expect(alone.body.errors[0].extensions.details).toStrictEqual([{ in: "argument", path: "input.birthdayDay", message: "is required when birthdayMonth is sent" }]);
    const email = await refused(update('{email: "x"}'));
    expect(errorsOf(email)).toStrictEqual([{ message: 'Field "email" is not defined by type "UpdateCustomerInput".' }]);
    expectFieldError(await refused(update("{}", "0")), { updateCustomer: null }, "CUSTOMER_NOT_FOUND", ["updateCustomer"]);
  });

  it("exclusion: removed, then awards are ACTIVITY_NOT_AWARDED and tier changes TIER_UPDATE_FAILED; re-included (check 29)", async () => {
    const exclude = (value: boolean) => `mutation { updateCustomer(id: "${C}", input: {excluded: ${value}}) { state } }`;
    expect((await sim.gql(exclude(true))).body.data.updateCustomer).toStrictEqual({ state: "removed" });
    expectFieldError(await refused(`mutation { awardStamps(customerId: "${C}", stamps: 1) { stampBalance } }`), null, "ACTIVITY_NOT_AWARDED", ["awardStamps"]);
    const tier = await refused(`mutation { setCustomerTier(customerId: "${C}", tierId: "3") { id } }`);
    expectFieldError(tier, null, "TIER_UPDATE_FAILED", ["setCustomerTier"]);
    expect(tier.body.errors[0].extensions.reason).toMatch(/is removed from the loyalty program/);
    expect((await sim.gql(exclude(false))).body.data.updateCustomer).toStrictEqual({ state: "active" });
  });

  it("a merged customer's tier change is TIER_UPDATE_FAILED too", async () => {
    const M = sim.mergedCustomer();
    expectFieldError(await refused(`mutation { setCustomerTier(customerId: "${M}", tierId: "3") { id } }`), null, "TIER_UPDATE_FAILED", ["setCustomerTier"]);
  });
});

describe("several mutations in one operation (check 31)", () => {
  it("a failing non-null mutation nulls data and the ones after it never run", async () => {
    const res = await refused(`mutation { a: awardStamps(customerId: "0", stamps: 1) { stampBalance } b: awardStamps(customerId: "${C}", stamps: 1) { stampBalance } }`);
    expectFieldError(res, null, "CUSTOMER_NOT_FOUND", ["a"]);
    expect(res.graphql!.fields.map((f) => [f.alias, f.error])).toStrictEqual([["a", "CUSTOMER_NOT_FOUND"], ["b", "NOT_RUN"]]);
  });

  it("a failing nullable mutation (updateCustomer) does not stop the next, and an earlier one stays applied", async () => {
    const old = balance();
    const res = await sim.gql(`mutation { a: awardStamps(customerId: "${C}", stamps: 2) { stampBalance } b: updateCustomer(id: "0", input: {}) { id } c: awardStamps(customerId: "${C}", stamps: 3) { stampBalance } }`);
    expect(res.body.data).toStrictEqual({ a: { stampBalance: old + 2 }, b: null, c: { stampBalance: old + 5 } });
    expect(errorsOf(res)).toStrictEqual([{ message: "CUSTOMER_NOT_FOUND", path: ["b"] }]);
  });
});
