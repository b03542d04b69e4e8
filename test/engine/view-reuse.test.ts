/**
 * A customer shown one by one gets the same frozen view object while nothing in it changes, and
 * the HTTP layer keeps a frozen object's JSON text; every change shows at once, by construction
 * (the fresh view is compared field by field with the last one).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sameFields } from "../../src/engine/views.js";
import { jsonText } from "../../src/http/respond.js";
import { AUTH, BASE, createTestSim } from "../support/sim.js";

function setup(stamps = 3) {
  const sim = createTestSim({ customers: 0 });
  const { id } = sim.shop.syncCustomer({ firstName: "Grace", lastName: "Hopper", email: "grace@example.com", stampBalance: stamps });
  return { ...sim, id };
}

describe("a customer's view, reused while unchanged", () => {
  it("is the same frozen object while nothing changes, and a new one with the change after each write", () => {
    const { shop, id } = setup(3);
    const first = shop.getCustomer(id);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.nextReward)).toBe(true);
    expect(shop.getCustomer(id)).toBe(first);

    shop.awardStamps(id, { stamps: 2 });
    const awarded = shop.getCustomer(id);
    expect(awarded).not.toBe(first);
    expect(awarded).toMatchObject({ stampBalance: 5, stampsToNextReward: 5, nextReward: { id: "102" } });
    expect(first).toMatchObject({ stampBalance: 3, stampsToNextReward: 2, nextReward: { id: "101" } });

    shop.updateCustomer(id, { birthday: { month: 11, day: 25 } });
    const withBirthday = shop.getCustomer(id);
    expect(withBirthday).not.toBe(awarded);
    expect(withBirthday.dateOfBirth).toBe("25-11");
    expect(shop.getCustomer(id)).toBe(withBirthday);
  });

  it("keeps the last 1024 customers shown: the oldest is forgotten (and rebuilt, equal) when a 1025th is shown", () => {
    const { shop, id } = setup();
    const first = shop.getCustomer(id);
    const others = Array.from({ length: 1023 }, (_, i) => shop.syncCustomer({ firstName: "A", lastName: `B${i}`, email: `a${i}@example.com` }).id);
    for (const other of others) shop.getCustomer(other);
    expect(shop.getCustomer(id)).toBe(first);
    const last = shop.syncCustomer({ firstName: "A", lastName: "Z", email: "z@example.com" }).id;
    shop.getCustomer(last);
    shop.getCustomer(others[0]!);
    const again = shop.getCustomer(id);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });

  it("a page of customers is built fresh each time (not kept)", () => {
    const { shop } = setup();
    const page = () => shop.listCustomers({}, { limit: 10, hasCount: false }).items[0]!;
    expect(page()).not.toBe(page());
    expect(Object.isFrozen(page())).toBe(false);
  });

  it("answers GET /customers/{id} with the new numbers right after an award, in the same second", async () => {
    const { app, call, id } = setup(3);
    const get = async () => (await app.request(`${BASE}/customers/${id}`, { headers: AUTH })).text();
    const before = await get();
    expect(JSON.parse(before).data.stampBalance).toBe(3);
    expect(await get()).toBe(before);
    expect((await call("POST", `/customers/${id}/stamps/award`, { body: { stamps: 4 } })).status).toBe(200);
    const after = await get();
    const parsed = JSON.parse(after);
    expect(parsed.data).toMatchObject({ stampBalance: 7, stampsToNextReward: 3, nextReward: { id: "102" } });
    expect(after).toBe(JSON.stringify({ success: true, data: parsed.data, timestamp: parsed.timestamp }));
    expect(after.replace(/"stampBalance":7,"cards":0,"stampsToNextReward":3/, "").replace(/"nextReward":\{"id":"102","name":"[^"]+"\}/, "")).toBe(
      before.replace(/"stampBalance":3,"cards":0,"stampsToNextReward":2/, "").replace(/"nextReward":\{"id":"101","name":"[^"]+"\}/, ""),
    );
  });
});

describe("jsonText", () => {
  it("keeps a frozen object's text, and never an unfrozen one's", () => {
    const loose: { n: number } = { n: 1 };
    expect(jsonText(loose)).toBe('{"n":1}');
    loose.n = 2;
    expect(jsonText(loose)).toBe('{"n":2}');
    const frozen = Object.freeze({ n: 1, list: Object.freeze([1, 2]) });
    expect(jsonText(frozen)).toBe('{"n":1,"list":[1,2]}');
    expect(jsonText(frozen)).toBe(jsonText(frozen));
    expect(jsonText(undefined)).toBeUndefined();
    expect(jsonText([1, "a"])).toBe('[1,"a"]');
  });
});

describe("sameFields", () => {
  const json = fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant(null), fc.dictionary(fc.string({ maxLength: 3 }), fc.integer())));

  it("holds for a copy, and fails once any field is added, dropped or changed (property)", () => {
    fc.assert(
      fc.property(json, fc.nat(), fc.integer(), (value, pick, other) => {
        expect(sameFields(value, structuredClone(value))).toBe(true);
        const keys = Object.keys(value);
        if (keys.length === 0) return;
        const key = keys[pick % keys.length]!;
        const dropped = structuredClone(value);
        delete dropped[key];
        expect(sameFields(value, dropped)).toBe(false);
        expect(sameFields(dropped, value)).toBe(false);
        const changed = structuredClone(value);
        const field = changed[key];
        if (typeof field === "object" && field !== null) (field as Record<string, unknown>)["\u0000new"] = other;
        else changed[key] = field === other ? `${String(other)}!` : other;
        expect(sameFields(value, changed)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});
