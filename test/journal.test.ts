/**
 * The journal keeps its entries packed outside the JavaScript heap (see src/journal.ts): what goes
 * in must come out as written, in ring order, with its id, through overwrites and per-shop clears;
 * its filters, count and lookup by id; headers packed with credentials redacted.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Journal } from "../src/http/journal/journal.js";
import { DECIDERS } from "../src/http/env.js";
import type { JournalRecord } from "../src/http/journal/record.js";
import { packFetchHeaders, packHeaderList, packHeaderRecord, unpackHeaders } from "../src/http/journal/headers.js";
import { pathGlob } from "../src/scenarios/glob.js";
import { record } from "./support/journal-record.js";

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
        responseHeaders: null,
        responseText: "",
        responseType: null,
        committed: { status: 200, text: '{"success":true,"data":{"stampBalance":9}}', type: "application/json" },
        decidedBy: "scenario",
        scenario: { scenario: "flaky", rule: 2, ruleName: "every third" },
      }),
    );
    journal.add(record({ shopId: null, operation: null, customerId: null, requestType: "text/plain", requestText: "ÿ latin1 header value" }));
    expect(journal.list()).toEqual([
      {
        id: 2,
        requestId: "req_000001",
        at: "2026-11-23T12:00:00+00:00",
        shopId: null,
        method: "GET",
        path: "/rest_api/v1/customers/6677889900",
        api: "rest",
        graphql: null,
        operation: null,
        customerId: null,
        query: {},
        requestHeaders: { "x-api-key": "sim_key" },
        requestBody: "ÿ latin1 header value",
        status: 200,
        fault: null,
        responseHeaders: { "x-request-id": "req_000001", "content-type": "application/json" },
        responseBody: { success: true },
        committed: null,
        durationMs: 0.37,
        decidedBy: "handler",
        scenario: null,
      },
      {
        id: 1,
        requestId: null,
        at: "2026-11-23T12:00:00+00:00",
        shopId: "1",
        method: "POST",
        path: "/rest_api/v1/customers/6677889900",
        api: "rest",
        graphql: null,
        operation: "getCustomer",
        customerId: "6677889900",
        query: { dry: "1", note: "café" },
        requestHeaders: { "x-api-key": "sim_key" },
        requestBody: { comment: "Grüße, 日本 🎉" },
        status: null,
        fault: "connection_reset",
        responseHeaders: null,
        responseBody: null,
        committed: { status: 200, body: { success: true, data: { stampBalance: 9 } } },
        durationMs: 0.37,
        decidedBy: "scenario",
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

  it("keeps a note instead of a committed body over 16 KiB, and instead of headers over 16 KiB in all", () => {
    const journal = new Journal(2);
    const big = JSON.stringify({ big: "y".repeat(20_000) });
    journal.add(record({ committed: { status: 200, text: big, type: "application/json" }, requestHeaders: `X-Big\n${"z".repeat(17_000)}\n`, responseHeaders: `X-Big\n${"z".repeat(17_000)}\n` }));
    expect(journal.list()[0]).toMatchObject({
      committed: { status: 200, body: "(20010 characters, not kept)" },
      requestHeaders: { "(headers)": "(17007 characters, not kept)" },
      responseHeaders: { "(headers)": "(17007 characters, not kept)" },
    });
  });

  it("gives back every decidedBy as recorded", () => {
    const journal = new Journal(DECIDERS.length);
    for (const decidedBy of DECIDERS) journal.add(record({ decidedBy }));
    expect(journal.list().map((e) => e.decidedBy)).toEqual([...DECIDERS].reverse());
  });

  describe("filters, count and one entry by id", () => {
    const journal = new Journal(10);
    const at = (path: string, overrides: Partial<JournalRecord> = {}) => record({ path, url: `http://h${path}`, ...overrides });
    journal.add(at("/rest_api/v1/customers/1/stamps/award", { method: "POST", operation: "awardStamps", customerId: "1", requestText: '{"stamps":2,"comment":"Morning Coffee"}', requestType: "application/json" }));
    journal.add(at("/rest_api/v1/customers/2", { customerId: "2", status: 404, responseHeaders: "X-Request-Id\nreq_00000b\n" }));
    journal.add(at("/rest_api/v1/shop", { shopId: "2", operation: "getShop", customerId: null }));
    journal.add(at("/rest_api/v1/customers/1/stamps/award", { method: "POST", operation: "awardStamps", customerId: "1", status: null, fault: "timeout", responseHeaders: null, responseText: "" }));
    journal.add(at("/rest_api/v1/tiers", { shopId: null, operation: "listTiers", customerId: null, status: 401, requestHeaders: "X-Api-Key\nwrong\nIdempotency-Key\nK-77\n" }));
    const ids = (filter: Parameters<Journal["list"]>[0]) => journal.list(filter).map((e) => e.id);

    it.each<[string, Parameters<Journal["list"]>[0], number[]]>([
      ["every entry", {}, [5, 4, 3, 2, 1]],
      ["a shop's", { shopId: "1" }, [4, 2, 1]],
      ["a shop's and unidentified ones", { shopId: "1", includeUnidentified: true }, [5, 4, 2, 1]],
      ["operation", { operation: "awardStamps" }, [4, 1]],
      ["operation and customer", { operation: "awardStamps", customerId: "1" }, [4, 1]],
      ["customer", { customerId: "2" }, [2]],
      ["status (a fault has none)", { status: 200 }, [3, 1]],
      ["method", { method: "POST" }, [4, 1]],
      ["path glob", { path: pathGlob("/customers/*") }, [2]],
      ["after an id", { after: 2 }, [5, 4, 3]],
      ["after the newest", { after: 5 }, []],
      ["after and a filter", { after: 1, operation: "awardStamps" }, [4]],
      ["text in a body, any case", { q: "morning coffee" }, [1]],
      ["text in the path", { q: "/SHOP" }, [3]],
      ["a request id in the response headers", { q: "req_00000b" }, [2]],
      ["text in the request headers", { q: "k-77" }, [5]],
      ["a header's name", { q: "idempotency-key" }, [5]],
      ["no match", { q: "nothing like it" }, []],
      ["limit: the newest", { limit: 2, shopId: "1" }, [4, 2]],
    ])("%s", (_, filter, expected) => {
      expect(ids(filter)).toEqual(expected);
      const { limit: _limit, ...unlimited } = filter ?? {};
      expect(journal.count(unlimited)).toBe(ids(unlimited).length);
    });

    it("one entry by id, seen only by its shop (the default shop also sees unidentified ones)", () => {
      expect(journal.get(3)).toEqual(journal.list({ shopId: "2" })[0]);
      expect(journal.get(3, { shopId: "2" })?.path).toBe("/rest_api/v1/shop");
      expect(journal.get(3, { shopId: "1" })).toBeUndefined();
      expect(journal.get(5, { shopId: "1" })).toBeUndefined();
      expect(journal.get(5, { shopId: "1", includeUnidentified: true })?.requestHeaders).toEqual({ "x-api-key": "wrong", "idempotency-key": "K-77" });
      expect([journal.get(0), journal.get(6), journal.get(99)]).toEqual([undefined, undefined, undefined]);
    });

    it("an entry pushed out of the ring or cleared is gone", () => {
      const small = new Journal(2);
      for (let i = 0; i < 3; i++) small.add(record({ shopId: i === 2 ? "2" : "1" }));
      expect([small.get(1), small.get(2)?.id, small.get(3)?.id]).toEqual([undefined, 2, 3]);
      small.clear("1");
      expect([small.get(2), small.get(3)?.id, small.count()]).toEqual([undefined, 3, 1]);
    });
  });

  describe("headers", () => {
    it("a request's are packed as received, credentials redacted in any case; read back in lower case, repeats joined", () => {
      const raw = ["Host", "h", "X-API-SECRET", "s3cret", "authorization", "Bearer t", "Proxy-Authorization", "Basic x", "Cookie", "sid=1", "Accept", "a", "accept", "b", "X-Api-Key", "sim_key"];
      const packed = packHeaderList(raw);
      expect(packed).not.toMatch(/s3cret|Bearer|Basic|sid=1/);
      expect(unpackHeaders(packed)).toStrictEqual({
        host: "h",
        "x-api-secret": "***",
        authorization: "***",
        "proxy-authorization": "***",
        cookie: "***",
        accept: "a, b",
        "x-api-key": "sim_key",
      });
    });

    it("through fetch Headers (in-process) and a response's own headers", () => {
      const fetched = new Headers([["X-Api-Secret", "s3cret"], ["Idempotency-Key", "k1"], ["Accept", "a"], ["Accept", "b"]]);
      expect(unpackHeaders(packFetchHeaders(fetched))).toStrictEqual({ accept: "a, b", "idempotency-key": "k1", "x-api-secret": "***" });
      expect(unpackHeaders(packHeaderRecord({ "X-RateLimit-Remaining": "0", "Retry-After": "60" }))).toStrictEqual({ "x-ratelimit-remaining": "0", "retry-after": "60" });
      expect(unpackHeaders("")).toStrictEqual({});
    });

    it("a header named __proto__ is an own field, not the prototype", () => {
      const headers = unpackHeaders(packHeaderList(["__proto__", "x", "constructor", "y"]));
      expect(Object.keys(headers)).toEqual(["__proto__", "constructor"]);
      expect([Object.getPrototypeOf(headers), JSON.stringify(headers)]).toEqual([Object.prototype, '{"__proto__":"x","constructor":"y"}']);
    });
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
      fc.property(
        fc.array(
          fc.record({
            shopId: nullable,
            operation: nullable,
            requestText: text,
            responseType: nullable,
            fault: nullable,
            committed: fc.option(fc.record({ status: fc.integer({ min: 200, max: 599 }), text, type: fc.constant("text/plain") }), { nil: null }),
            decidedBy: fc.constantFrom(...DECIDERS),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        fc.integer({ min: 1, max: 5 }),
        (entries, capacity) => {
          const journal = new Journal(capacity);
          // The raw records, as the journal keeps them (bodies stay text): read back through `clear`,
          // which rewrites every kept entry, and through `list`.
          for (const e of entries) journal.add(record({ ...e, requestType: "text/plain" }));
          const expected = entries.slice(-capacity).reverse();
          const seen = journal.list();
          const committed = (c: { status: number; text: string } | null) => c && { status: c.status, body: c.text === "" ? null : c.text };
          expect(seen.map((e) => ({ shopId: e.shopId, operation: e.operation, requestText: e.requestBody ?? "", fault: e.fault, committed: e.committed, decidedBy: e.decidedBy }))).toEqual(
            expected.map((e) => ({ shopId: e.shopId, operation: e.operation, requestText: e.requestText, fault: e.fault, committed: committed(e.committed), decidedBy: e.decidedBy })),
          );
          journal.clear("no such shop");
          expect(journal.list()).toEqual(seen);
        },
      ),
    );
  });
});
