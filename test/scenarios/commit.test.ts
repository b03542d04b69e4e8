/**
 * Faults after commit: a rule with `commit: true` lets the real handler run and commit, then
 * delivers its own answer instead. On a real socket and in-process, for every fault and for
 * status and error answers: the balance moves exactly once per request, the client sees the rule's
 * answer, and the journal keeps both.
 */
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createSimulator, type ControlClient } from "../../src/index.js";
import { startSimulator } from "../../src/simulator/server.js";
import type { ScenarioInput } from "../../src/scenarios/schema.js";
import { HANG_MS } from "../support/patience.js";

const TS = "2026-11-23T12:00:00+00:00";
/** What the malformed_json fault sends: a customer cut off mid-way. */
const CUT = '{"success":true,"data":{"id":"6677889900","firstName":"Ali';
const LOST_RESPONSE = fileURLToPath(new URL("../../scenarios/faults/lost-response.yaml", import.meta.url));

interface Target {
  fetch: typeof fetch;
  base: string;
  control: ControlClient;
  headers: Record<string, string>;
  customer: string;
}

const closers: (() => Promise<void>)[] = [];
afterAll(() => Promise.all(closers.map((close) => close())));

/** A simulator with its clock frozen, so every timestamp is exact. */
async function target(kind: "socket" | "in-process", scenario: string[] = []): Promise<Target> {
  const options = { customers: 5, seed: 3, scenario };
  const sim = kind === "socket" ? await startSimulator(options) : createSimulator(options);
  if (kind === "socket") closers.push((sim as Awaited<ReturnType<typeof startSimulator>>).close);
  await sim.control.setClock({ set: TS, frozen: true });
  const customer = sim.engine.defaultShop().store.data.customers.find((c) => !c.excluded && !c.mergedIntoCustomerId)!.id;
  return {
    fetch: kind === "socket" ? fetch : (sim as ReturnType<typeof createSimulator>).fetch,
    base: sim.baseUrl,
    control: sim.control,
    headers: { "X-Api-Key": sim.apiKey, "X-Api-Secret": sim.apiSecret, "Content-Type": "application/json" },
    customer,
  };
}

const award = (t: Target, stamps: number, init: RequestInit = {}, customer = t.customer) =>
  t.fetch(`${t.base}/customers/${customer}/stamps/award`, { method: "POST", headers: t.headers, body: JSON.stringify({ stamps }), ...init });
const balance = async (t: Target) => ((await (await t.fetch(`${t.base}/customers/${t.customer}`, { headers: t.headers })).json()) as { data: { stampBalance: number } }).data.stampBalance;
const awarded = (t: Target, stamps: number, stampBalance: number) => ({ success: true, data: { customerId: t.customer, stampChange: stamps, stampBalance }, timestamp: TS });
const rule = (respond: ScenarioInput["rules"][number]["respond"]): ScenarioInput => ({ name: "after-commit", rules: [{ match: { operation: "awardStamps" }, times: 1, respond }] });

/** How the client's request ended: a response's status and text, or its error's name and cause's code. */
async function outcome(request: Promise<Response>) {
  try {
    const res = await request;
    return { status: res.status, text: await res.text() };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string } };
    return { error: e.name, code: e.cause?.code };
  }
}

/** The newest journal entry of the award, once written (a held request is journaled when the client gives up). */
async function awardEntry(t: Target) {
  return vi.waitFor(
    async () => {
      const [entry] = await t.control.requests({ operation: "awardStamps", customerId: t.customer, limit: 1 });
      if (!entry) throw new Error("not journaled yet");
      return entry;
    },
    { timeout: HANG_MS, interval: 20 },
  );
}

describe.each(["socket", "in-process"] as const)("faults after commit (%s)", (kind) => {
  it.each([
    ["connection_reset", { error: "TypeError", code: "ECONNRESET" }, null],
    ["empty_response", { error: "TypeError", code: "UND_ERR_SOCKET" }, null],
    ["malformed_json", { status: 200, text: CUT }, 200],
    ["timeout", { error: "TimeoutError", code: undefined }, null],
  ] as const)("%s: the award is saved once, the client sees the fault, the journal keeps both", async (fault, seen, status) => {
    const t = await target(kind);
    await t.control.addScenario(rule({ fault, commit: true }));
    const before = await balance(t);
    expect(await outcome(award(t, 2, fault === "timeout" ? { signal: AbortSignal.timeout(200) } : {}))).toEqual(seen);
    expect(await balance(t)).toBe(before + 2);
    const entry = await awardEntry(t);
    expect({ status: entry.status, fault: entry.fault, decidedBy: entry.decidedBy, scenario: entry.scenario, committed: entry.committed, responseBody: entry.responseBody }).toStrictEqual({
      status,
      fault,
      decidedBy: "scenario",
      scenario: { scenario: "after-commit", rule: 0 },
      committed: { status: 200, body: awarded(t, 2, before + 2) },
      responseBody: fault === "malformed_json" ? CUT : null,
    });
    expect(await t.control.count({ operation: "awardStamps", customerId: t.customer })).toBe(1);
  });

  it("an error answer after commit: the client gets the envelope, the award is saved", async () => {
    const t = await target(kind);
    await t.control.addScenario(rule({ error: "INTERNAL_ERROR", commit: true }));
    const before = await balance(t);
    const res = await award(t, 3);
    expect([res.status, await res.json()]).toEqual([500, { success: false, error: { message: "Internal server error", code: "INTERNAL_ERROR", statusCode: 500 }, timestamp: TS }]);
    expect(await balance(t)).toBe(before + 3);
    expect(await awardEntry(t)).toMatchObject({ status: 500, fault: null, decidedBy: "scenario", committed: { status: 200, body: awarded(t, 3, before + 3) }, responseBody: { error: { code: "INTERNAL_ERROR" } } });
  });

  it("a raw status after commit: its own body and headers, none of the handler's", async () => {
    const t = await target(kind);
    await t.control.addScenario(rule({ status: 503, body: { maintenance: true }, headers: { "Retry-After": "5" }, commit: true }));
    const before = await balance(t);
    const res = await award(t, 1);
    expect([res.status, res.headers.get("Retry-After"), res.headers.get("Content-Type"), await res.json()]).toEqual([503, "5", "application/json", { maintenance: true }]);
    await t.control.addScenario(rule({ status: 204, commit: true }));
    const empty = await award(t, 1);
    expect([empty.status, empty.headers.get("Content-Type"), await empty.text()]).toEqual([204, null, ""]);
    expect(await balance(t)).toBe(before + 2);
    const [second, first] = await t.control.requests({ operation: "awardStamps" });
    expect([first!.status, first!.responseBody, first!.committed]).toEqual([503, { maintenance: true }, { status: 200, body: awarded(t, 1, before + 1) }]);
    expect([second!.status, second!.responseBody, second!.committed]).toEqual([204, null, { status: 200, body: awarded(t, 1, before + 2) }]);
    expect(second!.responseHeaders).toStrictEqual({ "x-ratelimit-limit": "1000", "x-ratelimit-remaining": "997", "x-request-id": "req_000006" });
  });

  it("a handler that refuses commits nothing: the rule's answer still goes out, `committed` is the refusal", async () => {
    const t = await target(kind);
    await t.control.addScenario(rule({ fault: "connection_reset", commit: true }));
    expect(await outcome(award(t, 1, {}, "999"))).toEqual({ error: "TypeError", code: "ECONNRESET" });
    const [entry] = await t.control.requests({ operation: "awardStamps", customerId: "999" });
    expect([entry!.fault, entry!.committed]).toEqual([
      "connection_reset",
      { status: 404, body: { success: false, error: { message: "Customer 999 not found", code: "CUSTOMER_NOT_FOUND", statusCode: 404 }, timestamp: TS } },
    ]);
  });

  it("without commit the fault comes first and nothing is saved", async () => {
    const t = await target(kind);
    await t.control.addScenario(rule({ fault: "connection_reset", commit: false }));
    const before = await balance(t);
    expect(await outcome(award(t, 2))).toEqual({ error: "TypeError", code: "ECONNRESET" });
    expect(await balance(t)).toBe(before);
    expect((await awardEntry(t)).committed).toBeNull();
  });

  it("the shipped lost-response scenario: a naive retry awards twice, and the journal shows it", async () => {
    const t = await target(kind, [LOST_RESPONSE]);
    const before = await balance(t);
    // A client that retries an award on a network error, without an Idempotency-Key.
    const naiveAward = async (stamps: number) => {
      try {
        return await award(t, stamps);
      } catch {
        return award(t, stamps);
      }
    };
    expect((await naiveAward(2)).status).toBe(200);
    expect(await balance(t)).toBe(before + 4);
    const awards = await t.control.requests({ operation: "awardStamps", customerId: t.customer });
    expect(awards.map((e) => [e.status, e.fault, e.committed?.status ?? e.status, e.decidedBy, "idempotency-key" in e.requestHeaders])).toEqual([
      [200, null, 200, "handler", false],
      [null, "connection_reset", 200, "scenario", false],
    ]);
    expect(awards[1]!.scenario).toEqual({ scenario: "fault-lost-response", rule: 0, ruleName: "award saved, response lost" });
    expect(await t.control.count({ operation: "awardStamps", customerId: t.customer })).toBe(2);
  });
});

describe("the commit field", () => {
  it.each([
    [{ commit: true }, "needs one of error, status, rateLimit, fault or delayMs"],
    [{ delayMs: 5, commit: true }, "goes with error, status or fault: the answer that replaces the handler's"],
    [{ rateLimit: { limit: 1, windowSeconds: 60 }, commit: true }, "goes with error, status or fault: the answer that replaces the handler's"],
  ])("%j is refused with a 422 naming it", async (respond, message) => {
    const sim = createSimulator({ customers: 0 });
    const error = await sim.control.addScenario(rule(respond as never)).then(() => undefined, (e: unknown) => e as { status: number; details: { path: string; message: string }[] });
    expect(error?.status).toBe(422);
    expect(error?.details.map((d) => d.message)).toContain(message);
  });

  it("a Prefer header still answers before the handler, with a commit rule waiting", async () => {
    const t = await target("in-process");
    await t.control.addScenario(rule({ fault: "connection_reset", commit: true }));
    const before = await balance(t);
    const res = await award(t, 2, { headers: { ...t.headers, Prefer: "error=VOID_FAILED" } });
    expect(res.status).toBe(422);
    expect(await balance(t)).toBe(before);
    expect((await awardEntry(t)).decidedBy).toBe("prefer");
  });
});
