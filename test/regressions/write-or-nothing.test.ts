/**
 * Regression (issue 17, case 2): with the clock out of range an award answered 500 but was
 * committed, so a client's retry awarded twice. Whatever fails inside a write (here a failure
 * injected after the change: in the view that answers it, or in the store as it records it), the
 * answer is 500 and the write leaves nothing behind: no ledger entry, code, customer or field.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createTestSim, type TestSim } from "../support/sim.js";

/** The view builder armed to fail on its next call. */
const armed = vi.hoisted(() => ({ view: undefined as "customer" | "code" | undefined }));

vi.mock(import("../../src/engine/views.js"), async (importOriginal) => {
  const actual = await importOriginal();
  const failOnce = (which: "customer" | "code") => {
    if (armed.view !== which) return;
    armed.view = undefined;
    throw new Error(`injected failure in the ${which} view`);
  };
  return {
    ...actual,
    customerView: (...args: Parameters<typeof actual.customerView>) => (failOnce("customer"), actual.customerView(...args)),
    codeView: (...args: Parameters<typeof actual.codeView>) => (failOnce("code"), actual.codeView(...args)),
  };
});

beforeEach(() => {
  armed.view = undefined;
  vi.restoreAllMocks();
});

type Inject = (sim: TestSim) => void;

/** The store records the change, then fails (as a bug in the middle of a write would). */
const afterStoreCall = (method: "appendActivity" | "addCode"): Inject => (sim) => {
  const store = sim.shop.store;
  const original = store[method].bind(store) as (record: never) => unknown;
  const failAfter = (record: never) => {
    original(record);
    throw new Error(`injected failure after ${method}`);
  };
  vi.spyOn(store, method).mockImplementationOnce(failAfter as never);
};
const inView = (view: "customer" | "code"): Inject => () => {
  armed.view = view;
};

/** Everything a write could change, including the indexes behind the API's lookups. */
function state(sim: TestSim, ids: string[]) {
  const store = sim.shop.store;
  return {
    data: structuredClone(store.data),
    version: store.version,
    ledgers: ids.map((id) => store.activitiesOf(id).map((a) => a.id)),
    codes: ids.map((id) => store.codesOf(id).map((c) => c.id)),
    codeById: store.data.codes.map((c) => store.code(c.id) === c),
    byEmail: store.customerIdsByEmail("twice@example.com"),
    earned: ids.map((id) => store.hasEarnedBy(id, 202)),
    positions: ids.map((id) => store.customerPosition(id)),
  };
}

interface Case {
  name: string;
  inject: Inject;
  method: string;
  path: (c: { id: string; other: string; codeId: string }) => string;
  body?: object;
}

const cases: Case[] = [
  { name: "award", inject: afterStoreCall("appendActivity"), method: "POST", path: ({ id }) => `/customers/${id}/stamps/award`, body: { stamps: 7 } },
  { name: "adjust", inject: afterStoreCall("appendActivity"), method: "POST", path: ({ id }) => `/customers/${id}/stamps/adjust`, body: { stamps: -2 } },
  { name: "earn rule (lifetime limit)", inject: afterStoreCall("appendActivity"), method: "POST", path: ({ id }) => `/customers/${id}/activities`, body: { earn_rule_id: 202 } },
  { name: "redeem", inject: afterStoreCall("addCode"), method: "POST", path: ({ id }) => `/customers/${id}/redemptions`, body: { reward_product_id: 101 } },
  { name: "grant", inject: afterStoreCall("addCode"), method: "POST", path: ({ id }) => `/customers/${id}/reward-grants`, body: { reward_product_id: 101 } },
  { name: "PATCH excluded", inject: inView("customer"), method: "PATCH", path: ({ id }) => `/customers/${id}`, body: { excluded: true, birthday_month: 2, birthday_day: 3 } },
  { name: "tier with rewards", inject: inView("customer"), method: "POST", path: ({ id }) => `/customers/${id}/tier`, body: { tier_id: 4, trigger_rewards: true } },
  { name: "use a code", inject: inView("code"), method: "POST", path: ({ id, codeId }) => `/customers/${id}/reward-codes/${codeId}/use` },
  { name: "void a code", inject: inView("code"), method: "POST", path: ({ id, codeId }) => `/customers/${id}/reward-codes/${codeId}/void` },
  { name: "create a customer", inject: inView("customer"), method: "POST", path: () => "/__sim/customers", body: { firstName: "A", lastName: "B", email: "twice@example.com", stampBalance: 9 } },
  { name: "merge", inject: inView("customer"), method: "POST", path: ({ id, other }) => `/__sim/customers/${other}/merge`, body: { into: "$id" } },
];

describe("a write that fails after changing something leaves nothing behind", () => {
  it.each(cases)("$name: 500, state as before, and a retry applies once", async ({ inject, method, path, body }) => {
    /** Two customers and a code; `sim` will fail once, `control` never does. */
    const setUp = async () => {
      const sim = createTestSim({ customers: 0 });
      const id = sim.shop.syncCustomer({ firstName: "Ada", lastName: "L", email: "twice@example.com", stampBalance: 40 }).id;
      const other = sim.shop.syncCustomer({ firstName: "Bob", lastName: "M", email: "bob@example.com", stampBalance: 3 }).id;
      expect((await sim.call("POST", `/customers/${id}/redemptions`, { body: { reward_product_id: 101 } })).status).toBe(200);
      const ids = { id, other, codeId: String(sim.shop.store.codesOf(id)[0]!.id) };
      const request = { ...(body && { body: JSON.parse(JSON.stringify(body).replace('"$id"', JSON.stringify(id))) }) };
      return { sim, ids, request, all: [id, other] };
    };
    const { sim, ids, request, all } = await setUp();
    const control = await setUp();

    const before = state(sim, all);
    inject(sim);
    const failed = await sim.call(method, path(ids), { ...request, unchecked: true });
    expect(failed.status).toBe(500);
    expect(failed.body.error.code).toBe("INTERNAL_ERROR");
    expect(sim.bugs).toHaveLength(1);
    expect(state(sim, all)).toStrictEqual(before);
    expect(sim.shop.ledgerMismatches()).toEqual([]);

    // The retry leaves the shop exactly as one call leaves a shop that never failed, down to the
    // random letters of a code and the draw of a generated id.
    const retried = await sim.call(method, path(ids), request);
    const once = await control.sim.call(method, path(control.ids), control.request);
    expect([retried.status, retried.body.data]).toStrictEqual([once.status, once.body.data]);
    expect(state(sim, all)).toStrictEqual(state(control.sim, control.all));
    expect(sim.shop.ledgerMismatches()).toEqual([]);
  });

  it("award: the retry is the only award (balance up by the award once)", async () => {
    const sim = createTestSim({ customers: 0 });
    const id = sim.shop.syncCustomer({ firstName: "Ada", lastName: "L", email: "a@example.com", stampBalance: 10 }).id;
    afterStoreCall("appendActivity")(sim);
    expect((await sim.call("POST", `/customers/${id}/stamps/award`, { body: { stamps: 7 }, unchecked: true })).status).toBe(500);
    const retried = await sim.call("POST", `/customers/${id}/stamps/award`, { body: { stamps: 7 } });
    expect(retried.body.data).toStrictEqual({ customerId: id, stampChange: 7, stampBalance: 17 });
    const ledger = await sim.call("GET", `/customers/${id}/activities?hasCount=true`);
    expect(ledger.body.data.map((a: { stampChange: number }) => a.stampChange)).toEqual([7, 10]);
    expect(ledger.body.data.map((a: { id: string }) => a.id)).toEqual(["2", "1"]);
  });
});
