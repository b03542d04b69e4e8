import { describe, expect, it } from "vitest";
import { DAY_MS } from "../../src/engine/clock.js";
import type { EarnLimit, Program } from "../../src/store/types.js";
import { createTestSim, NOW, refusal } from "../support/sim.js";

/** Expiry off, so moving the clock by a year changes nothing but the earn-rule windows. */
function setup(program?: (p: Program) => void, stamps = 0) {
  const sim = createTestSim({
    customers: 0,
    program: (p) => {
      p.settings.expiry = { mode: "off" };
      program?.(p);
    },
  });
  const { id } = sim.shop.syncCustomer({ firstName: "Ida", lastName: "Noddack", email: "ida@example.com", stampBalance: stamps });
  return { ...sim, id, balance: () => sim.shop.getCustomer(id).value.stampBalance };
}

const TEST_RULE = 201;
const withRule = (step: number, multiplier: number, limit: EarnLimit = { kind: "none" }) => (p: Program) => {
  Object.assign(p.earnRules.find((r) => r.id === TEST_RULE)!, { step, multiplier, limit });
};

describe("stamps = round(step x rule multiplier x tier multiplier)", () => {
  it.each([
    // step, rule multiplier, tier (multiplier), stamps
    [1, 1, undefined, 1],
    [5, 1, undefined, 5],
    [3, 1.5, undefined, 5], // 4.5 rounds up
    [1, 1, 2, 1], // Silver 1.25: 1.25 -> 1
    [2, 1, 2, 3], // Silver: 2.5 -> 3
    [4, 1, 2, 5], // Silver: 5
    [2, 1.25, 2, 3], // 3.125 -> 3
    [1, 1.5, 3, 2], // Gold 1.5: 2.25 -> 2
    [3, 1.5, 3, 7], // Gold: 6.75 -> 7
    [5, 1, 4, 10], // Platinum 2
    [3, 1.5, 4, 9], // Platinum: 9
    [7, 2, 1, 14], // Bronze 1
  ])("step %d x %d, tier %s: %i stamps", (step, multiplier, tierId, stamps) => {
    const { shop, id } = setup(withRule(step, multiplier));
    if (tierId !== undefined) shop.setCustomerTier(id, { tierId, triggerRewards: false });
    expect(shop.processEarnRule(id, TEST_RULE)).toEqual({ customerId: id, stampChange: stamps, stampBalance: stamps });
    const activity = shop.store.activitiesOf(id).at(-1)!;
    expect(activity).toMatchObject({ kind: "earn", label: "Place an order", stampChange: stamps, earnRuleId: TEST_RULE, createdAt: NOW });
    expect(activity.internalComment).toBeUndefined(); // no internal comment (the field is kept, undefined, for one object shape)
    expect(shop.ledgerMismatches()).toEqual([]);
  });

  it("uses the tier held before the earning; the new tier applies from the next one", () => {
    const { shop, id } = setup(withRule(4, 1), 73); // Bronze (x1), two short of Silver (x1.25)
    expect(shop.processEarnRule(id, TEST_RULE).stampChange).toBe(4);
    expect(shop.getCustomer(id).value.vipTierId).toBe(2);
    expect(shop.processEarnRule(id, TEST_RULE).stampChange).toBe(5);
    expect(shop.getCustomer(id).value.stampBalance).toBe(82);
  });
});

/** Tier multipliers of 1, so the promotions a long run of earnings brings do not change the step. */
const flatTiers = (p: Program) => p.tiers.forEach((t) => void (t.multiplier = 1));

describe("limits", () => {
  it("lifetime: once per customer, ever", () => {
    const { shop, id, balance, clock } = setup();
    expect(shop.processEarnRule(id, 202).stampChange).toBe(2);
    for (const later of [0, DAY_MS, 400 * DAY_MS]) {
      clock.advance(later);
      const snapshot = JSON.stringify(shop.store.data);
      const error = refusal(() => shop.processEarnRule(id, 202));
      expect(error).toMatchObject({
        code: "ACTIVITY_NOT_AWARDED",
        message: "Earn rule 202 (Follow us on Instagram) can be awarded once per customer and already was",
      });
      expect(JSON.stringify(shop.store.data)).toBe(snapshot);
    }
    expect(balance()).toBe(2);
  });

  it("lifetime is per customer", () => {
    const { shop, id } = setup();
    const other = shop.syncCustomer({ firstName: "Lise", lastName: "Meitner", email: "lise@example.com" }).id;
    shop.processEarnRule(id, 205);
    expect(shop.processEarnRule(other, 205)).toEqual({ customerId: other, stampChange: 3, stampBalance: 3 });
  });

  it.each([
    // rule, name, count, period, window, stamps each
    [201, "Place an order", 5, "day", DAY_MS, 1],
    [203, "Share us on Facebook", 1, "week", 7 * DAY_MS, 1],
    [204, "Birthday treat", 1, "year", 365 * DAY_MS, 5],
    [206, "Leave a review", 3, "year", 365 * DAY_MS, 2],
    [207, "Refer a friend", 10, "year", 365 * DAY_MS, 5],
  ])("rule %i (%s): %i per %s, reopening when the window has passed", (rule, name, count, period, window, each) => {
    const { shop, id, balance, clock } = setup(flatTiers);
    for (let i = 1; i <= count; i++) expect(shop.processEarnRule(id, rule).stampBalance).toBe(i * each);
    const refused = () => {
      const snapshot = JSON.stringify(shop.store.data);
      const error = refusal(() => shop.processEarnRule(id, rule));
      expect(error).toMatchObject({
        code: "ACTIVITY_NOT_AWARDED",
        message: `Earn rule ${rule} (${name}) can be awarded at most ${count} time(s) per ${period}`,
      });
      expect(JSON.stringify(shop.store.data)).toBe(snapshot);
    };
    refused();
    clock.advance(window - 1);
    refused();
    clock.advance(1);
    for (let i = 1; i <= count; i++) shop.processEarnRule(id, rule);
    refused();
    expect(balance()).toBe(2 * count * each);
    expect(shop.ledgerMismatches()).toEqual([]);
  });

  it("periods are rolling windows, not calendar ones", () => {
    const { shop, id, clock } = setup();
    const earn = () => shop.processEarnRule(id, 201);
    for (let i = 0; i < 3; i++) earn(); // t = 0
    clock.advance(20 * 3600_000);
    earn(); // t = 20h
    earn();
    expect(refusal(earn).code).toBe("ACTIVITY_NOT_AWARDED");
    clock.advance(4 * 3600_000); // t = 24h: the three from t = 0 leave the window
    for (let i = 0; i < 3; i++) earn();
    expect(refusal(earn).code).toBe("ACTIVITY_NOT_AWARDED");
    clock.advance(20 * 3600_000 - 1); // t = 44h - 1ms: the two from t = 20h are still in it
    expect(refusal(earn).code).toBe("ACTIVITY_NOT_AWARDED");
    clock.advance(1);
    for (let i = 0; i < 2; i++) earn();
    expect(refusal(earn).code).toBe("ACTIVITY_NOT_AWARDED");
    expect(shop.getCustomer(id).value.stampBalance).toBe(10);
  });

  it("limits count only the rule's own activities", () => {
    const { shop, id } = setup((p) => void (p.earnRules.find((r) => r.id === 203)!.limit = { kind: "period", count: 1, period: "week" }));
    shop.processEarnRule(id, 203);
    shop.awardStamps(id, { stamps: 3 });
    expect(shop.processEarnRule(id, 201).stampChange).toBe(1);
    expect(refusal(() => shop.processEarnRule(id, 203)).code).toBe("ACTIVITY_NOT_AWARDED");
  });

  it("none: no limit", () => {
    const { shop, id, balance } = setup((p) => {
      withRule(2, 1, { kind: "none" })(p);
      flatTiers(p);
    });
    for (let i = 0; i < 50; i++) shop.processEarnRule(id, TEST_RULE);
    expect(balance()).toBe(100);
  });
});

describe("refusals", () => {
  it.each([
    ["unknown rule", "ida", 999, { code: "EARN_RULE_NOT_FOUND", message: "Earn rule 999 not found" }],
    ["unknown customer", "42", 201, { code: "CUSTOMER_NOT_FOUND", message: "Customer 42 not found" }],
  ] as const)("%s: nothing changes", (_n, who, rule, expected) => {
    const { shop, id } = setup(undefined, 6);
    const snapshot = JSON.stringify(shop.store.data);
    expect(refusal(() => shop.processEarnRule(who === "ida" ? id : who, rule))).toMatchObject(expected);
    expect(JSON.stringify(shop.store.data)).toBe(snapshot);
  });
});
