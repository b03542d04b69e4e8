import { describe, expect, it } from "vitest";
import { MAX_STAMPS } from "../../src/engine/limits.js";
import type { Program } from "../../src/store/types.js";
import { createTestSim, NOW, refusal } from "../support/sim.js";

const MAX = MAX_STAMPS;

/** A shop with one customer holding exactly `stamps`, and nothing else. */
function setup(stamps = 0, program?: (p: Program) => void) {
  const sim = createTestSim({ customers: 0, ...(program && { program }) });
  const { id } = sim.shop.syncCustomer({ firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", stampBalance: stamps });
  const ledger = () => sim.shop.store.activitiesOf(id);
  return { ...sim, id, ledger, record: sim.shop.store.customer(id)! };
}

describe("award", () => {
  it.each([
    [0, 1, 1],
    [0, 7, 7],
    [12, 5, 17],
    [3, 1000, 1003],
  ])("from %i stamps, awarding %i gives exactly %i", (start, stamps, expected) => {
    const { shop, id, ledger } = setup(start);
    const before = ledger().length;
    expect(shop.awardStamps(id, { stamps })).toEqual({ customerId: id, stampChange: stamps, stampBalance: expected });
    expect(shop.getCustomer(id).value.stampBalance).toBe(expected);
    expect(ledger()).toHaveLength(before + 1);
    expect(ledger().at(-1)).toMatchObject({ kind: "award", stampChange: stamps, createdAt: NOW });
    expect(shop.ledgerMismatches()).toEqual([]);
  });

  it("awards up to exactly MAX_STAMPS (2^31-1)", () => {
    const { shop, id } = setup();
    expect(shop.awardStamps(id, { stamps: MAX }).stampBalance).toBe(MAX);
  });
});

describe("adjust", () => {
  it.each([
    [10, -4, 6],
    [10, -10, 0],
    [0, 3, 3],
    [7, 2, 9],
    [25, -1, 24],
  ])("from %i stamps, adjusting by %i gives exactly %i", (start, stamps, expected) => {
    const { shop, id, ledger } = setup(start);
    expect(shop.adjustStamps(id, { stamps })).toEqual({ customerId: id, stampChange: stamps, stampBalance: expected });
    expect(shop.getCustomer(id).value.stampBalance).toBe(expected);
    expect(ledger().at(-1)).toMatchObject({ kind: "adjust", stampChange: stamps, createdAt: NOW });
    expect(shop.ledgerMismatches()).toEqual([]);
  });
});

describe("the activity a manual change writes", () => {
  const cases: [string, "awardStamps" | "adjustStamps", { stamps: number; comment?: string; internalComment?: string }, string, string][] = [
    ["award, no comments", "awardStamps", { stamps: 4 }, "Stamps adjusted by the shop", "API adjustment"],
    ["award with comment", "awardStamps", { stamps: 4, comment: "Thanks for coming back" }, "Thanks for coming back", "API adjustment"],
    ["award with both", "awardStamps", { stamps: 4, comment: "Welcome", internalComment: "Ticket 42" }, "Welcome", "Ticket 42"],
    ["adjust down, no comments", "adjustStamps", { stamps: -3 }, "Stamps adjusted by the shop", "API adjustment"],
    ["adjust with internal comment only", "adjustStamps", { stamps: -3, internalComment: "Fraud check" }, "Stamps adjusted by the shop", "Fraud check"],
  ];

  it.each(cases)("%s", (_name, method, input, label, internalComment) => {
    const { shop, id, ledger } = setup(10);
    shop[method](id, input);
    const activity = ledger().at(-1)!;
    expect(activity).toEqual({
      id: activity.id,
      customerId: id,
      kind: method === "awardStamps" ? "award" : "adjust",
      label,
      internalComment,
      stampChange: input.stamps,
      createdAt: NOW,
    });
    // The API's view shows the label, never the internal comment.
    expect(shop.listActivities(id, { limit: 1, hasCount: false }).items).toEqual([
      { id: String(activity.id), label, stampChange: input.stamps, createdAt: "2026-11-23T12:00:00+00:00" },
    ]);
  });

  it("uses the shop's own branded manual-adjustment label", () => {
    const { shop, id, ledger } = setup(0, (p) => void (p.settings.manualAdjustmentLabel = "Beans topped up by the barista"));
    shop.adjustStamps(id, { stamps: 2 });
    expect(ledger().at(-1)!.label).toBe("Beans topped up by the barista");
  });
});

describe("refusals change nothing", () => {
  it.each([
    [0, -1],
    [5, -6],
    [10, -11],
    [10, -1000],
  ])("balance %i, adjusting by %i: INSUFFICIENT_STAMPS", (start, stamps) => {
    const { shop, id, ledger, record } = setup(start);
    const ids = ledger().map((a) => a.id);
    const snapshot = JSON.stringify(shop.store.data);
    const error = refusal(() => shop.adjustStamps(id, { stamps }));
    expect(error).toMatchObject({ code: "INSUFFICIENT_STAMPS" });
    expect(error.message).toBe(`Customer ${id} has ${start} stamps; ${-stamps} are needed`);
    expect(record.balance).toBe(start);
    expect(ledger().map((a) => a.id)).toEqual(ids);
    expect(JSON.stringify(shop.store.data)).toBe(snapshot);
  });

  it.each([
    ["award", "awardStamps", 1, MAX],
    ["award", "awardStamps", MAX, 1],
    ["adjust", "adjustStamps", MAX - 10, 11],
  ] as const)("%s beyond MAX_STAMPS (from %i by %i): VALIDATION_ERROR", (_n, method, start, stamps) => {
    const { shop, id, ledger } = setup(start);
    const length = ledger().length;
    const snapshot = JSON.stringify(shop.store.data);
    const error = refusal(() => shop[method](id, { stamps }));
    expect(error).toMatchObject({ code: "VALIDATION_ERROR", message: "Request validation failed" });
    expect(error.details).toEqual([{ path: "stamps", message: `would take the balance beyond ${MAX}, the most stamps a balance may hold (production's GraphQL API types stamp counts as 32-bit integers)` }]);
    expect(shop.getCustomer(id).value.stampBalance).toBe(start);
    expect(ledger()).toHaveLength(length);
    expect(JSON.stringify(shop.store.data)).toBe(snapshot);
  });

  it.each([
    ["awardStamps", MAX + 1, `must be at most ${MAX}, the most stamps a balance may hold (production's GraphQL API types stamp counts as 32-bit integers)`],
    ["adjustStamps", MAX + 1, `must be at most ${MAX}, the most stamps a balance may hold (production's GraphQL API types stamp counts as 32-bit integers)`],
    ["adjustStamps", -MAX - 1, `must be at least -${MAX}, the most stamps a balance may hold (production's GraphQL API types stamp counts as 32-bit integers)`],
  ] as const)("%s of %i stamps, which no balance could hold, is VALIDATION_ERROR before the customer is looked up", (method, stamps, message) => {
    const { shop } = setup(3);
    const snapshot = JSON.stringify(shop.store.data);
    const error = refusal(() => shop[method]("1234567890", { stamps }));
    expect(error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ path: "stamps", message }] });
    expect(JSON.stringify(shop.store.data)).toBe(snapshot);
  });

  it.each(["awardStamps", "adjustStamps"] as const)("%s of an unknown customer: CUSTOMER_NOT_FOUND", (method) => {
    const { shop } = setup(3);
    const snapshot = JSON.stringify(shop.store.data);
    const error = refusal(() => shop[method]("1234567890", { stamps: 1 }));
    expect(error).toMatchObject({ code: "CUSTOMER_NOT_FOUND", message: "Customer 1234567890 not found" });
    expect(JSON.stringify(shop.store.data)).toBe(snapshot);
  });
});

describe("ledger invariant", () => {
  it("holds through a sequence of awards, adjustments and refusals", () => {
    const { shop, id, ledger } = setup(0);
    const steps: [("award" | "adjust"), number, number | "refused"][] = [
      ["award", 5, 5],
      ["adjust", -2, 3],
      ["adjust", -4, "refused"],
      ["award", 10, 13],
      ["adjust", -13, 0],
      ["adjust", -1, "refused"],
      ["adjust", 8, 8],
      ["award", 1, 9],
    ];
    for (const [kind, stamps, expected] of steps) {
      const run = () => (kind === "award" ? shop.awardStamps(id, { stamps }) : shop.adjustStamps(id, { stamps }));
      if (expected === "refused") expect(refusal(run).code).toBe("INSUFFICIENT_STAMPS");
      else expect(run().stampBalance).toBe(expected);
      expect(shop.ledgerMismatches()).toEqual([]);
    }
    expect(ledger().map((a) => a.stampChange)).toEqual([5, -2, 10, -13, 8, 1]);
    expect(shop.getCustomer(id).value.stampBalance).toBe(9);
  });

  it("holds for every generated customer after manual changes to each", () => {
    const sim = createTestSim({ customers: 20 });
    for (const c of sim.shop.store.data.customers) {
      if (c.excluded || c.mergedIntoCustomerId !== undefined) continue;
      sim.shop.awardStamps(c.id, { stamps: 3 });
      sim.shop.adjustStamps(c.id, { stamps: -1 });
    }
    expect(sim.shop.ledgerMismatches()).toEqual([]);
  });
});
