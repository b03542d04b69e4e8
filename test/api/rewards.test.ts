import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { defaultFixturePath } from "../../src/program/load.js";
import { createTestSim, type TestSim, expectError } from "../support/sim.js";

const TS = "2026-11-23T12:00:00+00:00";
const CODE = /^LOYAL-[A-HJ-NP-Z2-9]{6}$/;

interface FixtureReward { id: number; name: string; price: number; exchangeType: string; iconUrl?: string }
const fixtureRewards: FixtureReward[] = JSON.parse(readFileSync(defaultFixturePath(), "utf8")).rewards;
const rewardJson = (id: number) => {
  const r = fixtureRewards.find((x) => x.id === id)!;
  return { id: String(r.id), name: r.name, price: r.price, exchangeType: r.exchangeType, iconUrl: r.iconUrl };
};

function newCustomer(sim: TestSim, stampBalance: number) {
  return sim.shop.syncCustomer({ firstName: "Alan", lastName: "Turing", email: "alan@example.com", stampBalance }).id;
}

async function snapshot(sim: TestSim, id: string) {
  const customer = await sim.call("GET", `/customers/${id}`);
  const activities = await sim.call("GET", `/customers/${id}/activities?limit=1000`);
  const codes = await sim.call("GET", `/customers/${id}/reward-codes`);
  return { customer: customer.body.data, activities: activities.body.data, codes: codes.body.data };
}

const redeem = (sim: TestSim, id: string, body: object) => sim.call("POST", `/customers/${id}/redemptions`, { body });

describe("GET /rewards and /rewards/{id}", () => {
  const sim = createTestSim();

  it("lists the online rewards whole with meta.count, leaving out POS-only 108 and tier-locked 107 and 109", async () => {
    const res = await sim.call("GET", "/rewards");
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({ success: true, data: [101, 102, 103, 104, 105, 106].map(rewardJson), meta: { count: 6 }, timestamp: TS });
    expect(res.body.data[1]).toStrictEqual({
      id: "102",
      name: "Free coffee of your choice",
      price: 10,
      exchangeType: "cards",
      iconUrl: "https://cdn.example.com/loyalty/icons/coffee.svg",
    });
  });

  it.each([101, 106, 107, 108, 109])("GET /rewards/%i returns it, hidden ones included", async (id) => {
    const res = await sim.call("GET", `/rewards/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({ success: true, data: rewardJson(id), timestamp: TS });
  });

  it("omits iconUrl when a reward has none", async () => {
    const bare = createTestSim({ program: (p) => delete p.rewards[0]!.iconUrl });
    const res = await bare.call("GET", "/rewards/101");
    expect(res.body.data).toStrictEqual({ id: "101", name: "Free extra shot or syrup", price: 5, exchangeType: "stamps" });
  });

  it("GET /rewards/999 is 404 REWARD_NOT_FOUND, and so is a non-numeric id", async () => {
    expectError(await sim.call("GET", "/rewards/999"), 404, "REWARD_NOT_FOUND", "Reward 999 not found");
    const res = await sim.call("GET", "/rewards/abc");
    expect([res.status, res.body.error.code]).toEqual([404, "REWARD_NOT_FOUND"]);
  });
});

describe("POST /customers/{id}/redemptions", () => {
  const sim = createTestSim();

  it.each([
    [104, {}, 20, "$5 off your order"],
    [102, {}, 10, "Free coffee of your choice"],
    [106, { variable_amount: 7 }, 7, "Pay with stamps ($0.25 off per stamp)"],
    [106, { variable_amount: 23 }, 23, "Pay with stamps ($0.25 off per stamp)"],
  ])("reward %i %j costs %i stamps and issues a code", async (rewardId, extra, cost, name) => {
    const id = newCustomer(sim, 23);
    const before = await snapshot(sim, id);
    const res = await redeem(sim, id, { reward_product_id: rewardId, ...extra });
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({ success: true, data: { code: expect.stringMatching(CODE), name, stampBalance: 23 - cost }, timestamp: TS });
    const after = await snapshot(sim, id);
    expect(after.activities).toHaveLength(before.activities.length + 1);
    expect(after.activities[0]).toMatchObject({ label: `Redeemed ${name}`, stampChange: -cost, createdAt: TS });
    expect(after.codes).toStrictEqual([{ id: expect.stringMatching(/^\d+$/), name, code: res.body.data.code, used: false, createdAt: TS }]);
    expect(after.customer.stampBalance).toBe(23 - cost);
  });

  it("a tier-locked reward is REWARD_NOT_FOUND below its tier and redeemable at it", async () => {
    const id = newCustomer(sim, 30);
    const before = await snapshot(sim, id);
    expectError(await redeem(sim, id, { reward_product_id: 107 }), 404, "REWARD_NOT_FOUND", "Reward 107 is only available to Gold tier members and above");
    expect(await snapshot(sim, id)).toStrictEqual(before);
    await sim.call("POST", `/customers/${id}/tier`, { body: { tier_id: 4 } });
    const res = await redeem(sim, id, { reward_product_id: 107 });
    expect(res.body.data).toMatchObject({ name: "Gold pastry box (4 pastries)", stampBalance: 5 });
  });

  it.each([
    [{ reward_product_id: 105 }, 422, "INSUFFICIENT_STAMPS", (id: string) => `Customer ${id} has 23 stamps; Free 250 g bag of house beans costs 40`],
    [{ reward_product_id: 106, variable_amount: 24 }, 422, "INSUFFICIENT_STAMPS", (id: string) => `Customer ${id} has 23 stamps; Pay with stamps ($0.25 off per stamp) costs 24`],
    [{ reward_product_id: 999 }, 404, "REWARD_NOT_FOUND", () => "Reward 999 not found"],
  ])("%j is %i %s and changes nothing", async (body, status, code, message) => {
    const id = newCustomer(sim, 23);
    const before = await snapshot(sim, id);
    expectError(await redeem(sim, id, body), status, code, message(id));
    expect(await snapshot(sim, id)).toStrictEqual(before);
  });

  it.each([
    [{ reward_product_id: 106 }, "is required: reward 106 is a variable-amount reward"],
    [{ reward_product_id: 106, variable_amount: 101 }, "must be between 1 and 100 for reward 106"],
  ])("variable reward %j is 422 on variable_amount", async (body, message) => {
    const id = newCustomer(sim, 200);
    const before = await snapshot(sim, id);
    const res = await redeem(sim, id, body);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ in: "body", path: "variable_amount", message }] });
    expect(await snapshot(sim, id)).toStrictEqual(before);
  });

  it("refuses an unknown customer and a removed one", async () => {
    expectError(await redeem(sim, "31337", { reward_product_id: 101 }), 404, "CUSTOMER_NOT_FOUND", "Customer 31337 not found");
    const id = newCustomer(sim, 23);
    sim.shop.updateCustomer(id, { excluded: true });
    const before = await snapshot(sim, id);
    const res = await redeem(sim, id, { reward_product_id: 101 });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("ACTIVITY_NOT_AWARDED");
    expect(await snapshot(sim, id)).toStrictEqual(before);
  });
});

describe("POST /customers/{id}/reward-grants", () => {
  const sim = createTestSim();

  it.each([105, 107, 106])("grants reward %i at no cost with a 0-stamp activity", async (rewardId) => {
    const id = newCustomer(sim, 3);
    const name = rewardJson(rewardId).name;
    const res = await sim.call("POST", `/customers/${id}/reward-grants`, { body: { reward_product_id: rewardId } });
    expect(res.body).toStrictEqual({ success: true, data: { code: expect.stringMatching(CODE), name, stampBalance: 3 }, timestamp: TS });
    const after = await snapshot(sim, id);
    expect(after.activities[0]).toMatchObject({ label: `Granted ${name}`, stampChange: 0 });
    expect(after.codes.map((c: { code: string; used: boolean }) => [c.code, c.used])).toEqual([[res.body.data.code, false]]);
    expect(after.customer.stampBalance).toBe(3);
  });

  it.each([
    ["31337", 105, 404, "CUSTOMER_NOT_FOUND", "Customer 31337 not found"],
    ["known", 999, 404, "REWARD_NOT_FOUND", "Reward 999 not found"],
  ])("customer %s, reward %i: %i %s", async (who, rewardId, status, code, message) => {
    const id = newCustomer(sim, 3);
    const before = await snapshot(sim, id);
    const target = who === "known" ? id : who;
    expectError(await sim.call("POST", `/customers/${target}/reward-grants`, { body: { reward_product_id: rewardId } }), status, code, message);
    expect(await snapshot(sim, id)).toStrictEqual(before);
  });
});

describe("reward codes: list, use, void", () => {
  const sim = createTestSim();

  /** A customer with three codes: redeemed 104 (cost 20), redeemed 101 (cost 5) then used, granted 105. */
  async function withCodes() {
    const id = newCustomer(sim, 30);
    const a = (await redeem(sim, id, { reward_product_id: 104 })).body.data.code;
    const b = (await redeem(sim, id, { reward_product_id: 101 })).body.data.code;
    const c = (await sim.call("POST", `/customers/${id}/reward-grants`, { body: { reward_product_id: 105 } })).body.data.code;
    const codes = (await sim.call("GET", `/customers/${id}/reward-codes`)).body.data;
    expect(codes.map((x: { code: string }) => x.code)).toEqual([a, b, c]);
    const [redeemed, used, granted] = codes.map((x: { id: string }) => x.id);
    expect((await sim.call("POST", `/customers/${id}/reward-codes/${used}/use`)).status).toBe(200);
    return { id, redeemed, used, granted };
  }

  it.each([
    ["", 3, 3],
    ["?available=1", 2, 2],
    ["?available=true", 2, 2],
    ["?available=0", 3, 3],
    ["?available=false", 3, 3],
  ])("GET reward-codes%s lists %i codes with meta.count %i", async (query, n, count) => {
    const { id, used } = await withCodes();
    const res = await sim.call("GET", `/customers/${id}/reward-codes${query}`);
    expect(res.body.data).toHaveLength(n);
    expect(res.body.meta).toStrictEqual({ count });
    if (n === 2) expect(res.body.data.map((c: { id: string }) => c.id)).not.toContain(used);
  });

  it("use marks the code used, refunds nothing, and using it again is a no-op success", async () => {
    const { id, redeemed } = await withCodes();
    const before = await snapshot(sim, id);
    const res = await sim.call("POST", `/customers/${id}/reward-codes/${redeemed}/use`);
    expect(res.status).toBe(200);
    expect(res.body.data).toStrictEqual({ ...before.codes[0], used: true });
    const again = await sim.call("POST", `/customers/${id}/reward-codes/${redeemed}/use`);
    expect(again.body.data).toStrictEqual(res.body.data);
    const after = await snapshot(sim, id);
    expect(after.customer).toStrictEqual(before.customer);
    expect(after.activities).toStrictEqual(before.activities);
  });

  it("void refunds exactly what the code cost, with an activity, and reads back used", async () => {
    const { id, redeemed } = await withCodes();
    const before = await snapshot(sim, id);
    expect(before.customer.stampBalance).toBe(5);
    const res = await sim.call("POST", `/customers/${id}/reward-codes/${redeemed}/void`);
    expect(res.status).toBe(200);
    expect(res.body.data).toStrictEqual({ ...before.codes[0], used: true });
    const after = await snapshot(sim, id);
    expect(after.customer.stampBalance).toBe(25);
    expect(after.activities[0]).toMatchObject({ label: "Refund for voided $5 off your order", stampChange: 20, createdAt: TS });
    expect(after.activities.slice(1)).toStrictEqual(before.activities);
    const available = (await sim.call("GET", `/customers/${id}/reward-codes?available=true`)).body.data;
    expect(available.map((c: { id: string }) => c.id)).not.toContain(redeemed);
  });

  it("voiding a granted code refunds nothing and writes no activity", async () => {
    const { id, granted } = await withCodes();
    const before = await snapshot(sim, id);
    expect((await sim.call("POST", `/customers/${id}/reward-codes/${granted}/void`)).body.data.used).toBe(true);
    const after = await snapshot(sim, id);
    expect([after.customer.stampBalance, after.activities]).toStrictEqual([before.customer.stampBalance, before.activities]);
  });

  it.each([
    ["used", (c: { used: string }) => c.used, "was already used and cannot be voided"],
    ["voided", (c: { redeemed: string }) => c.redeemed, "was already voided"],
  ])("voiding a %s code is 422 VOID_FAILED and changes nothing", async (_, pick, reason) => {
    const codes = await withCodes();
    await sim.call("POST", `/customers/${codes.id}/reward-codes/${codes.redeemed}/void`);
    const codeId = pick(codes);
    const before = await snapshot(sim, codes.id);
    const res = await sim.call("POST", `/customers/${codes.id}/reward-codes/${codeId}/void`);
    expectError(res, 422, "VOID_FAILED", `Reward code ${codeId} ${reason}`);
    expect(await snapshot(sim, codes.id)).toStrictEqual(before);
  });

  it.each(["use", "void"])("%s: unknown, another customer's and non-numeric codes are 404 REWARD_CODE_NOT_FOUND", async (action) => {
    const mine = await withCodes();
    const theirs = await withCodes();
    const before = await snapshot(sim, mine.id);
    const theirsBefore = await snapshot(sim, theirs.id);
    for (const codeId of ["999999", theirs.redeemed, "abc"]) {
      const res = await sim.call("POST", `/customers/${mine.id}/reward-codes/${codeId}/${action}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: "REWARD_CODE_NOT_FOUND", statusCode: 404 });
    }
    expect(await snapshot(sim, mine.id)).toStrictEqual(before);
    expect(await snapshot(sim, theirs.id)).toStrictEqual(theirsBefore);
  });

  it.each([
    ["GET", "reward-codes"],
    ["POST", "reward-codes/100001/use"],
    ["POST", "reward-codes/100001/void"],
  ])("%s /customers/{unknown}/%s is 404 CUSTOMER_NOT_FOUND", async (method, path) => {
    expectError(await sim.call(method, `/customers/31337/${path}`), 404, "CUSTOMER_NOT_FOUND", "Customer 31337 not found");
  });

  it("every balance still equals its ledger", () => {
    expect(sim.shop.ledgerMismatches()).toEqual([]);
  });
});
