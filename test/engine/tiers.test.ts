import { describe, expect, it } from "vitest";
import { createTestSim, NOW, refusal } from "../support/sim.js";

function setup(stamps = 0) {
  const sim = createTestSim({ customers: 0, program: (p) => void (p.settings.expiry = { mode: "off" }) });
  const add = (email: string, balance = 0) =>
    sim.shop.syncCustomer({ firstName: "Alan", lastName: "Turing", email, stampBalance: balance }).id;
  const id = add("alan@example.com", stamps);
  const tierOf = (cid = id) => {
    const c = sim.shop.getCustomer(cid).value;
    return c.vipTierId === undefined ? undefined : [c.vipTierId, c.vipTierName];
  };
  return { ...sim, id, add, tierOf, record: sim.shop.store.customer(id)! };
}

const BRONZE = [1, "Bronze"];
const SILVER = [2, "Silver"];
const GOLD = [3, "Gold"];
const PLATINUM = [4, "Platinum"];

describe("promotion by stamps earned in total", () => {
  it.each([
    [0, undefined],
    [24, undefined],
    [25, BRONZE],
    [74, BRONZE],
    [75, SILVER],
    [149, SILVER],
    [150, GOLD],
    [299, GOLD],
    [300, PLATINUM],
    [10_000, PLATINUM],
  ])("earning %i in one award gives %o", (earned, tier) => {
    const { shop, id, tierOf } = setup();
    if (earned > 0) shop.awardStamps(id, { stamps: earned });
    expect(tierOf()).toEqual(tier);
  });

  it.each([
    ["award", (s: ReturnType<typeof setup>) => s.shop.awardStamps(s.id, { stamps: 1 })],
    ["positive adjust", (s: ReturnType<typeof setup>) => s.shop.adjustStamps(s.id, { stamps: 1 })],
    ["earn rule", (s: ReturnType<typeof setup>) => s.shop.processEarnRule(s.id, 201)],
  ])("a %s that reaches the milestone promotes", (_name, earn) => {
    const s = setup(24);
    expect(s.tierOf()).toBeUndefined();
    earn(s);
    expect(s.tierOf()).toEqual(BRONZE);
    expect(s.record.earned).toBe(25);
  });

  it("counts every earning, not the balance", () => {
    const { shop, id, tierOf } = setup(20);
    shop.adjustStamps(id, { stamps: -20 });
    shop.awardStamps(id, { stamps: 5 });
    expect(shop.getCustomer(id).value.stampBalance).toBe(5);
    expect(tierOf()).toEqual(BRONZE);
  });

  it("spending never demotes", () => {
    const { shop, id, tierOf } = setup(80);
    expect(tierOf()).toEqual(SILVER);
    shop.redeemReward(id, 105);
    shop.adjustStamps(id, { stamps: -30 });
    expect(shop.getCustomer(id).value.stampBalance).toBe(10);
    expect(tierOf()).toEqual(SILVER);
  });

  it("refunds of voided codes do not count as earned", () => {
    const { shop, id, tierOf, record } = setup(20);
    shop.redeemReward(id, 103);
    const code = shop.store.codesOf(id)[0]!;
    shop.voidRewardCode(id, code.id);
    expect(shop.getCustomer(id).value.stampBalance).toBe(20);
    expect(record.earned).toBe(20);
    expect(tierOf()).toBeUndefined();
    shop.awardStamps(id, { stamps: 5 });
    expect(tierOf()).toEqual(BRONZE);
  });

  it("stamps moved in by a merge do not count as earned", () => {
    const s = setup(0);
    const other = s.add("alan.t@example.com", 30);
    s.shop.mergeCustomer(other, s.id);
    expect(s.shop.getCustomer(s.id).value.stampBalance).toBe(30);
    expect(s.tierOf()).toBeUndefined();
  });
});

describe("setCustomerTier", () => {
  it.each([
    [0, 4, PLATINUM],
    [0, 1, BRONZE],
    [320, 1, BRONZE], // down too
    [100, 3, GOLD],
  ])("a customer who earned %i set to tier %i gets %o, balance and earned untouched", (earned, tierId, tier) => {
    const { shop, id, tierOf, record } = setup(earned);
    const view = shop.setCustomerTier(id, { tierId, triggerRewards: false });
    expect([view.vipTierId, view.vipTierName]).toEqual(tier);
    expect(tierOf()).toEqual(tier);
    expect(view.stampBalance).toBe(earned);
    expect(record.earned).toBe(earned);
    expect(shop.store.codesOf(id)).toEqual([]);
  });

  it.each([
    [{}, "VIP tier set to Silver", undefined],
    [{ comment: "Welcome to Silver!" }, "Welcome to Silver!", undefined],
    [{ comment: "Upgrade", internalComment: "Manager approval" }, "Upgrade", "Manager approval"],
  ])("writes a 0-stamp activity (%o)", (comments, label, internalComment) => {
    const { shop, id } = setup(3);
    shop.setCustomerTier(id, { tierId: 2, triggerRewards: false, ...comments });
    const activity = shop.store.activitiesOf(id).at(-1)!;
    expect(activity).toEqual({
      id: activity.id,
      customerId: id,
      kind: "tier",
      label,
      ...(internalComment !== undefined && { internalComment }),
      stampChange: 0,
      createdAt: NOW,
    });
    expect(shop.ledgerMismatches()).toEqual([]);
  });

  it.each([
    [1, [[101, "Free extra shot or syrup"]]],
    [2, [[103, "Free pastry"]]],
    [3, [[102, "Free coffee of your choice"], [107, "Gold pastry box (4 pastries)"]]],
    [4, [[105, "Free 250 g bag of house beans"], [109, "Private coffee tasting for two"]]],
  ] as const)("trigger_rewards on tier %i issues one free code per tier reward", (tierId, rewards) => {
    const { shop, id } = setup(17);
    const tierName = shop.getTier(tierId).name;
    const ledgerBefore = shop.store.activitiesOf(id).length;
    const view = shop.setCustomerTier(id, { tierId, triggerRewards: true });
    expect(view.stampBalance).toBe(17);
    const codes = shop.store.codesOf(id);
    expect(codes.map((c) => [c.rewardId, c.name, c.cost, c.used, c.voided])).toEqual(
      rewards.map(([rid, name]) => [rid, name, 0, false, false]),
    );
    const written = shop.store.activitiesOf(id).slice(ledgerBefore);
    expect(written.map((a) => [a.label, a.stampChange])).toEqual([
      [`VIP tier set to ${tierName}`, 0],
      ...rewards.map(([, name]) => [`${tierName} tier reward: ${name}`, 0]),
    ]);
    expect(shop.ledgerMismatches()).toEqual([]);
  });

  it("a manually raised tier is kept when the customer earns less than its milestone", () => {
    const { shop, id, tierOf } = setup(0);
    shop.setCustomerTier(id, { tierId: 3, triggerRewards: false });
    shop.awardStamps(id, { stamps: 80 });
    expect(tierOf()).toEqual(GOLD);
  });

  it("after a manual demotion, the next earning promotes again from the earned total", () => {
    const { shop, id, tierOf } = setup(160);
    shop.setCustomerTier(id, { tierId: 1, triggerRewards: false });
    expect(tierOf()).toEqual(BRONZE);
    shop.awardStamps(id, { stamps: 1 });
    expect(tierOf()).toEqual(GOLD);
  });

  it.each([
    ["unknown tier", "alan", 99, { code: "TIER_NOT_FOUND", message: "Tier 99 not found" }],
    ["unknown customer", "123", 2, { code: "CUSTOMER_NOT_FOUND", message: "Customer 123 not found" }],
  ] as const)("%s: refused, nothing changes", (_n, who, tierId, expected) => {
    const { shop, id } = setup(30);
    const snapshot = JSON.stringify(shop.store.data);
    const error = refusal(() => shop.setCustomerTier(who === "alan" ? id : who, { tierId, triggerRewards: true }));
    expect(error).toMatchObject(expected);
    expect(JSON.stringify(shop.store.data)).toBe(snapshot);
  });
});
