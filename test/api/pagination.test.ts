import { describe, expect, it } from "vitest";
import { createTestSim, type TestSim } from "../support/sim.js";

const cursor = (id: string) => Buffer.from(`id:${id}`, "utf8").toString("base64");

interface Seen {
  ids: string[];
  hasNext: boolean;
  hasPrevious: boolean;
}

/**
 * Follows `nextCursor` (direction "after") or `previousCursor` ("before") from `path` until the
 * list says there is nothing more that way, checking each page's cursors against its items.
 * `between` runs after every page (to change the data mid-walk).
 */
async function walk(sim: TestSim, path: string, dir: "after" | "before", start?: string, between?: (page: number) => void) {
  const pages: Seen[] = [];
  let next = start;
  for (let guard = 0; guard < 500; guard++) {
    const sep = path.includes("?") ? "&" : "?";
    const res = await sim.call("GET", next === undefined ? path : `${path}${sep}${dir}=${encodeURIComponent(next)}`);
    expect(res.status).toBe(200);
    const ids: string[] = res.body.data.map((r: { id: string }) => r.id);
    const p = res.body.meta.pagination;
    expect(p.nextCursor).toBe(ids.length ? cursor(ids[ids.length - 1]!) : null);
    expect(p.previousCursor).toBe(ids.length ? cursor(ids[0]!) : null);
    expect(p.count).toBeNull();
    pages.push({ ids, hasNext: p.hasNext, hasPrevious: p.hasPrevious });
    between?.(pages.length);
    const more = dir === "after" ? p.hasNext : p.hasPrevious;
    if (!more) return pages;
    next = dir === "after" ? p.nextCursor : p.previousCursor;
  }
  throw new Error("walk did not end");
}

const flat = (pages: Seen[]) => pages.flatMap((p) => p.ids);
const flatBack = (pages: Seen[]) => pages.flatMap((p) => p.ids.slice().reverse());
const flags = (pages: Seen[]) => pages.map((p) => [p.ids.length, p.hasNext, p.hasPrevious]);

describe("GET /customers pagination (oldest first)", () => {
  const sim = createTestSim({ customers: 137 });
  const created = sim.shop.store.data.customers.map((c) => c.id);

  it("has 137 customers to page through", () => {
    expect(created).toHaveLength(137);
    expect(new Set(created).size).toBe(137);
  });

  it("walks forward with limit 10 through every customer once, in creation order", async () => {
    const pages = await walk(sim, "/customers?limit=10", "after");
    expect(flat(pages)).toEqual(created);
    expect(flags(pages)).toEqual([
      ...Array.from({ length: 13 }, (_, i) => [10, true, i > 0]),
      [7, false, true],
    ]);
  });

  it("walks back with `before` from the last page to the first: the same set, reversed", async () => {
    const forward = await walk(sim, "/customers?limit=10", "after");
    const lastFirstId = forward[forward.length - 1]!.ids[0]!;
    expect(lastFirstId).toBe(created[130]);
    const back = await walk(sim, "/customers?limit=10", "before", cursor(lastFirstId));
    expect(flags(back)).toEqual(Array.from({ length: 13 }, (_, i) => [10, true, i < 12]));
    expect([...forward[forward.length - 1]!.ids.slice().reverse(), ...flatBack(back)]).toEqual(created.slice().reverse());
    expect(back[0]!.ids).toEqual(created.slice(120, 130));
    expect(back[12]!.ids).toEqual(created.slice(0, 10));
  });

  it.each([
    ["limit=1", 1, true],
    ["limit=1000", 137, false],
    ["", 20, true],
    ["limit=137", 137, false],
    ["limit=136", 136, true],
  ])("?%s returns the first %i customers (hasNext %s)", async (query, size, hasNext) => {
    const res = await sim.call("GET", `/customers?${query}`);
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual(created.slice(0, size));
    expect(res.body.meta.pagination).toEqual({
      hasNext,
      hasPrevious: false,
      nextCursor: cursor(created[size - 1]!),
      previousCursor: cursor(created[0]!),
      count: null,
    });
  });

  it.each(["0", "1001", "-1", "2.5", "ten"])("refuses limit=%s with 422 VALIDATION_ERROR on `limit`", async (limit) => {
    const res = await sim.call("GET", `/customers?limit=${limit}`);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual(["limit"]);
  });

  it.each([
    ["hasCount=true", 137],
    ["hasCount=1", 137],
    ["hasCount=false", null],
    ["hasCount=0", null],
    ["", null],
  ])("?%s gives count %s", async (query, count) => {
    const res = await sim.call("GET", `/customers?limit=5&${query}`);
    expect(res.body.meta.pagination.count).toBe(count);
  });

  it("past either end is an empty page with null cursors and exact flags", async () => {
    const end = await sim.call("GET", `/customers?after=${cursor(created[136]!)}&hasCount=true`);
    expect(end.body.data).toEqual([]);
    expect(end.body.meta.pagination).toEqual({ hasNext: false, hasPrevious: true, nextCursor: null, previousCursor: null, count: 137 });
    const start = await sim.call("GET", `/customers?before=${cursor(created[0]!)}`);
    expect(start.body.data).toEqual([]);
    expect(start.body.meta.pagination).toEqual({ hasNext: true, hasPrevious: false, nextCursor: null, previousCursor: null, count: null });
  });

  it("`after` starts right after its record and `before` gives the `limit` records before it", async () => {
    const after = await sim.call("GET", `/customers?limit=3&after=${cursor(created[49]!)}`);
    expect(after.body.data.map((c: { id: string }) => c.id)).toEqual(created.slice(50, 53));
    const before = await sim.call("GET", `/customers?limit=3&before=${cursor(created[49]!)}`);
    expect(before.body.data.map((c: { id: string }) => c.id)).toEqual(created.slice(46, 49));
    expect(before.body.meta.pagination).toMatchObject({ hasNext: true, hasPrevious: true });
    const second = await sim.call("GET", `/customers?limit=1&after=${cursor(created[0]!)}`);
    expect(second.body.data.map((c: { id: string }) => c.id)).toEqual([created[1]]);
    expect(second.body.meta.pagination).toMatchObject({ hasNext: true, hasPrevious: true });
    const penultimate = await sim.call("GET", `/customers?limit=1&before=${cursor(created[136]!)}`);
    expect(penultimate.body.data.map((c: { id: string }) => c.id)).toEqual([created[135]]);
    expect(penultimate.body.meta.pagination).toMatchObject({ hasNext: true, hasPrevious: true });
    const short = await sim.call("GET", `/customers?limit=10&before=${cursor(created[3]!)}`);
    expect(short.body.data.map((c: { id: string }) => c.id)).toEqual(created.slice(0, 3));
    expect(short.body.meta.pagination).toMatchObject({ hasNext: true, hasPrevious: false });
  });

  it.each([
    ["after", "aWQ6MTAx", "points at no record of this list"],
    ["before", "aWQ6MTAx", "points at no record of this list"],
    ["after", "not-a-cursor", "is not a cursor returned by this API (expected base64 of 'id:<id>')"],
    ["after", Buffer.from("customer:1").toString("base64"), "is not a cursor returned by this API (expected base64 of 'id:<id>')"],
  ])("refuses %s=%s with 422 VALIDATION_ERROR on that parameter", async (param, value, message) => {
    const res = await sim.call("GET", `/customers?${param}=${encodeURIComponent(value)}`);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: "VALIDATION_ERROR", statusCode: 422 });
    expect(res.body.error.details).toEqual([{ in: "query", path: param, message }]);
  });

  it("refuses `after` and `before` together", async () => {
    const res = await sim.call("GET", `/customers?after=${cursor(created[1]!)}&before=${cursor(created[5]!)}`);
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([{ in: "query", path: "before", message: "cannot be combined with 'after'; send one cursor" }]);
  });
});

describe("pagination while customers are added", () => {
  it("a forward walk sees no repeats and no gaps, and the new customers at the end", async () => {
    const sim = createTestSim({ customers: 137 });
    const before = sim.shop.store.data.customers.map((c) => c.id);
    const added: string[] = [];
    const pages = await walk(sim, "/customers?limit=10", "after", undefined, (n) => {
      if (n <= 5) added.push(sim.shop.syncCustomer({ firstName: "New", lastName: `N${n}`, email: `new${n}@example.com` }).id);
    });
    expect(added).toHaveLength(5);
    expect(flat(pages)).toEqual([...before, ...added]);
    expect(pages.at(-1)).toMatchObject({ hasNext: false });
  });

  it("a backward walk is not disturbed by customers added at the end", async () => {
    const sim = createTestSim({ customers: 137 });
    const created = sim.shop.store.data.customers.map((c) => c.id);
    const back = await walk(sim, "/customers?limit=10", "before", cursor(created[136]!), (n) => {
      sim.shop.syncCustomer({ firstName: "Late", lastName: `L${n}`, email: `late${n}@example.com` });
    });
    expect(flatBack(back)).toEqual(created.slice(0, 136).reverse());
  });
});

describe("?email= pagination across a shared email", () => {
  const sim = createTestSim({ customers: 30 });
  const spellings = ["Shared.Buyer@Example.com", "shared.buyer@example.com", "SHARED.BUYER@EXAMPLE.COM", "shared.Buyer@example.COM", "sHaReD.bUyEr@eXaMpLe.CoM"];
  const shared: string[] = [];
  spellings.forEach((email, i) => {
    shared.push(sim.shop.syncCustomer({ firstName: "Sam", lastName: `Shared${i}`, email }).id);
    sim.shop.syncCustomer({ firstName: "Other", lastName: `O${i}`, email: `other${i}@example.com` });
  });

  it.each(spellings)("?email=%s finds all five, oldest first, with count 5", async (email) => {
    const res = await sim.call("GET", `/customers?email=${encodeURIComponent(email)}&hasCount=true`);
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual(shared);
    expect(res.body.meta.pagination).toMatchObject({ hasNext: false, hasPrevious: false, count: 5 });
  });

  it("pages of 2 forward and back visit each of the five once", async () => {
    const path = `/customers?email=${encodeURIComponent("shared.buyer@example.com")}&limit=2`;
    const forward = await walk(sim, path, "after");
    expect(forward).toEqual([
      { ids: shared.slice(0, 2), hasNext: true, hasPrevious: false },
      { ids: shared.slice(2, 4), hasNext: true, hasPrevious: true },
      { ids: shared.slice(4), hasNext: false, hasPrevious: true },
    ]);
    const back = await walk(sim, path, "before", cursor(shared[4]!));
    expect(back).toEqual([
      { ids: shared.slice(2, 4), hasNext: true, hasPrevious: true },
      { ids: shared.slice(0, 2), hasNext: true, hasPrevious: false },
    ]);
  });

  it("an email nobody has is an empty page", async () => {
    const res = await sim.call("GET", "/customers?email=nobody%40example.com&hasCount=true");
    expect(res.body.data).toEqual([]);
    expect(res.body.meta.pagination).toEqual({ hasNext: false, hasPrevious: false, nextCursor: null, previousCursor: null, count: 0 });
  });
});

describe("GET /customers/{id}/activities pagination (newest first)", () => {
  function simWithHistory() {
    const sim = createTestSim({ customers: 20 });
    const id = sim.activeCustomer();
    for (let i = 1; i <= 45; i++) sim.shop.awardStamps(id, { stamps: i, comment: `award ${i}` });
    const newestFirst = () => sim.shop.store.activitiesOf(id).map((a) => String(a.id)).reverse();
    return { sim, id, newestFirst };
  }

  it("walks newest first both ways over every activity once", async () => {
    const { sim, id, newestFirst } = simWithHistory();
    const all = newestFirst();
    expect(all.length).toBeGreaterThanOrEqual(45);
    const path = `/customers/${id}/activities?limit=10`;
    const forward = await walk(sim, path, "after");
    expect(flat(forward)).toEqual(all);
    expect(forward).toHaveLength(Math.ceil(all.length / 10));
    expect(forward[0]).toMatchObject({ hasPrevious: false, hasNext: true });
    expect(forward.at(-1)).toMatchObject({ hasNext: false, hasPrevious: true });
    const first = await sim.call("GET", `/customers/${id}/activities?limit=3`);
    expect(first.body.data.map((a: { label: string; stampChange: number }) => [a.label, a.stampChange])).toEqual([
      ["award 45", 45],
      ["award 44", 44],
      ["award 43", 43],
    ]);

    const back = await walk(sim, path, "before", cursor(all[all.length - 1]!));
    expect(flatBack(back)).toEqual(all.slice(0, -1).reverse());
    expect(back.at(-1)).toMatchObject({ hasPrevious: false, hasNext: true });
  });

  it("awarding during a walk adds only at the front: the older ones come once each", async () => {
    const { sim, id, newestFirst } = simWithHistory();
    const original = newestFirst();
    const pages = await walk(sim, `/customers/${id}/activities?limit=10`, "after", undefined, () => {
      sim.shop.awardStamps(id, { stamps: 1, comment: "mid-walk" });
    });
    expect(flat(pages)).toEqual(original);
    const added = newestFirst().slice(0, pages.length);
    expect(newestFirst()).toEqual([...added, ...original]);
    const front = await sim.call("GET", `/customers/${id}/activities?limit=1000&before=${cursor(original[0]!)}&hasCount=true`);
    expect(front.body.data.map((a: { id: string }) => a.id)).toEqual(added);
    expect(front.body.data.every((a: { label: string }) => a.label === "mid-walk")).toBe(true);
    expect(front.body.meta.pagination).toMatchObject({ hasPrevious: false, hasNext: true, count: original.length + pages.length });
  });

  it.each([
    ["after", "another customer's activity"],
    ["before", "another customer's activity"],
    ["after", "a customer cursor"],
  ])("refuses %s=<%s> with 422 VALIDATION_ERROR on that parameter", async (param, kind) => {
    const { sim, id } = simWithHistory();
    const other = sim.shop.store.data.customers.find((c) => c.id !== id && sim.shop.store.activitiesOf(c.id).length > 0)!;
    const value = kind === "a customer cursor" ? cursor(other.id) : cursor(String(sim.shop.store.activitiesOf(other.id)[0]!.id));
    const res = await sim.call("GET", `/customers/${id}/activities?${param}=${encodeURIComponent(value)}`);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: "VALIDATION_ERROR", statusCode: 422 });
    expect(res.body.error.details).toEqual([{ in: "query", path: param, message: "points at no record of this list" }]);
  });

  it("an activity cursor is refused by the customer list", async () => {
    const { sim, id } = simWithHistory();
    const act = String(sim.shop.store.activitiesOf(id)[0]!.id);
    const res = await sim.call("GET", `/customers?after=${cursor(act)}`);
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([{ in: "query", path: "after", message: "points at no record of this list" }]);
  });
});
