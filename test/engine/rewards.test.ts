import { describe, expect, it } from "vitest";
import type { Program } from "../../src/store/types.js";
import { createTestSim, NOW, refusal } from "../support/sim.js";

const CODE = /^LOYAL-[A-HJ-NP-Z2-9]{6}$/;

function setup(stamps = 0, program?: (p: Program) => void) {
  const sim = createTestSim({ customers: 0, ...(program && { program }) });
  const add = (email: string, balance = 0) =>
    sim.shop.syncCustomer({ firstName: "Mary", lastName: "Somerville", email, stampBalance: balance }).id;
  const id = add("mary@example.com", stamps);
  const balance = (cid = id) => sim.shop.getCustomer(cid).value.stampBalance;
  const unchanged = () => {
    const snapshot = JSON.stringify(sim.shop.store.data);
    return () => expect(JSON.stringify(sim.shop.store.data)).toBe(snapshot);
  };
  return { ...sim, id, add, balance, unchanged };
}

describe("redeem", () => {
  it.each([
    // reward, variable amount, starting balance, cost, name
    [101, undefined, 12, 5, "Free extra shot or syrup"],
    [102, undefined, 12, 10, "Free coffee of your choice"], // cards: price is in stamps
    [104, undefined, 20, 20, "$5 off your order"],
    [106, 1, 12, 1, "Pay with stamps ($0.25 off per stamp)"],
    [106, 37, 40, 37, "Pay with stamps ($0.25 off per stamp)"],
    [106, 100, 100, 100, "Pay with stamps ($0.25 off per stamp)"],
    [108, undefined, 9, 8, "Free cookie at the counter"], // POS-only: hidden from the list, redeemable by id
  ])("reward %i (amount %s) from %i stamps costs exactly %i", (rewardId, amount, start, cost, name) => {
    const { shop, id, balance } = setup(start);
    const result = shop.redeemReward(id, rewardId, amount);
    expect(result).toEqual({ code: expect.stringMatching(CODE), name, stampBalance: start - cost });
    expect(balance()).toBe(start - cost);
    expect(shop.store.activitiesOf(id).at(-1)).toMatchObject({ kind: "redeem", label: `Redeemed ${name}`, stampChange: -cost, createdAt: NOW });
    const code = shop.store.codesOf(id).at(-1)!;
    expect(code).toMatchObject({ rewardId, name, code: result.code, cost, used: false, voided: false, createdAt: NOW });
    expect(shop.listRewardCodes(id, true)).toEqual([
      { id: String(code.id), name, code: result.code, used: false, createdAt: "2026-11-23T12:00:00+00:00" },
    ]);
    expect(shop.ledgerMismatches()).toEqual([]);
  });

  it("POS-only and tier-locked rewards are left out of the rewards list", () => {
    const { shop } = setup();
    expect(shop.listRewards().map((r) => r.id)).toEqual(["101", "102", "103", "104", "105", "106"]);
  });

  it("codes carry the shop's prefix and 6 characters without look-alikes", () => {
    const { shop, id } = setup(0);
    const codes = Array.from({ length: 40 }, () => shop.grantReward(id, 101).code);
    for (const code of codes) expect(code).toMatch(CODE);
    expect(new Set(codes).size).toBe(40);
    const other = setup(0, (p) => void (p.settings.codePrefix = "CRUMB-X2"));
    expect(other.shop.grantReward(other.id, 101).code).toMatch(/^CRUMB-X2-[A-HJ-NP-Z2-9]{6}$/);
  });

  it.each([
    [107, undefined, "Gold"],
    [107, 1, "Gold"],
    [107, 2, "Gold"],
    [109, 3, "Platinum"],
  ])("tier-locked reward %i for a customer of tier %s: REWARD_NOT_FOUND", (rewardId, tierId, tierName) => {
    const { shop, id, unchanged } = setup(100);
    if (tierId !== undefined) shop.setCustomerTier(id, { tierId, triggerRewards: false });
    const same = unchanged();
    expect(refusal(() => shop.redeemReward(id, rewardId))).toMatchObject({
      code: "REWARD_NOT_FOUND",
      message: `Reward ${rewardId} is only available to ${tierName} tier members and above`,
    });
    same();
  });

  it.each([
    [107, 3, 25],
    [107, 4, 25],
    [109, 4, 60],
  ])("tier-locked reward %i for a customer of tier %i costs %i", (rewardId, tierId, cost) => {
    const { shop, id, balance } = setup(100);
    shop.setCustomerTier(id, { tierId, triggerRewards: false });
    shop.redeemReward(id, rewardId);
    expect(balance()).toBe(100 - cost);
  });

  it.each([
    ["redeem", "redeemReward"],
    ["grant", "grantReward"],
  ] as const)("%s of an unknown reward: REWARD_NOT_FOUND", (_n, method) => {
    const { shop, id, unchanged } = setup(50);
    const same = unchanged();
    expect(refusal(() => shop[method](id, 999))).toMatchObject({ code: "REWARD_NOT_FOUND", message: "Reward 999 not found" });
    same();
  });

  it.each([
    [101, undefined, 4, 5, "Free extra shot or syrup"],
    [105, undefined, 39, 40, "Free 250 g bag of house beans"],
    [102, undefined, 0, 10, "Free coffee of your choice"],
    [106, 50, 49, 50, "Pay with stamps ($0.25 off per stamp)"],
  ])("reward %i (amount %s) with %i stamps: INSUFFICIENT_STAMPS, nothing changes", (rewardId, amount, start, cost, name) => {
    const { shop, id, unchanged } = setup(start);
    const same = unchanged();
    expect(refusal(() => shop.redeemReward(id, rewardId, amount))).toMatchObject({
      code: "INSUFFICIENT_STAMPS",
      message: `Customer ${id} has ${start} stamps; ${name} costs ${cost}`,
    });
    same();
  });

  it.each([
    [undefined, "is required: reward 106 is a variable-amount reward"],
    [0, "must be between 1 and 100 for reward 106"],
    [101, "must be between 1 and 100 for reward 106"],
  ])("variable reward with amount %s: VALIDATION_ERROR on variable_amount", (amount, message) => {
    const { shop, id, unchanged } = setup(500);
    const same = unchanged();
    const error = refusal(() => shop.redeemReward(id, 106, amount));
    expect(error).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(error.details).toEqual([{ path: "variable_amount", message }]);
    same();
  });
});

describe("grant", () => {
  it.each([101, 105, 106, 107, 109])("reward %i: a real code at no cost", (rewardId) => {
    const { shop, id, balance } = setup(3);
    const name = shop.getReward(rewardId).name;
    expect(shop.grantReward(id, rewardId)).toEqual({ code: expect.stringMatching(CODE), name, stampBalance: 3 });
    expect(balance()).toBe(3);
    expect(shop.store.codesOf(id).at(-1)).toMatchObject({ rewardId, cost: 0, used: false });
    const activity = shop.store.activitiesOf(id).at(-1)!;
    expect(activity).toMatchObject({ kind: "grant", label: `Granted ${name}`, createdAt: NOW });
    expect(Object.is(activity.stampChange, 0)).toBe(true);
  });
});

describe("the life of a code", () => {
  function withCodes() {
    const s = setup(30);
    const redeemed = (rewardId: number) => {
      s.shop.redeemReward(s.id, rewardId);
      return s.shop.store.codesOf(s.id).at(-1)!.id;
    };
    return { ...s, redeemed };
  }

  it("use: used, no refund, and using again changes nothing", () => {
    const { shop, id, balance, redeemed, unchanged } = withCodes();
    const code = redeemed(104);
    const first = shop.useRewardCode(id, code);
    expect(first).toMatchObject({ id: String(code), used: true });
    expect(balance()).toBe(10);
    const same = unchanged();
    expect(shop.useRewardCode(id, code)).toEqual(first);
    same();
  });

  it("void: refunds exactly the cost, reads back used, and a second void fails", () => {
    const { shop, id, balance, redeemed, unchanged } = withCodes();
    const code = redeemed(104);
    expect(balance()).toBe(10);
    expect(shop.voidRewardCode(id, code)).toMatchObject({ id: String(code), used: true });
    expect(balance()).toBe(30);
    expect(shop.store.activitiesOf(id).at(-1)).toMatchObject({ kind: "refund", label: "Refund for voided $5 off your order", stampChange: 20 });
    const same = unchanged();
    expect(refusal(() => shop.voidRewardCode(id, code))).toMatchObject({
      code: "VOID_FAILED",
      message: `Reward code ${code} was already voided`,
    });
    // Using a voided code is the same no-op as using a used one.
    expect(shop.useRewardCode(id, code).used).toBe(true);
    same();
    expect(shop.ledgerMismatches()).toEqual([]);
  });

  it("void of a used code: VOID_FAILED, no refund", () => {
    const { shop, id, balance, redeemed, unchanged } = withCodes();
    const code = redeemed(101);
    shop.useRewardCode(id, code);
    const same = unchanged();
    expect(refusal(() => shop.voidRewardCode(id, code))).toMatchObject({
      code: "VOID_FAILED",
      message: `Reward code ${code} was already used and cannot be voided`,
    });
    same();
    expect(balance()).toBe(25);
  });

  it("void of a granted code refunds nothing", () => {
    const { shop, id, balance } = withCodes();
    shop.grantReward(id, 105);
    const code = shop.store.codesOf(id).at(-1)!.id;
    const length = shop.store.activitiesOf(id).length;
    expect(shop.voidRewardCode(id, code).used).toBe(true);
    expect(balance()).toBe(30);
    expect(shop.store.activitiesOf(id)).toHaveLength(length);
  });

  it.each([
    ["use", "useRewardCode"],
    ["void", "voidRewardCode"],
  ] as const)("%s of another customer's code, or of no code: REWARD_CODE_NOT_FOUND", (_n, method) => {
    const { shop, id, add, redeemed, unchanged } = withCodes();
    const code = redeemed(101);
    const other = add("somerville@example.com", 10);
    const same = unchanged();
    for (const [who, codeId] of [[other, code], [id, 999_999]] as const) {
      expect(refusal(() => shop[method](who, codeId))).toMatchObject({
        code: "REWARD_CODE_NOT_FOUND",
        message: `Reward code ${codeId} not found for customer ${who}`,
      });
    }
    same();
  });

  it("listRewardCodes: all codes oldest first; available=true only the unused, unvoided ones", () => {
    const { shop, id, redeemed } = withCodes();
    const used = redeemed(101);
    const voided = redeemed(101);
    const open = redeemed(103);
    shop.grantReward(id, 102);
    const granted = shop.store.codesOf(id).at(-1)!.id;
    shop.useRewardCode(id, used);
    shop.voidRewardCode(id, voided);
    const all = shop.listRewardCodes(id, false);
    expect(all.map((c) => [c.id, c.used])).toEqual([
      [String(used), true],
      [String(voided), true],
      [String(open), false],
      [String(granted), false],
    ]);
    expect(shop.listRewardCodes(id, true).map((c) => c.id)).toEqual([String(open), String(granted)]);
    expect(shop.getCustomer(id).value.stampBalance).toBe(30 - 5 - 10);
  });
});
