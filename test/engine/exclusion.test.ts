import { describe, expect, it } from "vitest";
import type { ShopEngine } from "../../src/engine/shop-engine.js";
import { createTestSim, refusal } from "../support/sim.js";

/**
 * One customer with 30 stamps and an unused 5-stamp code, then removed or merged. A merged
 * customer's stamps move to the kept one, so what is left to void is the code.
 */
function setup(how: "removed" | "merged") {
  const sim = createTestSim({ customers: 0 });
  const { shop } = sim;
  const id = shop.syncCustomer({ firstName: "Emmy", lastName: "Noether", email: "emmy@example.com", stampBalance: 30 }).id;
  const kept = shop.syncCustomer({ firstName: "Emmy", lastName: "Noether", email: "emmy@example.com", stampBalance: 2 }).id;
  shop.redeemReward(id, 101);
  const codeId = shop.store.codesOf(id)[0]!.id;
  if (how === "removed") shop.updateCustomer(id, { excluded: true });
  else shop.mergeCustomer(id, kept);
  const message =
    how === "removed"
      ? `Customer ${id} is removed from the loyalty program; re-include them with PATCH {"excluded": false} first`
      : `Customer ${id} was merged into customer ${kept}; use that customer instead`;
  return { ...sim, id, kept, codeId, message };
}

const operations: [string, (shop: ShopEngine, id: string, codeId: number) => unknown][] = [
  ["award", (shop, id) => shop.awardStamps(id, { stamps: 5 })],
  ["adjust up", (shop, id) => shop.adjustStamps(id, { stamps: 5 })],
  ["adjust down", (shop, id) => shop.adjustStamps(id, { stamps: -1 })],
  ["earn rule", (shop, id) => shop.processEarnRule(id, 201)],
  ["redeem", (shop, id) => shop.redeemReward(id, 101)],
  ["grant", (shop, id) => shop.grantReward(id, 105)],
  ["tier change", (shop, id) => shop.setCustomerTier(id, { tierId: 2, triggerRewards: false })],
  ["tier change with rewards", (shop, id) => shop.setCustomerTier(id, { tierId: 4, triggerRewards: true })],
  ["void", (shop, id, codeId) => shop.voidRewardCode(id, codeId)],
];

describe.each(["removed", "merged"] as const)("a %s customer", (how) => {
  it.each(operations)("is refused %s with ACTIVITY_NOT_AWARDED, and nothing changes", (_name, operation) => {
    const { shop, id, codeId, message } = setup(how);
    const snapshot = JSON.stringify(shop.store.data);
    const error = refusal(() => operation(shop, id, codeId));
    expect(error).toMatchObject({ code: "ACTIVITY_NOT_AWARDED", message });
    expect(JSON.stringify(shop.store.data)).toBe(snapshot);
  });

  it("can still be read", () => {
    const { shop, id, kept, codeId } = setup(how);
    const customer = shop.getCustomer(id).value;
    expect(customer.id).toBe(id);
    if (how === "removed") {
      expect(customer).toMatchObject({ state: "removed", stampBalance: 25 });
      expect(customer).not.toHaveProperty("mergedIntoCustomerId");
    } else {
      expect(customer).toMatchObject({ state: "active", stampBalance: 0, mergedIntoCustomerId: kept });
      expect(shop.getCustomer(kept).value.stampBalance).toBe(27);
    }
    expect(shop.listCustomers({ email: "EMMY@example.com" }, { limit: 5, hasCount: false }).items.map((c) => c.id)).toEqual([id, kept]);
    expect(shop.listActivities(id, { limit: 10, hasCount: true }).pagination.count).toBe(how === "removed" ? 2 : 3);
    expect(shop.listRewardCodes(id, true).map((c) => c.id)).toEqual([String(codeId)]);
    expect(shop.ledgerMismatches()).toEqual([]);
  });

  it("can still be updated (birthday)", () => {
    const { shop, id } = setup(how);
    expect(shop.updateCustomer(id, { birthday: { month: 3, day: 14 } }).dateOfBirth).toBe("14-03");
  });
});

describe("re-inclusion", () => {
  it("excluded:false gives back state active, and changes work again", () => {
    const { shop, id } = setup("removed");
    expect(shop.updateCustomer(id, { excluded: false }).state).toBe("active");
    expect(shop.awardStamps(id, { stamps: 5 }).stampBalance).toBe(30);
    expect(shop.processEarnRule(id, 201).stampBalance).toBe(31);
  });

  it("excluded:true twice and back once is still active", () => {
    const { shop, id } = setup("removed");
    shop.updateCustomer(id, { excluded: true });
    expect(shop.getCustomer(id).value.state).toBe("removed");
    expect(shop.updateCustomer(id, { excluded: false }).state).toBe("active");
  });

  it("excluded:false does not undo a merge", () => {
    const { shop, id, message } = setup("merged");
    expect(shop.updateCustomer(id, { excluded: false }).state).toBe("active");
    expect(refusal(() => shop.awardStamps(id, { stamps: 1 }))).toMatchObject({ code: "ACTIVITY_NOT_AWARDED", message });
  });

  it("the customer kept by a merge is not affected", () => {
    const { shop, kept } = setup("merged");
    expect(shop.awardStamps(kept, { stamps: 3 }).stampBalance).toBe(30);
  });
});

describe("PATCH birthday", () => {
  function customer() {
    const { shop } = createTestSim({ customers: 0 });
    const id = shop.syncCustomer({ firstName: "Sofia", lastName: "Kovalevskaya", email: "sofia@example.com", dateOfBirth: "15-01" }).id;
    return { shop, id };
  }

  it.each([
    [1, 1, "01-01"],
    [7, 4, "04-07"],
    [2, 29, "29-02"],
    [4, 30, "30-04"],
    [12, 31, "31-12"],
  ])("month %i, day %i: dateOfBirth %s", (month, day, expected) => {
    const { shop, id } = customer();
    expect(shop.updateCustomer(id, { birthday: { month, day } }).dateOfBirth).toBe(expected);
    expect(shop.getCustomer(id).value.dateOfBirth).toBe(expected);
  });

  it.each([
    [2, 30, 29],
    [4, 31, 30],
    [6, 31, 30],
    [9, 31, 30],
    [11, 31, 30],
  ])("month %i, day %i: VALIDATION_ERROR on birthday_day, nothing changes", (month, day, max) => {
    const { shop, id } = customer();
    const snapshot = JSON.stringify(shop.store.data);
    const error = refusal(() => shop.updateCustomer(id, { birthday: { month, day }, excluded: true }));
    expect(error).toMatchObject({ code: "VALIDATION_ERROR", message: "Request validation failed" });
    expect(error.details).toEqual([{ path: "birthday_day", message: `month ${month} has at most ${max} days` }]);
    expect(JSON.stringify(shop.store.data)).toBe(snapshot);
    expect(shop.getCustomer(id).value).toMatchObject({ dateOfBirth: "15-01", state: "active" });
  });

  it("of an unknown customer: CUSTOMER_NOT_FOUND", () => {
    const { shop } = customer();
    expect(refusal(() => shop.updateCustomer("77", { excluded: true }))).toMatchObject({
      code: "CUSTOMER_NOT_FOUND",
      message: "Customer 77 not found",
    });
  });
});
