/**
 * The journal keeps its entries packed outside the JavaScript heap (see src/journal.ts): what goes
 * in must come out as written, in ring order, with its id, through overwrites and per-shop clears.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Journal, type JournalRecord } from "../src/journal.js";

function record(overrides: Partial<JournalRecord> = {}): JournalRecord {
  return {
    id: 0,
    at: Date.UTC(2026, 10, 23, 12, 0, 0, 250),
    shopId: "1",
    method: "GET",
    path: "/rest_api/v1/customers/6677889900",
    url: "http://127.0.0.1:4747/rest_api/v1/customers/6677889900",
    operation: "getCustomer",
    customerId: "6677889900",
    requestText: "",
    requestType: null,
    status: 200,
    fault: null,
    responseText: '{"success":true}',
    responseType: "application/json",
    durationMs: 0.37,
    scenario: null,
    ...overrides,
  };
}

/** What `list` shows of every entry, newest first. */
const ids = (journal: Journal, shopId?: string) => journal.list(shopId === undefined ? {} : { shopId }).map((e) => e.id);

describe("the journal", () => {
  it("gives back each field as recorded: unicode, empty and null texts, scenarios, the query", () => {
    const journal = new Journal(10);
    journal.add(
      record({
        method: "POST",
        url: "http://h/rest_api/v1/customers/42/stamps/award?dry=1&note=caf%C3%A9",
        requestText: '{"comment":"Grüße, 日本 🎉"}',
        requestType: "application/json; charset=utf-8",
        status: null,
        fault: "connection_reset",
        responseText: "",
        responseType: null,
        scenario: { scenario: "flaky", rule: 2, ruleName: "every third" },
      }),
    );
    journal.add(record({ shopId: null, operation: null, customerId: null, requestType: "text/plain", requestText: "ÿ latin1 header value" }));
    expect(journal.list()).toEqual([
      {
        id: 2,
        at: "2026-11-23T12:00:00+00:00",
        shopId: null,
        method: "GET",
        path: "/rest_api/v1/customers/6677889900",
        operation: null,
        customerId: null,
        query: {},
        requestBody: "ÿ latin1 header value",
        status: 200,
        fault: null,
        responseBody: { success: true },
        durationMs: 0.37,
        scenario: null,
      },
      {
        id: 1,
        at: "2026-11-23T12:00:00+00:00",
        shopId: "1",
        method: "POST",
        path: "/rest_api/v1/customers/6677889900",
        operation: "getCustomer",
        customerId: "6677889900",
        query: { dry: "1", note: "café" },
        requestBody: { comment: "Grüße, 日本 🎉" },
        status: null,
        fault: "connection_reset",
        responseBody: null,
        durationMs: 0.37,
        scenario: { scenario: "flaky", rule: 2, ruleName: "every third" },
      },
    ]);
  });

  it("keeps the newest `capacity` entries once the ring wraps, and counts them", () => {
    const journal = new Journal(3);
    for (let i = 0; i < 7; i++) journal.add(record({ responseText: `{"n":${i}}` }));
    expect(journal.size).toBe(3);
    expect(ids(journal)).toEqual([7, 6, 5]);
    expect(journal.list().map((e) => e.responseBody)).toEqual([{ n: 6 }, { n: 5 }, { n: 4 }]);
    expect(journal.list({ limit: 2 }).map((e) => e.id)).toEqual([7, 6]);
  });

  it("a slot reused by a longer entry, then a shorter one, holds only the last", () => {
    const journal = new Journal(1);
    journal.add(record({ responseText: JSON.stringify({ long: "x".repeat(5000) }) }));
    journal.add(record({ responseText: '{"short":true}' }));
    expect(journal.list().map((e) => e.responseBody)).toEqual([{ short: true }]);
  });

  it("keeps a note instead of a body over 16 KiB", () => {
    const journal = new Journal(2);
    journal.add(record({ responseText: JSON.stringify({ big: "y".repeat(20_000) }) }));
    expect(journal.list()[0]!.responseBody).toBe("(20010 characters, not kept)");
  });

  it("clearing one shop keeps the others' entries, their ids and their order; then the ring goes on", () => {
    const journal = new Journal(4);
    for (const shopId of ["1", "2", "1", "2", null]) journal.add(record({ shopId }));
    expect(ids(journal)).toEqual([5, 4, 3, 2]);
    journal.clear("1", true);
    expect(ids(journal)).toEqual([4, 2]);
    expect(journal.size).toBe(2);
    for (let i = 0; i < 3; i++) journal.add(record({ shopId: "3" }));
    expect(ids(journal)).toEqual([8, 7, 6, 4]);
    expect(ids(journal, "2")).toEqual([4]);
    journal.clear();
    expect(journal.size).toBe(0);
    expect(journal.list()).toEqual([]);
  });

  it("a journal of size 0 keeps nothing", () => {
    const journal = new Journal(0);
    journal.add(record());
    expect(journal.size).toBe(0);
    expect(journal.list()).toEqual([]);
  });

  it("any well-formed texts come back exactly (property)", () => {
    const text = fc.string({ unit: "binary", maxLength: 300 });
    const nullable = fc.option(text, { nil: null });
    fc.assert(
      fc.property(fc.array(fc.record({ shopId: nullable, operation: nullable, requestText: text, responseType: nullable, fault: nullable }), { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 5 }), (entries, capacity) => {
        const journal = new Journal(capacity);
        // The raw records, as the journal keeps them (bodies stay text): read back through `clear`,
        // which rewrites every kept entry, and through `list`.
        for (const e of entries) journal.add(record({ ...e, requestType: "text/plain" }));
        const expected = entries.slice(-capacity).reverse();
        const seen = journal.list();
        expect(seen.map((e) => ({ shopId: e.shopId, operation: e.operation, requestText: e.requestBody ?? "", fault: e.fault }))).toEqual(
          expected.map((e) => ({ shopId: e.shopId, operation: e.operation, requestText: e.requestText, fault: e.fault })),
        );
        journal.clear("no such shop");
        expect(journal.list()).toEqual(seen);
      }),
    );
  });
});
