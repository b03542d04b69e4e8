import { describe, expect, it } from "vitest";
import { createTestSim, type TestSim, expectError } from "../support/sim.js";

const TS = "2026-11-23T12:00:00+00:00";
const DAY = 86_400_000;

function newCustomer(sim: TestSim, stampBalance: number, tierId?: number) {
  const id = sim.shop.syncCustomer({ firstName: "Grace", lastName: "Hopper", email: "grace@example.com", stampBalance }).id;
  if (tierId !== undefined) sim.shop.setCustomerTier(id, { tierId, triggerRewards: false });
  return id;
}

/** What GET shows of a customer: the record and the whole ledger. */
async function snapshot(sim: TestSim, id: string) {
  const customer = await sim.call("GET", `/customers/${id}`);
  const activities = await sim.call("GET", `/customers/${id}/activities?limit=1000&hasCount=true`);
  return { customer: customer.body.data, activities: activities.body.data, count: activities.body.meta.pagination.count };
}

const newest = async (sim: TestSim, id: string) => (await sim.call("GET", `/customers/${id}/activities?limit=1`)).body.data[0];

describe("POST /customers/{id}/stamps/award and /adjust", () => {
  const sim = createTestSim();

  it("award adds exactly the stamps, labelled with the shop's manual-adjustment label, newest first", async () => {
    const id = newCustomer(sim, 23);
    const before = await snapshot(sim, id);
    const res = await sim.call("POST", `/customers/${id}/stamps/award`, { body: { stamps: 7 } });
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({ success: true, data: { customerId: id, stampChange: 7, stampBalance: 30 }, timestamp: TS });
    const after = await snapshot(sim, id);
    expect(after.count).toBe(before.count + 1);
    expect(after.activities.slice(1)).toStrictEqual(before.activities);
    expect(after.activities[0]).toStrictEqual({
      id: String(Number(before.activities[0].id) + 1),
      label: "Stamps adjusted by the shop",
      stampChange: 7,
      createdAt: TS,
    });
    // 30 stamps earned in total passes Bronze's milestone of 25.
    expect(after.customer).toMatchObject({ stampBalance: 30, cards: 3, vipTierId: 1, vipTierName: "Bronze", stampsToNextReward: 10 });
  });

  it("award with a comment uses it as the label; internal_comment stays internal", async () => {
    const id = newCustomer(sim, 0);
    const res = await sim.call("POST", `/customers/${id}/stamps/award`, { body: { stamps: 1, comment: "Sorry for the wait", internal_comment: "ticket 12" } });
    expect(res.body.data).toStrictEqual({ customerId: id, stampChange: 1, stampBalance: 1 });
    expect(await newest(sim, id)).toMatchObject({ label: "Sorry for the wait", stampChange: 1 });
    expect(sim.shop.store.activitiesOf(id).at(-1)!.internalComment).toBe("ticket 12");
  });

  it.each([
    [23, -5, 18],
    [23, -23, 0],
    [23, 4, 27],
    [0, 1, 1],
  ])("adjust from %i by %i gives %i and a matching activity", async (start, change, balance) => {
    const id = newCustomer(sim, start);
    const res = await sim.call("POST", `/customers/${id}/stamps/adjust`, { body: { stamps: change } });
    expect(res.status).toBe(200);
    expect(res.body.data).toStrictEqual({ customerId: id, stampChange: change, stampBalance: balance });
    expect(await newest(sim, id)).toMatchObject({ label: "Stamps adjusted by the shop", stampChange: change, createdAt: TS });
    expect((await sim.call("GET", `/customers/${id}`)).body.data.stampBalance).toBe(balance);
    expect(sim.shop.store.activitiesOf(id).at(-1)!.internalComment).toBe("API adjustment");
  });

  it("a deduction does not demote", async () => {
    const id = newCustomer(sim, 80);
    await sim.call("POST", `/customers/${id}/stamps/adjust`, { body: { stamps: -80 } });
    expect((await sim.call("GET", `/customers/${id}`)).body.data).toMatchObject({ stampBalance: 0, vipTierId: 2, vipTierName: "Silver" });
  });

  it("adjust below zero is 422 INSUFFICIENT_STAMPS and changes nothing", async () => {
    const id = newCustomer(sim, 23);
    const before = await snapshot(sim, id);
    const res = await sim.call("POST", `/customers/${id}/stamps/adjust`, { body: { stamps: -24 } });
    expectError(res, 422, "INSUFFICIENT_STAMPS", `Customer ${id} has 23 stamps; 24 are needed`);
    expect(await snapshot(sim, id)).toStrictEqual(before);
  });
});

describe("POST /customers/{id}/activities (earn rules)", () => {
  const sim = createTestSim();

  it.each([
    // rule, tier, stamps: round(step x rule multiplier x tier multiplier)
    [202, undefined, 2, "Follow us on Instagram"],
    [204, undefined, 5, "Birthday treat"],
    [204, 1, 5, "Birthday treat"],
    [204, 2, 6, "Birthday treat"],
    [204, 3, 8, "Birthday treat"],
    [204, 4, 10, "Birthday treat"],
    [201, 2, 1, "Place an order"],
    [201, 3, 2, "Place an order"],
  ])("rule %i for tier %s awards %i stamps, labelled %s", async (rule, tier, stamps, label) => {
    const id = newCustomer(sim, 3, tier);
    const count = (await snapshot(sim, id)).count;
    const res = await sim.call("POST", `/customers/${id}/activities`, { body: { earn_rule_id: rule } });
    expect(res.status).toBe(200);
    expect(res.body.data).toStrictEqual({ customerId: id, stampChange: stamps, stampBalance: 3 + stamps });
    const after = await snapshot(sim, id);
    expect(after.count).toBe(count + 1);
    expect(after.activities[0]).toMatchObject({ label, stampChange: stamps, createdAt: TS });
    expect(after.customer.stampBalance).toBe(3 + stamps);
  });

  it("a lifetime rule is refused the second time with ACTIVITY_NOT_AWARDED, changing nothing", async () => {
    const id = newCustomer(sim, 3);
    expect((await sim.call("POST", `/customers/${id}/activities`, { body: { earn_rule_id: 202 } })).status).toBe(200);
    const before = await snapshot(sim, id);
    const res = await sim.call("POST", `/customers/${id}/activities`, { body: { earn_rule_id: 202 } });
    expectError(res, 422, "ACTIVITY_NOT_AWARDED", "Earn rule 202 (Follow us on Instagram) can be awarded once per customer and already was");
    sim.clock.advance(300 * DAY);
    expect((await sim.call("POST", `/customers/${id}/activities`, { body: { earn_rule_id: 202 } })).status).toBe(422);
    sim.clock.advance(-300 * DAY);
    expect(await snapshot(sim, id)).toStrictEqual(before);
  });

  it("5 orders a day: the 6th is refused until the rolling 24 h window moves on", async () => {
    const id = newCustomer(sim, 0);
    const earn = () => sim.call("POST", `/customers/${id}/activities`, { body: { earn_rule_id: 201 } });
    for (let i = 1; i <= 5; i++) expect((await earn()).body.data.stampBalance).toBe(i);
    const before = await snapshot(sim, id);
    expectError(await earn(), 422, "ACTIVITY_NOT_AWARDED", "Earn rule 201 (Place an order) can be awarded at most 5 time(s) per day");
    expect(await snapshot(sim, id)).toStrictEqual(before);
    sim.clock.advance(DAY - 1);
    expect((await earn()).status).toBe(422);
    sim.clock.advance(1);
    const res = await earn();
    expect(res.body.data).toStrictEqual({ customerId: id, stampChange: 1, stampBalance: 6 });
    sim.clock.set(Date.parse(TS));
  });

  it("404 EARN_RULE_NOT_FOUND for an unknown rule, changing nothing", async () => {
    const id = newCustomer(sim, 3);
    const before = await snapshot(sim, id);
    expectError(await sim.call("POST", `/customers/${id}/activities`, { body: { earn_rule_id: 999 } }), 404, "EARN_RULE_NOT_FOUND", "Earn rule 999 not found");
    expect(await snapshot(sim, id)).toStrictEqual(before);
  });
});

describe("refusals that change nothing", () => {
  const sim = createTestSim();

  const removed = () => {
    const id = newCustomer(sim, 30);
    sim.shop.updateCustomer(id, { excluded: true });
    return { id, why: `Customer ${id} is removed from the loyalty program; re-include them with PATCH {"excluded": false} first` };
  };
  const merged = () => {
    const id = newCustomer(sim, 30);
    const into = newCustomer(sim, 1);
    sim.shop.mergeCustomer(id, into);
    return { id, why: `Customer ${id} was merged into customer ${into}; use that customer instead` };
  };

  it.each([
    ["award", "removed", removed, "stamps/award", { stamps: 5 }],
    ["adjust", "removed", removed, "stamps/adjust", { stamps: -5 }],
    ["earn rule", "removed", removed, "activities", { earn_rule_id: 204 }],
    ["award", "merged", merged, "stamps/award", { stamps: 5 }],
    ["adjust", "merged", merged, "stamps/adjust", { stamps: 5 }],
    ["earn rule", "merged", merged, "activities", { earn_rule_id: 204 }],
  ])("%s for a %s customer is 422 ACTIVITY_NOT_AWARDED", async (_, __, make, path, body) => {
    const { id, why } = make();
    const before = await snapshot(sim, id);
    expectError(await sim.call("POST", `/customers/${id}/${path}`, { body }), 422, "ACTIVITY_NOT_AWARDED", why);
    expect(await snapshot(sim, id)).toStrictEqual(before);
  });

  it.each([
    ["POST", "stamps/award", { stamps: 5 }],
    ["POST", "stamps/adjust", { stamps: -5 }],
    ["POST", "activities", { earn_rule_id: 204 }],
    ["POST", "activities", { earn_rule_id: 999 }],
    ["GET", "activities", undefined],
  ])("%s /customers/{unknown}/%s is 404 CUSTOMER_NOT_FOUND", async (method, path, body) => {
    const customers = sim.shop.store.customerCount;
    const activities = sim.shop.store.data.activities.length;
    expectError(await sim.call(method, `/customers/12345/${path}`, { body }), 404, "CUSTOMER_NOT_FOUND", "Customer 12345 not found");
    expect([sim.shop.store.customerCount, sim.shop.store.data.activities.length]).toEqual([customers, activities]);
  });

  it("every balance still equals its ledger", () => {
    expect(sim.shop.ledgerMismatches()).toEqual([]);
  });
});
