/**
 * Regression (issue 17, case 10): after `POST /__sim/customers` with id "99999999999999999999" the
 * next generated id had 21 digits, and walking `GET /customers` past it gave a cursor the API then
 * refused with 422. Customer ids are 1 to 20 digits (what a cursor carries); every cursor the API
 * issues is accepted.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTestSim, type TestSim } from "../support/sim.js";

const person = { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" };

/** Every customer id, walking forwards with `after` and then backwards with `before`, `limit` at a time. */
async function walk(sim: TestSim, limit: number): Promise<{ forwards: string[]; backwards: string[] }> {
  const forwards: string[] = [];
  let query = `limit=${limit}`;
  for (;;) {
    const res = await sim.call("GET", `/customers?${query}`);
    expect(res.status).toBe(200);
    forwards.push(...res.body.data.map((c: { id: string }) => c.id));
    const { hasNext, nextCursor } = res.body.meta.pagination;
    if (!hasNext) break;
    query = `limit=${limit}&after=${encodeURIComponent(nextCursor)}`;
  }
  const backwards: string[] = [];
  const last = forwards[forwards.length - 1]!;
  backwards.unshift(last);
  query = `limit=${limit}&before=${encodeURIComponent(Buffer.from(`id:${last}`).toString("base64"))}`;
  for (;;) {
    const res = await sim.call("GET", `/customers?${query}`);
    expect(res.status).toBe(200);
    backwards.unshift(...res.body.data.map((c: { id: string }) => c.id));
    const { hasPrevious, previousCursor } = res.body.meta.pagination;
    if (!hasPrevious) break;
    query = `limit=${limit}&before=${encodeURIComponent(previousCursor)}`;
  }
  return { forwards, backwards };
}

describe("customer ids the control API accepts can be paged past", () => {
  it("the issue's case: a 20-digit id, then a generated one", async () => {
    const sim = createTestSim({ customers: 2 });
    const big = await sim.call("POST", "/__sim/customers", { body: { ...person, id: "99999999999999999999" } });
    expect(big.status).toBe(201);
    const next = await sim.call("POST", "/__sim/customers", { body: person });
    expect(next.status).toBe(201);
    expect(next.body.id).toMatch(/^\d{1,20}$/);
    const ids = sim.shop.store.data.customers.map((c) => c.id);
    expect(ids).toHaveLength(4);
    expect(await walk(sim, 1)).toStrictEqual({ forwards: ids, backwards: ids });
  });

  it.each([
    ["21 digits", "100000000000000000000"],
    ["a letter", "12a"],
    ["a sign", "-5"],
    ["empty", ""],
  ])("an id of %s is 422 naming id and creates nothing", async (_, id) => {
    const sim = createTestSim({ customers: 1 });
    const res = await sim.call("POST", "/__sim/customers", { body: { ...person, id } });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toStrictEqual([{ in: "body", path: "id", message: "must be 1 to 20 digits" }]);
    expect(sim.shop.store.customerCount).toBe(1);
  });

  it("any accepted ids, mixed with generated ones, page forwards and backwards (property)", async () => {
    const digits = fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 1, maxLength: 20 });
    const step = fc.oneof(digits.map((id) => ({ id })), fc.constant({}), fc.constant({ id: "99999999999999999999" }));
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 4 }), async (steps, limit) => {
        const sim = createTestSim({ customers: 1 });
        for (const extra of steps) {
          const res = await sim.call("POST", "/__sim/customers", { body: { ...person, ...extra } });
          // A repeated id is refused as a duplicate; any id the API accepts must page.
          expect([201, 422]).toContain(res.status);
          if (res.status === 422) expect(res.body.error.details[0].message).toMatch(/already exists$/);
        }
        const ids = sim.shop.store.data.customers.map((c) => c.id);
        for (const id of ids) expect(id).toMatch(/^\d{1,20}$/);
        expect(await walk(sim, limit)).toStrictEqual({ forwards: ids, backwards: ids });
      }),
      { numRuns: 150 },
    );
  });
});
