/**
 * A waiter keeps its own count of the entries its filter selects (src/http/journal/waiters.ts):
 * one more for each new entry it passes, one less for each it counted that the ring overwrites or
 * a clear removes. It must end exactly when counting the journal again would say it is met.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JournalFilter } from "../../../src/http/journal/filter.js";
import { Journal } from "../../../src/http/journal/journal.js";
import { record } from "../../support/journal-record.js";

/** The promise's value if it has settled, else "waiting" (a settled promise wins the race). */
const state = (p: Promise<boolean>) => Promise.race([p, Promise.resolve("waiting" as const)]);
const op = (operation: string, shopId: string | null = "1") => record({ operation, shopId });

describe("a waiter's own count", () => {
  it("loses the entries the ring overwrites", async () => {
    const journal = new Journal(3);
    for (const name of ["a", "b", "b"]) journal.add(op(name));
    const waiting = journal.until({ operation: "a" }, 3, 60_000);
    journal.add(op("a")); // overwrites the first a: still 1
    expect(await state(waiting)).toBe("waiting");
    journal.add(op("a")); // 2
    expect(await state(waiting)).toBe("waiting");
    journal.add(op("a")); // the ring holds a, a, a
    expect(await state(waiting)).toBe(true);
    expect(journal.waiting).toBe(0);
  });

  it("loses what a clear of its shop removes, and keeps what a clear of another shop leaves", async () => {
    const journal = new Journal(10);
    journal.add(op("a", "1"));
    journal.add(op("a", "2"));
    const own = journal.until({ shopId: "1", includeUnidentified: true, operation: "a" }, 2, 60_000);
    const every = journal.until({ operation: "a" }, 4, 60_000);
    journal.clear("2");
    journal.add(op("a", "2")); // every: shop 1's and this one
    expect([await state(own), await state(every)]).toEqual(["waiting", "waiting"]);
    journal.clear("1", true);
    journal.add(op("a", "1")); // own: 1 again; every: 2
    expect([await state(own), await state(every)]).toEqual(["waiting", "waiting"]);
    journal.add(op("a", null)); // unidentified: both see it
    expect(await state(own)).toBe(true);
    journal.add(op("a", "3"));
    expect(await state(every)).toBe(true);
  });

  it("starts from none after a full clear", async () => {
    const journal = new Journal(10);
    journal.add(op("a"));
    const waiting = journal.until({ operation: "a" }, 2, 60_000);
    journal.clear();
    journal.add(op("a"));
    expect(await state(waiting)).toBe("waiting");
    journal.add(op("a"));
    expect(await state(waiting)).toBe(true);
  });

  it("finds q in any case, each waiter its own q", async () => {
    const journal = new Journal(10);
    const needle = journal.until({ q: "needle" }, 1, 60_000);
    const other = journal.until({ q: "other" }, 1, 60_000);
    journal.add(record({ responseText: '{"found":"NeEdLe"}' }));
    expect([await state(needle), await state(other)]).toEqual([true, "waiting"]);
    expect(journal.waiting).toBe(1);
  });

  it("counts nothing up to `after`, and forgets itself when it times out or is aborted", async () => {
    const journal = new Journal(10);
    journal.add(op("a"));
    const aborter = new AbortController();
    const aborted = journal.until({ operation: "a", after: 1 }, 1, 60_000, aborter.signal);
    const timed = journal.until({ operation: "a", after: 1 }, 5, 1);
    expect(journal.waiting).toBe(2);
    aborter.abort();
    expect(await aborted).toBe(false);
    expect(await timed).toBe(false);
    expect(journal.waiting).toBe(0);
    journal.add(op("a"));
    expect(journal.count({ operation: "a", after: 1 })).toBe(1);
  });
});

/** One step: an entry (shop, operation, text) added, or a clear (of one shop, or all). */
const step = fc.oneof(
  fc.record({ add: fc.tuple(fc.constantFrom("1", "2", null), fc.constantFrom("a", "b"), fc.constantFrom("", "Needle", "hay")) }),
  fc.record({ clear: fc.constantFrom("1", "2", undefined) }),
);
const filter: fc.Arbitrary<JournalFilter> = fc.record(
  { shopId: fc.constantFrom("1", "2"), includeUnidentified: fc.boolean(), operation: fc.constantFrom("a", "b"), q: fc.constantFrom("needle", "HAY"), after: fc.integer({ min: 0, max: 6 }) },
  { requiredKeys: [] },
);

describe("a waiter, against counting the journal again", () => {
  it("ends at the first new entry after which the journal holds `count` entries its filter selects", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 6 }), fc.array(step, { maxLength: 12 }), fc.array(step, { maxLength: 30 }), fc.array(fc.tuple(filter, fc.integer({ min: 1, max: 4 })), { minLength: 1, maxLength: 6 }), async (capacity, before, after, waits) => {
        const journal = new Journal(capacity);
        const aborter = new AbortController();
        const run = (s: (typeof before)[number]) => {
          if ("add" in s) journal.add(record({ shopId: s.add[0], operation: s.add[1], responseText: s.add[2] }));
          else journal.clear(s.clear, s.clear === "1");
        };
        before.forEach(run);
        const waiters = waits.filter(([, count]) => count <= capacity).map(([f, count]) => ({ f, count, met: journal.count(f) >= count, promise: journal.until(f, count, 60_000, aborter.signal) }));
        for (const s of after) {
          run(s);
          for (const w of waiters) {
            if ("add" in s && journal.count(w.f) >= w.count) w.met = true;
            expect(await state(w.promise)).toBe(w.met ? true : "waiting");
          }
        }
        expect(journal.waiting).toBe(waiters.filter((w) => !w.met).length);
        aborter.abort();
      }),
      { numRuns: 300 },
    );
  });
});
