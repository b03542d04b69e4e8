/**
 * Waiting for effects: `GET /__sim/requests?wait=` holds the answer until the filters select the
 * entries asked for, and `control.waitFor` turns it into an assertion. An effect that comes late,
 * one that never comes, and a burst; the bound on the wait; a client that gives up frees its waiter.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config.js";
import { listen } from "../../src/simulator/server.js";
import { createSimulator, SimulatorError } from "../../src/index.js";
import { HANG_MS } from "../support/patience.js";

const AUTH = { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret" };

describe("control.waitFor", () => {
  const sim = createSimulator({ customers: 3, seed: 1 });
  let customerId: string;
  const award = (stamps = 1) =>
    sim.fetch(`${sim.baseUrl}/customers/${customerId}/stamps/award`, { method: "POST", headers: { ...AUTH, "Content-Type": "application/json" }, body: JSON.stringify({ stamps }) });

  beforeAll(async () => {
    customerId = (await sim.control.findCustomers({ limit: 1 })).customers[0]!.id;
  });

  it("answers an effect that arrives after the wait began", async () => {
    const after = (await sim.control.requests({ limit: 1 }))[0]?.id ?? 0;
    const waiting = sim.control.waitFor({ operation: "awardStamps", customerId, after }, { timeoutMs: 5000 });
    // The award is sent once the wait is held, as a job queue would send it.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect((await award(2)).status).toBe(200);
    const entries = await waiting;
    expect(entries.map((e) => [e.operation, e.customerId, e.status, (e.requestBody as { stamps: number }).stamps])).toEqual([["awardStamps", customerId, 200, 2]]);
  });

  it("throws after the timeout, naming how many matched and what the journal held", async () => {
    const newest = (await sim.control.requests({ limit: 1 }))[0]!;
    const started = Date.now();
    const error = await sim.control.waitFor({ operation: "voidRewardCode", after: newest.id }, { timeoutMs: 150 }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(error).toBeInstanceOf(SimulatorError);
    expect((error as SimulatorError).code).toBe("WAIT_TIMED_OUT");
    expect((error as SimulatorError).message).toBe(
      `waitFor({"operation":"voidRewardCode","after":${newest.id}}): 0 of 1 entries after 150 ms; the shop's newest entries: ` +
        `#${newest.id} POST /rest_api/v1/customers/${customerId}/stamps/award -> 200 (awardStamps, customer ${customerId})`,
    );
  });

  it("names the matching entries when fewer than count came", async () => {
    const after = (await sim.control.requests({ limit: 1 }))[0]!.id;
    await award();
    const error = (await sim.control.waitFor({ operation: "awardStamps", after }, { count: 2, timeoutMs: 50 }).catch((e: unknown) => e)) as SimulatorError;
    expect(error.message).toBe(
      `waitFor({"operation":"awardStamps","after":${after}}): 1 of 2 entries after 50 ms; the newest matching: ` +
        `#${after + 1} POST /rest_api/v1/customers/${customerId}/stamps/award -> 200 (awardStamps, customer ${customerId})`,
    );
  });

  it("answers once a burst of concurrent writes reaches count", async () => {
    const after = (await sim.control.requests({ limit: 1 }))[0]!.id;
    const waiting = sim.control.waitFor({ operation: "awardStamps", customerId, after }, { count: 5, timeoutMs: 5000 });
    const statuses = await Promise.all(Array.from({ length: 5 }, () => award().then((r) => r.status)));
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const entries = await waiting;
    expect(entries.map((e) => e.id)).toEqual([after + 5, after + 4, after + 3, after + 2, after + 1]);
  });

  it("keeps waiting through a journal cleared meanwhile, and counts only what came after", async () => {
    const after = (await sim.control.requests({ limit: 1 }))[0]!.id;
    await award();
    const waiting = sim.control.waitFor({ operation: "awardStamps", customerId, after: after + 1 }, { count: 2, timeoutMs: 5000 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await sim.control.clearRequests();
    await award();
    await award();
    expect((await waiting).map((e) => e.id)).toEqual([after + 3, after + 2]);
    // The entries before the clear are gone: this test's own count starts again.
    expect(await sim.control.count({ operation: "awardStamps" })).toBe(2);
  });

  it("answers at once what is already there", async () => {
    const entries = await sim.control.waitFor({ operation: "awardStamps", customerId }, { count: 2, timeoutMs: 0 });
    expect(entries.length).toBe(2);
  });
});

describe("GET /__sim/requests?wait=", () => {
  const sim = createSimulator({ customers: 3, seed: 1 });
  const get = async (query: string) => {
    const res = await sim.fetch(`/__sim/requests?${query}`);
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  it.each([
    ["wait=30001", "query wait: must be at most 30000 (ms), the longest one request waits: ask again to wait longer"],
    ["wait=abc", "query wait: must be a whole number (digits only)"],
    ["wait=-1", "query wait: must be a whole number (digits only)"],
    ["wait=10&count=0", "query count: Too small: expected number to be >=1"],
  ])("%s is 422 naming the bound", async (query, detail) => {
    const { status, body } = await get(query);
    expect([status, body.error.code]).toEqual([422, "VALIDATION_ERROR"]);
    expect(body.error.details.map((d: { in: string; path: string; message: string }) => `${d.in} ${d.path}: ${d.message}`)).toEqual([detail]);
  });

  it("a wait the journal could never meet (it keeps fewer entries) is 422, not a timeout", async () => {
    const small = createSimulator({ customers: 1, seed: 1, journalSize: 2 });
    const none = createSimulator({ customers: 1, seed: 1, journalSize: 0 });
    const detail = async (s: typeof sim, query: string) => {
      const res = await s.fetch(`/__sim/requests?${query}`);
      const body = (await res.json()) as { error: { code: string; details: { in: string; path: string; message: string }[] } };
      return [res.status, body.error.code, ...body.error.details.map((d) => `${d.in} ${d.path}: ${d.message}`)];
    };
    expect(await detail(small, "wait=1000&count=3")).toEqual([422, "VALIDATION_ERROR", "query count: the journal keeps at most 2 entries (--journal-size 2): waiting for 3 could never end; start the simulator with a larger --journal-size"]);
    expect(await detail(none, "wait=1000")).toEqual([422, "VALIDATION_ERROR", "query wait: the journal keeps at most 0 entries (--journal-size 0): waiting for 1 could never end; start the simulator with a larger --journal-size"]);
    expect((await small.fetch("/__sim/requests?wait=0&count=3")).status).toBe(200);
  });

  it("wait=0 waits none and says the count was not met", async () => {
    expect(await get("wait=0")).toEqual({ status: 200, body: { requests: [], count: 0, timedOut: true } });
  });

  it("answers the same shape without wait, and timedOut: false once met", async () => {
    await sim.fetch(`${sim.baseUrl}/shop`, { headers: AUTH });
    const plain = await get("operation=getShop");
    expect(Object.keys(plain.body)).toEqual(["requests", "count"]);
    const met = await get("operation=getShop&wait=1000");
    expect([met.body.count, met.body.timedOut, met.body.requests[0].operation]).toEqual([1, false, "getShop"]);
  });
});

describe("a waiting client that gives up", () => {
  let running: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    running = await listen(parseConfig({ port: 0, logLevel: "silent", customers: 3, seed: 1 }));
  });
  afterAll(() => running.close());

  it("frees its waiter, over a real socket", async () => {
    const aborter = new AbortController();
    const held = fetch(`${running.url}/__sim/requests?operation=awardStamps&wait=30000`, { signal: aborter.signal }).catch((e: unknown) => e);
    await expect.poll(() => running.built.journal.waiting, { timeout: HANG_MS, interval: 10 }).toBe(1);
    aborter.abort();
    expect(await held).toBeInstanceOf(DOMException);
    await expect.poll(() => running.built.journal.waiting, { timeout: HANG_MS, interval: 10 }).toBe(0);
  });

  it("is released when the server closes", async () => {
    const other = await listen(parseConfig({ port: 0, logLevel: "silent", customers: 3, seed: 1 }));
    const held = fetch(`${other.url}/__sim/requests?wait=30000`).catch((e: unknown) => e);
    await expect.poll(() => other.built.journal.waiting, { timeout: HANG_MS, interval: 10 }).toBe(1);
    await other.close();
    // Cut by the close, not answered when its 30 s were up.
    expect(await held).toMatchObject({ name: "TypeError", message: "fetch failed" });
    await expect.poll(() => other.built.journal.waiting, { timeout: HANG_MS, interval: 10 }).toBe(0);
  });
});
