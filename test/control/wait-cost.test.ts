/**
 * What requests held by `GET /__sim/requests?wait=` cost the server: a new entry their filter
 * selects adds one to each waiter's own count, and nothing counts the journal again. Work is
 * counted (journal counts, entries decoded, characters lower-cased), not timed: the machine that
 * runs the tests is busy.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { parseConfig } from "../../src/config.js";
import { Journal } from "../../src/http/journal/journal.js";
import { Slots } from "../../src/http/journal/slots.js";
import { inProcessFetch } from "../../src/simulator/in-process.js";
import { buildSimulator } from "../../src/simulator/simulator.js";
import { HANG_MS } from "../support/patience.js";

const AUTH = { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret" };
/** An award whose body (about 15 KB) holds "needle" once, near its end: refused (a comment is at
 * most 1000 characters), and journaled as any request. */
const bigAward = JSON.stringify({ stamps: 1, comment: `${"x".repeat(15_000)}-needle` });

/** A simulator holding `n` requests that wait on `query`, and how to let them go. */
async function withWaiters(n: number, query: string) {
  const built = buildSimulator(parseConfig({ logLevel: "silent", customers: 3, seed: 1 }));
  const fetch = inProcessFetch(built.app);
  const customerId = built.shop.store.data.customers[0]!.id;
  const award = () => fetch(`/rest_api/v1/customers/${customerId}/stamps/award`, { method: "POST", headers: { ...AUTH, "Content-Type": "application/json" }, body: bigAward });
  const getShop = () => fetch("/rest_api/v1/shop", { headers: AUTH });
  // Entries the old re-count decoded, for each waiter, on every new entry.
  for (let i = 0; i < 5; i++) {
    expect((await getShop()).status).toBe(200);
    expect((await award()).status).toBe(422);
  }
  // One signal each: a thousand listeners on one signal is what Node warns of as a leak.
  const aborters = Array.from({ length: n }, () => new AbortController());
  const held = aborters.map((aborter) => fetch(`/__sim/requests?${query}`, { signal: aborter.signal }).catch((e: unknown) => e));
  await expect.poll(() => built.journal.waiting, { timeout: HANG_MS, interval: 10 }).toBe(n);
  const release = async () => {
    for (const aborter of aborters) aborter.abort();
    expect((await Promise.all(held)).every((e) => e instanceof DOMException)).toBe(true);
    await expect.poll(() => built.journal.waiting, { timeout: HANG_MS, interval: 10 }).toBe(0);
  };
  return { built, award, getShop, release };
}

/** Work done while `run` runs: journal counts, entries decoded, characters lower-cased. */
async function workOf(run: () => Promise<unknown>) {
  const counts = vi.spyOn(Journal.prototype, "count");
  const reads = vi.spyOn(Slots.prototype, "read");
  const lower = vi.spyOn(String.prototype, "toLowerCase");
  try {
    await run();
    const lowered = lower.mock.contexts.reduce((sum: number, text) => sum + String(text).length, 0);
    return { counts: counts.mock.calls.length, reads: reads.mock.calls.length, lowered };
  } finally {
    vi.restoreAllMocks();
  }
}

afterEach(() => vi.restoreAllMocks());

describe("requests waiting on the journal", () => {
  it("400 waiters whose filter each new GET /shop passes: no count of the journal, no entry decoded", async () => {
    const sim = await withWaiters(400, "operation=getShop&wait=30000&count=1000");
    const work = await workOf(async () => expect((await sim.getShop()).status).toBe(200));
    await sim.release();
    expect(work).toMatchObject({ counts: 0, reads: 0 });
  });

  it("1000 waiters with q over 15 KB entries: the new entry's texts lower-cased at most once", async () => {
    const none = await withWaiters(0, "q=needle&wait=30000&count=1000");
    const alone = await workOf(async () => expect((await none.award()).status).toBe(422));
    const sim = await withWaiters(1000, "q=needle&wait=30000&count=1000");
    const work = await workOf(async () => expect((await sim.award()).status).toBe(422));
    const newest = sim.built.journal.record(sim.built.journal.newestId(sim.built.shop.id))!;
    await sim.release();
    const texts = [newest.url, newest.requestHeaders, newest.requestText, newest.responseHeaders, newest.responseText].join("").length;
    expect(newest.requestText).toBe(bigAward);
    // What the request costs with no waiter, and one lower-casing of the new entry's texts at most.
    expect(work.lowered - alone.lowered).toBeGreaterThanOrEqual(0);
    expect(work.lowered - alone.lowered).toBeLessThanOrEqual(texts);
    expect({ counts: work.counts, reads: work.reads }).toEqual({ counts: 0, reads: 0 });
  });
});
