/**
 * The document cache the `/graphql` route keeps (spec 4.2): a text is compiled once, refusals
 * included, and the bytes it keeps are bounded.
 * @module
 */
import { describe, expect, it } from "vitest";
import { DocumentCache } from "../../src/graphql/index.js";

describe("the document cache", () => {
  it("compiles a text once: the same document (or the same errors) the next time", () => {
    const cache = new DocumentCache();
    const first = cache.compile("{ shop { currency } }");
    expect(cache.compile("{ shop { currency } }")).toBe(first);
    const bad = cache.compile("{ shop { nope } }");
    expect(bad.errors).toHaveLength(1);
    expect(cache.compile("{ shop { nope } }")).toBe(bad);
    expect(cache.size).toBe(2);
  });

  it("is bounded by the bytes it keeps, least recently used out first; a large document is not kept", () => {
    const q = (i: number) => `{ a${i}: shop { currency } }`;
    const probe = new DocumentCache();
    probe.compile(q(0));
    // Room for three such documents, and for one of at most twice the size of each.
    const cache = new DocumentCache(3 * probe.bytes, 2 * probe.bytes);
    const first = cache.compile(q(0));
    cache.compile(q(1));
    cache.compile(q(2));
    cache.compile(q(0));
    cache.compile(q(3));
    expect(cache.size).toBe(3);
    expect(cache.compile(q(0))).toBe(first);
    const large = `{ ${Array.from({ length: 10 }, (_, i) => `b${i}: shop { currency }`).join(" ")} }`;
    expect(cache.compile(large)).not.toBe(cache.compile(large));
    expect(cache.size).toBe(3);
  });
});
