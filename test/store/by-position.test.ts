import { describe, expect, it } from "vitest";
import { EarnedBy } from "../../src/store/earned-by.js";
import { ListsByPosition } from "../../src/store/per-customer.js";
import { ShopStore } from "../../src/store/shop-store.js";
import type { ActivityRecord, CustomerRecord, ShopData } from "../../src/store/types.js";

describe("EarnedBy: a bit per customer position for each rule", () => {
  it("answers per rule and per position, and grows without losing earlier bits", () => {
    const earned = new EarnedBy();
    expect(earned.has(1, 0)).toBe(false);
    earned.add(1, 0);
    earned.add(1, 9);
    earned.add(2, 100_000);
    expect([earned.has(1, 0), earned.has(1, 9), earned.has(1, 8), earned.has(2, 0), earned.has(2, 100_000)]).toEqual([true, true, false, false, true]);
    earned.add(1, 250_003);
    expect([earned.has(1, 0), earned.has(1, 9), earned.has(1, 250_003), earned.has(1, 250_002)]).toEqual([true, true, true, false]);
  });

  it("deletes one customer's bit only, and a position never added is a no-op", () => {
    const earned = new EarnedBy();
    for (const position of [3, 4, 5]) earned.add(7, position);
    earned.delete(7, 4);
    earned.delete(7, 1_000_000);
    earned.delete(8, 4);
    expect([3, 4, 5].map((p) => earned.has(7, p))).toEqual([true, false, true]);
  });
});

describe("ListsByPosition: lists in an array by customer position", () => {
  it("pushes at any position, leaving the ones before it without a list", () => {
    const lists = new ListsByPosition<string>();
    lists.push(5, "a");
    lists.push(5, "b");
    lists.push(2, "c");
    expect([0, 1, 2, 3, 4, 5, 6].map((p) => lists.of(p))).toEqual([undefined, undefined, ["c"], undefined, undefined, ["a", "b"], undefined]);
  });

  it("pops back to no list, truncates to the customers left, and repacks to equal lists", () => {
    const lists = new ListsByPosition<number>();
    lists.push(0, 1);
    lists.push(1, 2);
    lists.push(1, 3);
    lists.pop(0);
    lists.pop(1);
    expect([lists.of(0), lists.of(1)]).toEqual([undefined, [2]]);
    const before = lists.of(1);
    lists.repack();
    expect(lists.of(1)).toEqual([2]);
    expect(lists.of(1)).not.toBe(before);
    lists.truncate(1);
    expect(lists.of(1)).toBeUndefined();
    lists.push(1, 4);
    expect(lists.of(1)).toEqual([4]);
  });
});

describe("ShopStore over stored data whose first customers have no ledger", () => {
  const customer = (id: string): CustomerRecord => ({ id, firstName: "A", lastName: "B", email: `${id}@example.com`, platformState: "active", excluded: false, balance: 0, earned: 0, lots: [], createdAt: 0 });
  const activity = (id: number, customerId: string, earnRuleId?: number): ActivityRecord => ({ id, customerId, kind: earnRuleId === undefined ? "award" : "earn", label: "x", stampChange: 0, earnRuleId, createdAt: id });
  const data = (): ShopData => ({
    id: "1",
    seed: 1,
    access: { apiKey: "k", apiSecret: "s", apiAccess: true, plan: "paid", rateLimit: null },
    program: { settings: {} as ShopData["program"]["settings"], tiers: [], earnRules: [], rewards: [], beacons: [] },
    customers: ["100", "101", "102", "103"].map(customer),
    activities: [activity(1, "103", 9), activity(2, "101"), activity(3, "103")],
    codes: [],
    nextActivityId: 4,
    nextCodeId: 1,
  });

  it("gives each customer its own ledger and earn rules", () => {
    const store = new ShopStore(data());
    expect(["100", "101", "102", "103", "999"].map((id) => store.activitiesOf(id).map((a) => a.id))).toEqual([[], [2], [], [1, 3], []]);
    expect([store.hasEarnedBy("103", 9), store.hasEarnedBy("101", 9), store.hasEarnedBy("999", 9)]).toEqual([true, false, false]);
    expect(store.activityPosition(3)).toEqual({ customerId: "103", index: 1 });
  });

  it("takes back a customer and an earn that a rolled-back write added", () => {
    const store = new ShopStore(data());
    const checkpoint = store.checkpoint();
    store.addCustomer(customer("104"));
    store.appendActivity(activity(0, "104", 9));
    store.appendActivity(activity(0, "100", 9));
    expect([store.hasEarnedBy("104", 9), store.hasEarnedBy("100", 9), store.activitiesOf("104").length]).toEqual([true, true, 1]);
    store.rollback(checkpoint);
    expect([store.customer("104"), store.hasEarnedBy("100", 9), store.activitiesOf("100").length, store.hasEarnedBy("103", 9)]).toEqual([undefined, false, 0, true]);
    store.addCustomer(customer("105"));
    expect([store.activitiesOf("105").length, store.hasEarnedBy("105", 9)]).toEqual([0, false]);
  });
});
