/**
 * Regression (issue 26, case 11): a request that waited (`--latency`, a scenario's `delayMs`,
 * `Prefer: delay=`, a GraphQL field's delay) then ran on the shop its credentials had named when it
 * arrived. When that shop was reset or deleted meanwhile, the write went to the store the shop no
 * longer had: 200 with `stampBalance: 5`, and the shop then showed 0 and no activity. Now a request
 * acts on its shop as it is after the wait: deleted, it is refused as credentials that no longer
 * exist; reset, it runs on the reset shop.
 */
import { describe, expect, it } from "vitest";
import { newShop, nine, type Made } from "../support/shops.js";
import { expectError, NOW_ISO } from "../support/sim.js";
import { graphqlOverHttp, quotaOf } from "../graphql/http-sim.js";

const DELAY = 200;
const AWARD = (id: string, stamps: number) => `mutation { awardStamps(customerId: "${id}", stamps: ${stamps}) { stampBalance } }`;
const GONE = { errors: [{ message: "UNAUTHORIZED", extensions: { reason: "Invalid API credentials" } }] };

/** A simulator with a second shop (3 seeded customers, and customer 11 made by the control API with 9 stamps). */
async function setUp(latency?: number) {
  const t = graphqlOverHttp({ customers: 1, ...(latency !== undefined && { latency }) });
  const b = await newShop(t, { customers: 3, seed: 4, rateLimit: 50 });
  expect((await t.call("POST", "/__sim/customers", { headers: b.key, body: nine("11") })).status).toBe(201);
  const seeded = t.engine.shop(b.id)!.store.data.customers.find((c) => !c.excluded && c.mergedIntoCustomerId === undefined)!;
  return { t, b, seeded: { id: seeded.id, balance: seeded.balance } };
}

type Setup = Awaited<ReturnType<typeof setUp>>;

/** Once the request is waiting (its body read, its scenarios decided: well within its delay). */
const waiting = () => new Promise((resolve) => setTimeout(resolve, DELAY / 4));
const reset = async ({ t, b }: Setup) => {
  await waiting();
  expect((await t.call("POST", "/__sim/reset", { headers: b.key })).body).toStrictEqual({ reset: true, shops: 1 });
};
const remove = async ({ t, b }: Setup) => {
  await waiting();
  expect((await t.call("DELETE", `/__sim/shops/${b.key["X-Api-Key"]}`)).status).toBe(204);
};
const delayAwards = async (t: Setup["t"], b: Made) =>
  expect((await t.call("POST", "/__sim/scenarios", { headers: b.key, body: { name: "slow", rules: [{ match: { operation: "awardStamps" }, respond: { delayMs: DELAY } }] } })).status).toBe(201);

/** The customer's balance and number of ledger entries, through REST on shop `b`. */
async function ledgerOf({ t, b }: Setup, id: string) {
  const customer = (await t.call("GET", `/customers/${id}`, { auth: false, headers: b.auth })).body.data;
  const activities = (await t.call("GET", `/customers/${id}/activities?limit=100`, { auth: false, headers: b.auth })).body.data;
  return { balance: customer.stampBalance as number, entries: activities.length as number };
}

/** Journal entries of award requests: every shop's, and those the default shop's journal shows. */
function awardEntries({ t }: Setup) {
  const awards = (list: { path: string; shopId: string | null; status: number | null }[]) => list.filter((e) => e.path.endsWith("/stamps/award") || e.path === "/graphql").map((e) => [e.shopId, e.status]);
  return { all: awards(t.journal.list()), seenByDefault: awards(t.journal.list({ shopId: "1", includeUnidentified: true })) };
}

describe("issue 26, case 11: a delayed write is acknowledged after its shop was reset or deleted, and lands nowhere", () => {
  describe("REST", () => {
    it("Prefer: delay, the shop deleted meanwhile: 401 UNAUTHORIZED as for credentials that no longer exist; journaled for no shop", async () => {
      const s = await setUp();
      const award = s.t.call("POST", `/customers/${s.seeded.id}/stamps/award`, { auth: false, headers: { ...s.b.auth, Prefer: `delay=${DELAY}` }, body: { stamps: 5 } });
      await remove(s);
      const res = await award;
      expectError(res, 401, "UNAUTHORIZED", "Invalid API credentials");
      expect(quotaOf(res)).toEqual([null, null]);
      expect(awardEntries(s)).toEqual({ all: [[s.b.id, 401]], seenByDefault: [] });
    });

    it("--latency, the shop reset meanwhile: the award is made on the reset shop, and shows there", async () => {
      const s = await setUp(DELAY);
      const award = s.t.call("POST", `/customers/${s.seeded.id}/stamps/award`, { auth: false, headers: s.b.auth, body: { stamps: 5 } });
      await reset(s);
      const res = await award;
      expect([res.status, res.body.data.stampBalance]).toEqual([200, s.seeded.balance + 5]);
      const seededEntries = s.t.engine.shop(s.b.id)!.store.data.activities.filter((a) => a.customerId === s.seeded.id).length;
      expect(await ledgerOf(s, s.seeded.id)).toEqual({ balance: s.seeded.balance + 5, entries: seededEntries });
      expect(awardEntries(s).all).toEqual([[s.b.id, 200]]);
    });

    it("a scenario's delayMs, the shop reset meanwhile: a customer the reset removed is CUSTOMER_NOT_FOUND", async () => {
      const s = await setUp();
      await delayAwards(s.t, s.b);
      const award = s.t.call("POST", "/customers/11/stamps/award", { auth: false, headers: s.b.auth, body: { stamps: 5 } });
      await reset(s);
      const res = await award;
      expect([res.status, res.body.error.code]).toEqual([404, "CUSTOMER_NOT_FOUND"]);
      expect((await s.t.call("GET", "/customers/11", { auth: false, headers: s.b.auth })).status).toBe(404);
    });

    it("a scenario's delayMs, the shop deleted meanwhile: 401", async () => {
      const s = await setUp();
      await delayAwards(s.t, s.b);
      const award = s.t.call("POST", "/customers/11/stamps/award", { auth: false, headers: s.b.auth, body: { stamps: 5 } });
      await remove(s);
      expectError(await award, 401, "UNAUTHORIZED", "Invalid API credentials");
    });
  });

  it.each([
    ["REST", (s: Setup) => `/rest_api/v1/customers/${s.seeded.id}/stamps/award`, { stamps: 5 }, { success: false, error: { message: "Invalid API credentials", code: "UNAUTHORIZED", statusCode: 401 }, timestamp: NOW_ISO }],
    ["GraphQL", () => "/graphql", undefined, GONE],
  ])("%s: the shop deleted while the body was still arriving: 401", async (_, path, body, refusal) => {
    const s = await setUp();
    const text = JSON.stringify(body ?? { query: AWARD(s.seeded.id, 5) });
    let send!: ReadableStreamDefaultController<Uint8Array>;
    const stream = new ReadableStream<Uint8Array>({ start: (controller) => void (send = controller) });
    const answer = s.t.app.request(path(s), { method: "POST", headers: { ...s.b.auth, "Content-Type": "application/json" }, body: stream, duplex: "half" } as RequestInit);
    send.enqueue(new TextEncoder().encode(text.slice(0, 10)));
    await remove(s);
    send.enqueue(new TextEncoder().encode(text.slice(10)));
    send.close();
    const res = await answer;
    expect([res.status, await res.json()]).toEqual([401, refusal]);
  });

  describe("GraphQL", () => {
    it("--latency, the shop deleted meanwhile: 401 UNAUTHORIZED in GraphQL's shape; journaled for no shop", async () => {
      const s = await setUp(DELAY);
      const award = s.t.post(AWARD(s.seeded.id, 5), undefined, { auth: s.b.auth });
      await remove(s);
      const res = await award;
      expect([res.status, res.body, quotaOf(res)]).toEqual([401, GONE, [null, null]]);
      expect(awardEntries(s)).toEqual({ all: [[s.b.id, 401]], seenByDefault: [] });
    });

    it("Prefer: delay, the shop reset meanwhile: the award is made on the reset shop, and shows there", async () => {
      const s = await setUp();
      const award = s.t.post(AWARD(s.seeded.id, 5), undefined, { auth: s.b.auth, headers: { Prefer: `delay=${DELAY}` } });
      await reset(s);
      const res = await award;
      expect([res.status, res.body]).toEqual([200, { data: { awardStamps: { stampBalance: s.seeded.balance + 5 } } }]);
      expect((await ledgerOf(s, s.seeded.id)).balance).toBe(s.seeded.balance + 5);
      expect(awardEntries(s).all).toEqual([[s.b.id, 200]]);
    });

    it("a field's delay (a scenario rule), the shop reset meanwhile: the field runs on the reset shop, and shows there", async () => {
      const s = await setUp();
      await delayAwards(s.t, s.b);
      const award = s.t.post(AWARD(s.seeded.id, 5), undefined, { auth: s.b.auth });
      await reset(s);
      const res = await award;
      expect([res.status, res.body]).toEqual([200, { data: { awardStamps: { stampBalance: s.seeded.balance + 5 } } }]);
      expect((await ledgerOf(s, s.seeded.id)).balance).toBe(s.seeded.balance + 5);
    });

    it("a field's delay, the shop deleted meanwhile: 401 for the request", async () => {
      const s = await setUp();
      await delayAwards(s.t, s.b);
      const award = s.t.post(AWARD(s.seeded.id, 5), undefined, { auth: s.b.auth });
      await remove(s);
      const res = await award;
      expect([res.status, res.body]).toEqual([401, GONE]);
      expect(awardEntries(s)).toEqual({ all: [[s.b.id, 401]], seenByDefault: [] });
    });

    it("a field that committed before another's delay stays reported done (it was, on the shop as it then was)", async () => {
      const s = await setUp();
      await delayAwards(s.t, s.b);
      const write = s.t.post(
        `mutation { a: adjustStamps(customerId: "${s.seeded.id}", stamps: 3) { stampBalance } b: awardStamps(customerId: "${s.seeded.id}", stamps: 5) { stampBalance } }`,
        undefined,
        { auth: s.b.auth },
      );
      await reset(s);
      const res = await write;
      expect([res.status, res.body]).toEqual([200, { data: { a: { stampBalance: s.seeded.balance + 3 }, b: { stampBalance: s.seeded.balance + 5 } } }]);
    });
  });
});
