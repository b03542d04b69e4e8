import { describe, expect, it } from "vitest";
import { DAY_MS, isoTimestamp } from "../../src/engine/clock.js";
import type { ShopEngine } from "../../src/engine/shop-engine.js";
import { createTestSim, NOW } from "../support/sim.js";

const D = DAY_MS;

function setup(mode: "rolling" | "fixed", days: number, stamps: number) {
  const sim = createTestSim({ customers: 0, program: (p) => void (p.settings.expiry = { mode, days }) });
  const { id } = sim.shop.syncCustomer({ firstName: "Hedy", lastName: "Lamarr", email: "hedy@example.com", stampBalance: stamps });
  const ledger = () => sim.shop.store.activitiesOf(id).map((a) => [a.label, a.stampChange, a.createdAt - NOW]);
  /** Moves the clock to NOW + offset (ms). */
  const at = (offset: number) => sim.clock.set(NOW + offset);
  return { ...sim, id, ledger, at };
}

const IMPORT = "Stamps adjusted by the shop";

describe("rolling expiry", () => {
  it("the whole balance expires N days after the last movement, in one activity dated then", () => {
    const { shop, id, ledger, at } = setup("rolling", 30, 12);
    expect(shop.getCustomer(id).value.stampsExpireAt).toBe(isoTimestamp(NOW + 30 * D));
    at(30 * D - 1);
    expect(shop.getCustomer(id).value.stampBalance).toBe(12);
    expect(ledger()).toHaveLength(1);
    at(45 * D);
    const customer = shop.getCustomer(id).value;
    expect(customer.stampBalance).toBe(0);
    expect(customer).not.toHaveProperty("stampsExpireAt");
    expect(ledger()).toEqual([
      [IMPORT, 12, 0],
      ["12 stamps expired", -12, 30 * D],
    ]);
    expect(shop.listActivities(id, { limit: 1, hasCount: false }).items[0]).toMatchObject({
      label: "12 stamps expired",
      createdAt: isoTimestamp(NOW + 30 * D),
    });
    // Later reads do not expire anything again.
    at(400 * D);
    shop.getCustomer(id).value;
    expect(ledger()).toHaveLength(2);
    expect(shop.ledgerMismatches()).toEqual([]);
  });

  it("one stamp expires in the singular, exactly at the expiry instant", () => {
    const { shop, id, ledger, at } = setup("rolling", 7, 1);
    at(7 * D);
    expect(shop.getCustomer(id).value.stampBalance).toBe(0);
    expect(ledger().at(-1)).toEqual(["1 stamp expired", -1, 7 * D]);
  });

  it.each([
    ["an award", (shop: ShopEngine, id: string) => shop.awardStamps(id, { stamps: 3 }), 15],
    ["an earn rule", (shop: ShopEngine, id: string) => shop.processEarnRule(id, 201), 13],
    ["a deduction", (shop: ShopEngine, id: string) => shop.adjustStamps(id, { stamps: -2 }), 10],
    ["a redemption", (shop: ShopEngine, id: string) => shop.redeemReward(id, 101), 7],
  ])("%s before expiry pushes it back", (_n, move, left) => {
    const { shop, id, ledger, at } = setup("rolling", 30, 12);
    at(20 * D);
    move(shop, id);
    expect(shop.getCustomer(id).value.stampsExpireAt).toBe(isoTimestamp(NOW + 50 * D));
    at(50 * D - 1);
    expect(shop.getCustomer(id).value.stampBalance).toBe(left);
    at(50 * D);
    expect(shop.getCustomer(id).value.stampBalance).toBe(0);
    expect(ledger().at(-1)).toEqual([`${left} stamps expired`, -left, 50 * D]);
    expect(shop.ledgerMismatches()).toEqual([]);
  });

  it("a free grant or a tier change is not a stamp movement and does not push it back", () => {
    const { shop, id, at } = setup("rolling", 30, 12);
    at(20 * D);
    shop.grantReward(id, 101);
    shop.setCustomerTier(id, { tierId: 1, triggerRewards: false });
    expect(shop.getCustomer(id).value.stampsExpireAt).toBe(isoTimestamp(NOW + 30 * D));
  });

  it("an earn after expiry starts from 0, after the expiry activity", () => {
    const { shop, id, ledger, at } = setup("rolling", 30, 12);
    at(40 * D);
    expect(shop.awardStamps(id, { stamps: 4 }).stampBalance).toBe(4);
    expect(ledger()).toEqual([
      [IMPORT, 12, 0],
      ["12 stamps expired", -12, 30 * D],
      [IMPORT, 4, 40 * D],
    ]);
    expect(shop.getCustomer(id).value.stampsExpireAt).toBe(isoTimestamp(NOW + 70 * D));
  });

  it("a deduction after expiry is refused against the expired balance", () => {
    const { shop, id, at } = setup("rolling", 30, 12);
    at(31 * D);
    expect(() => shop.adjustStamps(id, { stamps: -5 })).toThrow(`Customer ${id} has 0 stamps; 5 are needed`);
    expect(shop.getCustomer(id).value.stampBalance).toBe(0);
    expect(shop.ledgerMismatches()).toEqual([]);
  });

  it("the customer list settles expiry too", () => {
    const { shop, ledger, at } = setup("rolling", 30, 12);
    at(31 * D);
    expect(shop.listCustomers({}, { limit: 5, hasCount: false }).items[0]!.stampBalance).toBe(0);
    expect(ledger()).toHaveLength(2);
  });

  it("nothing expires for a removed customer", () => {
    const { shop, id, ledger, at } = setup("rolling", 30, 12);
    shop.updateCustomer(id, { excluded: true });
    at(90 * D);
    expect(shop.getCustomer(id).value).toMatchObject({ stampBalance: 12, state: "removed" });
    expect(ledger()).toHaveLength(1);
  });

  // Regression (found by test/robustness/bad-input.test.ts's author): re-including a customer
  // answered their old balance with an expiry date in the past, then expired it, dated in the
  // time they were removed.
  it("removal pauses the period; re-inclusion resumes it with the time left", () => {
    const { shop, id, ledger, at } = setup("rolling", 30, 12);
    at(10 * D);
    shop.updateCustomer(id, { excluded: true });
    at(100 * D);
    expect(shop.updateCustomer(id, { excluded: false })).toMatchObject({ stampBalance: 12, state: "active", stampsExpireAt: isoTimestamp(NOW + 120 * D) });
    at(120 * D - 1);
    expect(shop.getCustomer(id).value.stampBalance).toBe(12);
    at(120 * D);
    expect(shop.getCustomer(id).value.stampBalance).toBe(0);
    expect(ledger()).toEqual([
      [IMPORT, 12, 0],
      ["12 stamps expired", -12, 120 * D],
    ]);
    expect(shop.ledgerMismatches()).toEqual([]);
  });
});

describe("fixed expiry", () => {
  it("removal pauses every earning's clock; excluding twice does not restart the pause", () => {
    const { shop, id, at } = setup("fixed", 30, 5);
    at(10 * D);
    shop.awardStamps(id, { stamps: 7 });
    at(20 * D);
    shop.updateCustomer(id, { excluded: true });
    at(25 * D);
    shop.updateCustomer(id, { excluded: true });
    at(80 * D);
    expect(shop.updateCustomer(id, { excluded: false })).toMatchObject({ stampBalance: 12, stampsExpireAt: isoTimestamp(NOW + 90 * D) });
    at(90 * D);
    expect(shop.getCustomer(id).value).toMatchObject({ stampBalance: 7, stampsExpireAt: isoTimestamp(NOW + 100 * D) });
    at(100 * D);
    expect(shop.getCustomer(id).value.stampBalance).toBe(0);
    expect(shop.ledgerMismatches()).toEqual([]);
  });

  it("each earning expires on its own date", () => {
    const { shop, id, ledger, at } = setup("fixed", 30, 5);
    at(10 * D);
    shop.awardStamps(id, { stamps: 7 });
    expect(shop.getCustomer(id).value).toMatchObject({ stampBalance: 12, stampsExpireAt: isoTimestamp(NOW + 30 * D) });
    at(30 * D);
    expect(shop.getCustomer(id).value).toMatchObject({ stampBalance: 7, stampsExpireAt: isoTimestamp(NOW + 40 * D) });
    at(40 * D);
    expect(shop.getCustomer(id).value.stampBalance).toBe(0);
    expect(shop.getCustomer(id).value).not.toHaveProperty("stampsExpireAt");
    expect(ledger()).toEqual([
      [IMPORT, 5, 0],
      [IMPORT, 7, 10 * D],
      ["5 stamps expired", -5, 30 * D],
      ["7 stamps expired", -7, 40 * D],
    ]);
    expect(shop.ledgerMismatches()).toEqual([]);
  });

  it("several lots past due at one read expire one by one, each dated on its own date", () => {
    const { shop, id, ledger, at } = setup("fixed", 30, 5);
    at(10 * D);
    shop.awardStamps(id, { stamps: 7 });
    at(12 * D);
    shop.processEarnRule(id, 201);
    at(100 * D);
    expect(shop.getCustomer(id).value.stampBalance).toBe(0);
    expect(ledger().slice(3)).toEqual([
      ["5 stamps expired", -5, 30 * D],
      ["7 stamps expired", -7, 40 * D],
      ["1 stamp expired", -1, 42 * D],
    ]);
    expect(shop.ledgerMismatches()).toEqual([]);
  });

  it("spending uses the oldest lots first", () => {
    const { shop, id, ledger, at } = setup("fixed", 30, 5);
    at(10 * D);
    shop.awardStamps(id, { stamps: 7 });
    at(20 * D);
    shop.adjustStamps(id, { stamps: -6 }); // all 5 of the first lot, 1 of the second
    expect(shop.getCustomer(id).value).toMatchObject({ stampBalance: 6, stampsExpireAt: isoTimestamp(NOW + 40 * D) });
    at(30 * D);
    expect(shop.getCustomer(id).value.stampBalance).toBe(6);
    at(40 * D);
    expect(shop.getCustomer(id).value.stampBalance).toBe(0);
    expect(ledger().slice(3)).toEqual([["6 stamps expired", -6, 40 * D]]);
    expect(shop.ledgerMismatches()).toEqual([]);
  });

  it("a redemption spanning lots leaves the rest of the newest lot", () => {
    const { shop, id, ledger, at } = setup("fixed", 30, 5);
    at(1 * D);
    shop.awardStamps(id, { stamps: 3 });
    at(2 * D);
    shop.awardStamps(id, { stamps: 10 });
    shop.redeemReward(id, 102); // 10: lots 5 and 3, then 2 of the 10
    expect(shop.getCustomer(id).value).toMatchObject({ stampBalance: 8, stampsExpireAt: isoTimestamp(NOW + 32 * D) });
    at(32 * D);
    expect(shop.getCustomer(id).value.stampBalance).toBe(0);
    expect(ledger().at(-1)).toEqual(["8 stamps expired", -8, 32 * D]);
    expect(shop.ledgerMismatches()).toEqual([]);
  });
});
