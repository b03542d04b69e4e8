/**
 * Issue 26, case 4. Was: the GraphQL document cache counted entries (1000) and tokens (50,000), not
 * bytes: a 1 MB document of whitespace is 6 tokens and was kept whole as a key, so distinct padded
 * documents took RSS from 142 MB to 1.15 GB, and it stayed; with a 512 MB heap the server died.
 * Now each entry is measured in bytes (its text, its tokens' AST and the function graphql-jit may
 * compile from it, its errors), a document over a per-document cap is run but not kept, and the
 * cache keeps at most its byte cap, least recently used out first.
 */
import { getIntrospectionQuery } from "graphql";
import { describe, expect, it } from "vitest";
import { DocumentCache } from "../../src/graphql/index.js";

const MIB = 1024 * 1024;
const customerQuery = `query Customer { customer(id: "6677889900") { id firstName lastName stampBalance nextReward { id name } } }`;
/** A distinct small document padded with `bytes` of whitespace. */
const padded = (i: number, bytes: number) => `{ a${i}: shop { currency } }${" ".repeat(bytes)}`;

describe("issue 26, case 4: the GraphQL document cache keeps up to about 1 GB", () => {
  it("distinct documents padded with whitespace: the cache's bytes stay under its cap, and a 1 MiB one is not kept", () => {
    const cache = new DocumentCache();
    expect([cache.maxBytes, cache.maxDocumentBytes]).toEqual([32 * MIB, 2 * MIB]);
    for (let i = 0; i < 64; i++) {
      cache.compile(padded(i, 512 * 1024));
      expect(cache.bytes).toBeLessThanOrEqual(32 * MIB);
    }
    // Each is about 1 MiB (a character of a key counted as 2 bytes): 31 fit under 32 MiB.
    expect(cache.size).toBe(31);
    const huge = padded(-1, MIB);
    expect(cache.compile(huge)).not.toBe(cache.compile(huge));
    expect(cache.size).toBe(31);
  });

  it("honest documents are kept: the bench's customer query and the introspection query hit, with thousands of others kept beside them", () => {
    const cache = new DocumentCache();
    const customer = cache.compile(customerQuery);
    const introspection = cache.compile(getIntrospectionQuery());
    expect([customer.errors, introspection.errors]).toEqual([undefined, undefined]);
    for (let i = 0; i < 1000; i++) cache.compile(`query Q${i} { customer(id: "${i}") { id stampBalance } }`);
    expect(cache.compile(customerQuery)).toBe(customer);
    expect(cache.compile(getIntrospectionQuery())).toBe(introspection);
    expect(cache.size).toBe(1002);
  });

  it("is bounded by the bytes it keeps, least recently used out first; refusals count too", () => {
    const small = (i: number) => `{ a${i}: shop { currency } }`;
    /** What one entry of `text` holds, measured by a cache of its own. */
    const bytesOf = (text: string) => {
      const alone = new DocumentCache();
      alone.compile(text);
      return alone.bytes;
    };
    const one = bytesOf(small(0));
    const cache = new DocumentCache(3 * one, one);
    const first = cache.compile(small(0));
    cache.compile(small(1));
    cache.compile(small(2));
    expect(cache.bytes).toBe(3 * one);
    cache.compile(small(0));
    cache.compile(small(3));
    expect([cache.size, cache.bytes]).toEqual([3, 3 * one]);
    expect(cache.compile(small(0))).toBe(first);
    // small(1) went first: compiled again.
    const again = cache.compile(small(1));
    expect(cache.compile(small(1))).toBe(again);
    // A document over the per-document cap runs, but is not kept.
    const larger = `{ a0: shop { currency } b: shop { currency } }`;
    expect(cache.compile(larger)).not.toBe(cache.compile(larger));
    expect(cache.size).toBe(3);
    // A refused document is kept with its errors, which count.
    const refusal = new DocumentCache();
    const refused = refusal.compile("{ a: shop { nope } }");
    expect(refused.errors).toHaveLength(1);
    expect(refusal.compile("{ a: shop { nope } }")).toBe(refused);
    // 20 characters of 2 bytes, 8 tokens of 512, one error of 2048 (no compiled function to come).
    expect(refusal.bytes).toBe(40 + 8 * 512 + 2048);
  });
});
