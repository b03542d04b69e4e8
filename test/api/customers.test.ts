import { describe, expect, it } from "vitest";
import { createTestSim, type TestSim, expectError } from "../support/sim.js";

const TS = "2026-11-23T12:00:00+00:00";
const IN_A_YEAR = "2027-11-23T12:00:00+00:00";
const CODE = /^LOYAL-[A-HJ-NP-Z2-9]{6}$/;
const cursor = (id: string) => Buffer.from(`id:${id}`, "utf8").toString("base64");

/** A customer synced from the platform right now, with a known balance (an award of that many). */
function newCustomer(sim: TestSim, stampBalance: number, extra: { dateOfBirth?: string; email?: string } = {}) {
  return sim.shop.syncCustomer({ firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", stampBalance, ...extra }).id;
}

async function snapshot(sim: TestSim, id: string) {
  const customer = await sim.call("GET", `/customers/${id}`);
  const activities = await sim.call("GET", `/customers/${id}/activities?limit=1000&hasCount=true`);
  const codes = await sim.call("GET", `/customers/${id}/reward-codes`);
  return { customer: customer.body.data, activities: activities.body, codes: codes.body.data };
}

describe("GET /customers", () => {
  const sim = createTestSim();
  const records = sim.shop.store.data.customers;

  it("is the success envelope with the first 20 customers oldest first and count null", async () => {
    const res = await sim.call("GET", "/customers");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["data", "meta", "success", "timestamp"]);
    expect(res.body.success).toBe(true);
    expect(res.body.timestamp).toBe(TS);
    const ids = res.body.data.map((c: { id: string }) => c.id);
    expect(ids).toEqual(records.slice(0, 20).map((c) => c.id));
    expect(res.body.meta).toStrictEqual({
      pagination: { hasNext: false, hasPrevious: false, nextCursor: cursor(ids[19]), previousCursor: cursor(ids[0]), count: null },
    });
    for (const c of res.body.data) expect(c).not.toHaveProperty("nextReward");
  });

  it.each([
    ["hasCount=true", 20],
    ["hasCount=1", 20],
    ["hasCount=false", null],
    ["hasCount=0", null],
  ])("?%s&limit=3 gives count %s and hasNext true", async (query, count) => {
    const res = await sim.call("GET", `/customers?${query}&limit=3`);
    expect(res.body.data).toHaveLength(3);
    expect(res.body.meta.pagination).toMatchObject({ hasNext: true, hasPrevious: false, count });
  });

  it("lists each customer as GET /customers/{id} shows it, minus nextReward", async () => {
    const list = await sim.call("GET", "/customers?limit=5");
    for (const item of list.body.data) {
      const { nextReward, ...rest } = (await sim.call("GET", `/customers/${item.id}`)).body.data;
      expect(nextReward).toBeDefined();
      expect(item).toStrictEqual(rest);
    }
  });

  it("?email= matches any case and returns every customer sharing the email, oldest first", async () => {
    const byEmail = new Map<string, string[]>();
    for (const c of records) byEmail.set(c.email, [...(byEmail.get(c.email) ?? []), c.id]);
    const [email, ids] = [...byEmail].find(([, list]) => list.length > 1)!;
    expect(ids.length).toBeGreaterThanOrEqual(2);
    const res = await sim.call("GET", `/customers?email=${encodeURIComponent(email.toUpperCase())}&hasCount=true`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual(ids);
    for (const c of res.body.data) expect(c.email).toBe(email);
    expect(res.body.meta.pagination).toStrictEqual({
      hasNext: false,
      hasPrevious: false,
      nextCursor: cursor(ids.at(-1)!),
      previousCursor: cursor(ids[0]!),
      count: ids.length,
    });
  });

  it("?email= of nobody is an empty page with null cursors", async () => {
    const res = await sim.call("GET", "/customers?email=nobody%40example.com");
    expect(res.body.data).toEqual([]);
    expect(res.body.meta.pagination).toStrictEqual({ hasNext: false, hasPrevious: false, nextCursor: null, previousCursor: null, count: null });
  });
});

describe("GET /customers/{id}", () => {
  const sim = createTestSim({ customers: 50 });

  it("returns exactly the documented fields, null ones left out", async () => {
    const id = newCustomer(sim, 23);
    const res = await sim.call("GET", `/customers/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({
      success: true,
      data: {
        id,
        firstName: "Ada",
        lastName: "Lovelace",
        email: "ada@example.com",
        stampBalance: 23,
        cards: 2,
        stampsToNextReward: 17,
        stampsExpireAt: IN_A_YEAR,
        state: "active",
        nextReward: { id: "105", name: "Free 250 g bag of house beans" },
      },
      timestamp: TS,
    });
    for (const key of ["vipTierId", "vipTierName", "dateOfBirth", "mergedIntoCustomerId"]) expect(res.body.data).not.toHaveProperty(key);
  });

  it.each([
    // balance, cards, nextReward, stampsToNextReward, tier
    [0, 0, "101", 5, undefined],
    [4, 0, "101", 1, undefined],
    [5, 0, "102", 5, undefined],
    [10, 1, "104", 10, undefined],
    [39, 3, "105", 1, 1],
    [40, 4, "105", 0, 1],
    [80, 8, "105", 0, 2],
  ])("with %i stamps: cards %i, nextReward %s, %i to go, tier %s", async (balance, cards, next, toGo, tier) => {
    const id = newCustomer(sim, balance);
    const { data } = (await sim.call("GET", `/customers/${id}`)).body;
    expect(data).toMatchObject({ stampBalance: balance, cards, stampsToNextReward: toGo, nextReward: { id: next } });
    expect(data.vipTierId).toBe(tier);
    if (balance === 0) expect(data).not.toHaveProperty("stampsExpireAt");
    else expect(data.stampsExpireAt).toBe(IN_A_YEAR);
  });

  it("shows tier (integer id), birthday and +00:00 timestamps for a seeded customer", async () => {
    const seeded = sim.shop.store.data.customers.find((c) => c.vipTierId === 1 && c.dateOfBirth !== undefined)!;
    const { data, timestamp } = (await sim.call("GET", `/customers/${seeded.id}`)).body;
    expect(data).toMatchObject({ id: seeded.id, vipTierId: 1, vipTierName: "Bronze", dateOfBirth: seeded.dateOfBirth, state: "active" });
    const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;
    expect(data.stampsExpireAt).toMatch(iso);
    expect(timestamp).toBe(TS);
    const withCodes = sim.shop.store.data.codes[0]!.customerId;
    const activities = (await sim.call("GET", `/customers/${withCodes}/activities?limit=1000`)).body.data;
    const codes = (await sim.call("GET", `/customers/${withCodes}/reward-codes`)).body.data;
    expect(activities.length).toBeGreaterThan(1);
    expect(codes.length).toBeGreaterThan(0);
    for (const x of [...activities, ...codes]) expect(x.createdAt).toMatch(iso);
  });

  it("shows removed and merged customers", async () => {
    const [a, b, c] = [newCustomer(sim, 12), newCustomer(sim, 8), newCustomer(sim, 3)];
    sim.shop.updateCustomer(a, { excluded: true });
    sim.shop.mergeCustomer(b, c);
    expect((await sim.call("GET", `/customers/${a}`)).body.data).toMatchObject({ state: "removed", stampBalance: 12 });
    const merged = (await sim.call("GET", `/customers/${b}`)).body.data;
    expect(merged).toMatchObject({ state: "active", stampBalance: 0, mergedIntoCustomerId: c });
    expect((await sim.call("GET", `/customers/${c}`)).body.data.stampBalance).toBe(11);
  });

  it.each(["999", "abc", "6000475504606x"])("404 CUSTOMER_NOT_FOUND for %s in the exact error envelope", async (id) => {
    expectError(await sim.call("GET", `/customers/${id}`), 404, "CUSTOMER_NOT_FOUND", `Customer ${id} not found`);
  });
});

describe("PATCH /customers/{id}", () => {
  const sim = createTestSim();

  it.each([
    [6, 5, "05-06"],
    [2, 29, "29-02"],
    [12, 31, "31-12"],
  ])("birthday_month %i + birthday_day %i sets dateOfBirth %s", async (month, day, dob) => {
    const id = newCustomer(sim, 7);
    const res = await sim.call("PATCH", `/customers/${id}`, { body: { birthday_month: month, birthday_day: day } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, dateOfBirth: dob, stampBalance: 7, stampsToNextReward: 3 });
    expect(res.body.data).not.toHaveProperty("nextReward");
    expect((await sim.call("GET", `/customers/${id}`)).body.data.dateOfBirth).toBe(dob);
  });

  it("refuses a day the month does not have, changing nothing", async () => {
    const id = newCustomer(sim, 7, { dateOfBirth: "01-01" });
    const res = await sim.call("PATCH", `/customers/${id}`, { body: { birthday_month: 4, birthday_day: 31 } });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([{ in: "body", path: "birthday_day", message: "month 4 has at most 30 days" }]);
    expect((await sim.call("GET", `/customers/${id}`)).body.data.dateOfBirth).toBe("01-01");
  });

  it("excluded true removes the customer (everywhere), false brings them back; stamps are kept", async () => {
    const id = newCustomer(sim, 9, { email: "exclude.me@example.com" });
    const removed = await sim.call("PATCH", `/customers/${id}`, { body: { excluded: true } });
    expect(removed.body.data).toMatchObject({ state: "removed", stampBalance: 9 });
    expect((await sim.call("GET", `/customers/${id}`)).body.data.state).toBe("removed");
    const listed = await sim.call("GET", "/customers?email=exclude.me%40example.com");
    expect(listed.body.data.map((c: { state: string }) => c.state)).toEqual(["removed"]);
    const back = await sim.call("PATCH", `/customers/${id}`, { body: { excluded: false } });
    expect(back.body.data).toMatchObject({ state: "active", stampBalance: 9 });
  });

  it("an empty body changes nothing and returns the customer", async () => {
    const id = newCustomer(sim, 31, { dateOfBirth: "02-03" });
    const before = await snapshot(sim, id);
    const res = await sim.call("PATCH", `/customers/${id}`, { body: {} });
    expect(res.status).toBe(200);
    const { nextReward: _, ...summary } = before.customer;
    expect(res.body.data).toStrictEqual(summary);
    expect(await snapshot(sim, id)).toStrictEqual(before);
  });

  it.each(["firstName", "lastName", "email", "phone", "first_name", "last_name"])(
    "refuses %s with 422 naming it, even alongside a valid birthday",
    async (field) => {
      const id = newCustomer(sim, 4);
      const before = await snapshot(sim, id);
      const res = await sim.call("PATCH", `/customers/${id}`, { body: { [field]: "x", birthday_month: 3, birthday_day: 3 } });
      expect(res.status).toBe(422);
      expect(res.body.error).toStrictEqual({
        message: "Request validation failed",
        code: "VALIDATION_ERROR",
        statusCode: 422,
        details: [{ in: "body", path: field, message: "is owned by the commerce platform and cannot be changed here" }],
      });
      expect(await snapshot(sim, id)).toStrictEqual(before);
    },
  );

  it("404 CUSTOMER_NOT_FOUND for an unknown id", async () => {
    expectError(await sim.call("PATCH", "/customers/42", { body: { excluded: true } }), 404, "CUSTOMER_NOT_FOUND", "Customer 42 not found");
  });
});

describe("POST /customers/{id}/tier", () => {
  const sim = createTestSim();

  it("sets the tier with a 0-stamp activity and issues no codes", async () => {
    const id = newCustomer(sim, 12);
    const res = await sim.call("POST", `/customers/${id}/tier`, { body: { tier_id: 3 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, vipTierId: 3, vipTierName: "Gold", stampBalance: 12 });
    const after = await snapshot(sim, id);
    const { nextReward: _, ...summary } = after.customer;
    expect(res.body.data).toStrictEqual(summary);
    expect(after.activities.meta.pagination.count).toBe(2);
    expect(after.activities.data[0]).toMatchObject({ label: "VIP tier set to Gold", stampChange: 0, createdAt: TS });
    expect(after.codes).toEqual([]);
  });

  it("labels the activity with the comment when one is sent, and can set a lower tier", async () => {
    const id = newCustomer(sim, 80);
    expect((await sim.call("GET", `/customers/${id}`)).body.data.vipTierId).toBe(2);
    const res = await sim.call("POST", `/customers/${id}/tier`, { body: { tier_id: 1, comment: "Welcome back", internal_comment: "staff" } });
    expect(res.body.data).toMatchObject({ vipTierId: 1, vipTierName: "Bronze", stampBalance: 80 });
    const { activities } = await snapshot(sim, id);
    expect(activities.data[0]).toMatchObject({ label: "Welcome back", stampChange: 0 });
  });

  it("trigger_rewards issues one free code per tier reward, each with a 0-stamp activity", async () => {
    const id = newCustomer(sim, 12);
    const res = await sim.call("POST", `/customers/${id}/tier`, { body: { tier_id: 3, trigger_rewards: true } });
    expect(res.body.data).toMatchObject({ vipTierId: 3, stampBalance: 12 });
    const { codes, activities } = await snapshot(sim, id);
    expect(codes.map((c: { name: string; used: boolean; createdAt: string }) => [c.name, c.used, c.createdAt])).toEqual([
      ["Free coffee of your choice", false, TS],
      ["Gold pastry box (4 pastries)", false, TS],
    ]);
    for (const c of codes) expect(c.code).toMatch(CODE);
    expect(activities.data.slice(0, 3).map((a: { label: string; stampChange: number }) => [a.label, a.stampChange])).toEqual([
      ["Gold tier reward: Gold pastry box (4 pastries)", 0],
      ["Gold tier reward: Free coffee of your choice", 0],
      ["VIP tier set to Gold", 0],
    ]);
    expect(sim.shop.ledgerMismatches()).toEqual([]);
  });

  it.each([
    ["an unknown tier", () => "known", 99, 404, "TIER_NOT_FOUND", "Tier 99 not found"],
    ["an unknown customer", () => "77", 2, 404, "CUSTOMER_NOT_FOUND", "Customer 77 not found"],
    ["an unknown customer and tier", () => "77", 99, 404, "CUSTOMER_NOT_FOUND", "Customer 77 not found"],
  ])("refuses %s and changes nothing", async (_, who, tier, status, code, message) => {
    const id = newCustomer(sim, 12);
    const target = who() === "known" ? id : who();
    const before = await snapshot(sim, id);
    expectError(await sim.call("POST", `/customers/${target}/tier`, { body: { tier_id: tier, trigger_rewards: true } }), status, code, message);
    expect(await snapshot(sim, id)).toStrictEqual(before);
  });

  it("refuses tier 0, which no tier can have (ids are positive), with a 422 naming tier_id, and changes nothing", async () => {
    const id = newCustomer(sim, 12);
    const before = await snapshot(sim, id);
    const res = await sim.call("POST", `/customers/${id}/tier`, { body: { tier_id: 0, trigger_rewards: true } });
    expect([res.status, res.body.error.code, res.body.error.details]).toEqual([422, "VALIDATION_ERROR", [{ in: "body", path: "tier_id", message: "Too small: expected number to be >=1" }]]);
    expect(await snapshot(sim, id)).toStrictEqual(before);
  });

  it("refuses a removed customer with ACTIVITY_NOT_AWARDED", async () => {
    const id = newCustomer(sim, 12);
    sim.shop.updateCustomer(id, { excluded: true });
    const before = await snapshot(sim, id);
    const res = await sim.call("POST", `/customers/${id}/tier`, { body: { tier_id: 2, trigger_rewards: true } });
    expectError(res, 422, "ACTIVITY_NOT_AWARDED", `Customer ${id} is removed from the loyalty program; re-include them with PATCH {"excluded": false} first`);
    expect(await snapshot(sim, id)).toStrictEqual(before);
  });
});
