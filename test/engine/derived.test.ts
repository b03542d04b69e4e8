import { describe, expect, it } from "vitest";
import { DAY_MS, isoTimestamp } from "../../src/engine/clock.js";
import type { ExpirySetting, Program } from "../../src/store/types.js";
import { createTestSim, NOW } from "../support/sim.js";

function setup(stamps: number, program?: (p: Program) => void) {
  const sim = createTestSim({ customers: 0, ...(program && { program }) });
  const { id } = sim.shop.syncCustomer({ firstName: "Grace", lastName: "Hopper", email: "grace@example.com", stampBalance: stamps });
  return { ...sim, id };
}

// Default program, listed fixed-price rewards by price: 101 (5), 102 (10, cards), 103 (10), 104 (20), 105 (40).
// Never goals: 106 (variable, 1), 107 (Gold-locked, 25), 108 (POS-only, 8), 109 (Platinum-locked, 60).
const SHOT = { id: "101", name: "Free extra shot or syrup" };
const COFFEE = { id: "102", name: "Free coffee of your choice" };
const FIVE_OFF = { id: "104", name: "$5 off your order" };
const BEANS = { id: "105", name: "Free 250 g bag of house beans" };

describe("cards, nextReward and stampsToNextReward", () => {
  it.each([
    [0, 0, SHOT, 5],
    [1, 0, SHOT, 4],
    [4, 0, SHOT, 1],
    [5, 0, COFFEE, 5], // not the POS-only cookie (8); ties at 10 go to the first listed
    [9, 0, COFFEE, 1],
    [10, 1, FIVE_OFF, 10],
    [19, 1, FIVE_OFF, 1],
    [20, 2, BEANS, 20], // not the Gold-locked pastry box (25)
    [39, 3, BEANS, 1],
    [40, 4, BEANS, 0], // can afford everything: the dearest, and never below 0
    [123, 12, BEANS, 0],
  ])("balance %i: %i cards, next %o, %i to go", (balance, cards, next, toGo) => {
    const { shop, id } = setup(balance);
    const customer = shop.getCustomer(id).value;
    expect(customer).toMatchObject({ stampBalance: balance, cards, stampsToNextReward: toGo, nextReward: next });
    // The list shows the same numbers, without nextReward.
    const listed = shop.listCustomers({}, { limit: 10, hasCount: false }).items[0]!;
    expect(listed).toMatchObject({ stampBalance: balance, cards, stampsToNextReward: toGo });
    expect(listed).not.toHaveProperty("nextReward");
  });

  it.each([
    [7, 0],
    [8, 1],
    [23, 2],
    [24, 3],
  ])("cards follow the shop's stampCardValue (8): balance %i gives %i", (balance, cards) => {
    const { shop, id } = setup(balance, (p) => {
      p.settings.stampCardValue = 8;
      // Keep the program valid: a cards reward costs whole cards.
      for (const r of p.rewards) if (r.exchangeType === "cards") r.price = 16;
    });
    expect(shop.getCustomer(id).value.cards).toBe(cards);
  });

  it("follows the balance as it moves", () => {
    const { shop, id } = setup(0);
    const seen: [number, string | undefined, number][] = [];
    for (const stamps of [3, 2, 6, -8, 37]) {
      shop.adjustStamps(id, { stamps });
      const c = shop.getCustomer(id).value;
      seen.push([c.stampBalance, c.nextReward?.id, c.stampsToNextReward]);
    }
    expect(seen).toEqual([
      [3, "101", 2],
      [5, "102", 5],
      [11, "104", 9],
      [3, "101", 2],
      [40, "105", 0],
    ]);
  });

  it("without any fixed-price listed reward there is no nextReward and nothing to go", () => {
    const { shop, id } = setup(12, (p) => {
      p.rewards = p.rewards.filter((r) => r.exchangeType === "variable" || r.posOnly || r.tierId !== undefined);
      for (const t of p.tiers) t.rewardIds = t.rewardIds.filter((rid) => p.rewards.some((r) => r.id === rid));
    });
    const customer = shop.getCustomer(id).value;
    expect(customer.stampsToNextReward).toBe(0);
    expect(customer).not.toHaveProperty("nextReward");
  });
});

describe("stampsExpireAt", () => {
  const rolling: ExpirySetting = { mode: "rolling", days: 365 };
  const fixed: ExpirySetting = { mode: "fixed", days: 30 };
  it.each([
    [{ mode: "off" } as ExpirySetting, 0, undefined],
    [{ mode: "off" } as ExpirySetting, 10, undefined],
    [rolling, 0, undefined],
    [rolling, 10, isoTimestamp(NOW + 365 * DAY_MS)],
    [fixed, 0, undefined],
    [fixed, 10, isoTimestamp(NOW + 30 * DAY_MS)],
  ])("expiry %o with balance %i: %s", (expiry, balance, expected) => {
    const { shop, id } = setup(balance, (p) => void (p.settings.expiry = expiry));
    const customer = shop.getCustomer(id).value;
    if (expected === undefined) expect(customer).not.toHaveProperty("stampsExpireAt");
    else expect(customer.stampsExpireAt).toBe(expected);
    const listed = shop.listCustomers({}, { limit: 1, hasCount: false }).items[0]!;
    expect(listed.stampsExpireAt).toBe(expected);
  });

  it("is written with +00:00", () => {
    const { shop, id } = setup(4);
    expect(shop.getCustomer(id).value.stampsExpireAt).toBe("2027-11-23T12:00:00+00:00");
  });

  it("disappears when the balance is spent to 0", () => {
    const { shop, id } = setup(10);
    expect(shop.getCustomer(id).value).toHaveProperty("stampsExpireAt");
    shop.adjustStamps(id, { stamps: -10 });
    expect(shop.getCustomer(id).value).not.toHaveProperty("stampsExpireAt");
  });
});
