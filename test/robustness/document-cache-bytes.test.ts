/**
 * Robustness probe (issue 26): many distinct large GraphQL documents, each a small query padded
 * with whitespace (a few tokens, hundreds of kilobytes of text). The document cache must stay
 * under its byte cap, and the process heap must not keep what it sent through `POST /graphql` of
 * the app. The app's cache is its own: a cache built as the route builds it follows the same texts.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { DocumentCache } from "../../src/graphql/index.js";
import { graphqlSim } from "../graphql/graphql-sim.js";

setFlagsFromString("--expose-gc");
/** A full garbage collection, as `node --expose-gc` offers it. */
const gc = runInNewContext("gc") as () => void;

const MIB = 1024 * 1024;
const DOCUMENTS = 128;
const KIB_EACH = 384;
/** A distinct document of `bytes` characters, all but a few of them whitespace. */
const padded = (i: number, bytes: number) => `{ a${i}: shop { currency } }${" ".repeat(bytes - 30)}`;

const heapUsed = () => {
  gc();
  return process.memoryUsage().heapUsed;
};

describe("document-cache bytes", () => {
  it(`${DOCUMENTS} distinct documents of ${KIB_EACH} KiB: the cache stays under its cap and the heap does not keep them`, async () => {
    const sim = graphqlSim({ customers: 0 });
    // graphql-js, the schema and the app's own route loaded, before the heap is measured.
    await sim.gql("{ shop { currency } }");
    const cache = new DocumentCache();
    const before = heapUsed();
    let largest = 0;
    for (let i = 0; i < DOCUMENTS; i++) {
      const text = padded(i, KIB_EACH * 1024);
      const res = await sim.gql(text);
      expect([res.status, res.body.data]).toEqual([200, { [`a${i}`]: { currency: expect.any(String) } }]);
      cache.compile(text);
      largest = Math.max(largest, cache.bytes);
      const app = await sim.gql(padded(DOCUMENTS + i, KIB_EACH * 1024));
      expect(app.status).toBe(200);
    }
    // 2 x 128 documents of 384 KiB were sent (96 MiB of text); two caches of 32 MiB each (the
    // app's and the one beside it), as measured (2 bytes a character), keep at most 32 MiB of text in all.
    expect((heapUsed() - before) / MIB).toBeLessThan(64);
    expect(largest).toBeLessThanOrEqual(cache.maxBytes);
    expect(cache.size).toBeLessThan(DOCUMENTS);
  });
});
