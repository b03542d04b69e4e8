/**
 * A customer shown one by one gets the same frozen view object while nothing in it changes, and
 * the HTTP layer keeps a frozen object's JSON text; every change shows at once, by construction
 * (the fresh view is compared field by field with the last one).
 */
import { describe, expect, it } from "vitest";
import { sameCustomer, type Customer } from "../../src/engine/views.js";
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

describe("sameCustomer", () => {
  // Required<Customer>: a field added to Customer does not compile here until it is listed, and
  // then the loop below checks that sameCustomer compares it.
  const full: Required<Customer> = {
    id: "1",
    firstName: "Grace",
    lastName: "Hopper",
    email: "grace@example.com",
    stampBalance: 12,
    cards: 1,
    stampsToNextReward: 8,
    stampsExpireAt: "2027-01-01T00:00:00+00:00",
    vipTierId: 2,
    vipTierName: "Gold",
    dateOfBirth: "09-12",
    state: "active",
    mergedIntoCustomerId: "2",
    nextReward: { id: "104", name: "$5 off your order" },
  };
  const changed = (value: unknown) => (typeof value === "number" ? value + 1 : `${String(value)}!`);

  it("holds for an equal copy, and fails once any field, nested ones too, is changed or left out", () => {
    expect(sameCustomer(full, structuredClone(full))).toBe(true);
    for (const key of Object.keys(full) as (keyof Customer)[]) {
      if (key === "nextReward") {
        for (const inner of ["id", "name"] as const) {
          expect(sameCustomer(full, { ...full, nextReward: { ...full.nextReward, [inner]: changed(full.nextReward[inner]) } }), `nextReward.${inner}`).toBe(false);
        }
      } else {
        expect(sameCustomer(full, { ...full, [key]: changed(full[key]) }), key).toBe(false);
      }
      const without: Customer = { ...full };
      delete without[key];
      if (key === "id") continue; // never absent
      expect(sameCustomer(full, without), `without ${key}`).toBe(false);
      expect(sameCustomer(without, full), `without ${key}`).toBe(false);
    }
  });
});
