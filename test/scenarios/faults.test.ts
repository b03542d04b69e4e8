/**
 * Each fault as a real HTTP client sees it, against the built CLI on a real port, with the
 * shipped scenarios/faults/*.yaml files; and the --latency and --journal-size flags.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config.js";
import { buildSimulator } from "../../src/simulator/simulator.js";
import { ensureBuilt, killAll, startCli, type StartedCli } from "../support/cli.js";

const AUTH = { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret" };
const FAULTS = ["connection-reset", "empty-response", "malformed-json", "timeout"];
/** What the malformed_json fault sends: a customer cut off mid-way. */
const CUT = '{"success":true,"data":{"id":"6677889900","firstName":"Ali';
const seeded = buildSimulator(parseConfig({ customers: 5 })).shop.store.data.customers;
const id = seeded.find((c) => !c.excluded && !c.mergedIntoCustomerId && c.balance >= 5)!.id;

let faults: StartedCli;
let slow: StartedCli;
let small: StartedCli;

beforeAll(async () => {
  ensureBuilt();
  [faults, slow, small] = await Promise.all([
    startCli(["--port", "0", "--customers", "5", ...FAULTS.flatMap((f) => ["--scenario", `scenarios/faults/${f}.yaml`])]),
    startCli(["--port", "0", "--customers", "1", "--latency", "100"]),
    startCli(["--port", "0", "--customers", "1", "--journal-size", "2"], {
      LOYALTY_SIM_SCENARIO: "scenarios/errors/not-found.yaml,scenarios/errors/tier-not-found.yaml",
    }),
  ]);
});
afterAll(killAll);

const api = (cli: StartedCli, path: string, init: RequestInit = {}) =>
  fetch(`${cli.origin}/rest_api/v1${path}`, { ...init, headers: { ...AUTH, ...(init.body !== undefined && { "Content-Type": "application/json" }), ...init.headers } });
const journal = async (cli: StartedCli, query = "") =>
  ((await (await fetch(`${cli.origin}/__sim/requests?${query}`)).json()) as { requests: Record<string, unknown>[] }).requests;
/** The rejection of a fetch, with its cause's code. */
async function failure(request: Promise<Response>) {
  const error = await request.then(
    () => expect.unreachable("the request got a response"),
    (e: unknown) => e as Error & { cause?: { code?: string } },
  );
  return { name: error.name, message: error.message, code: error.cause?.code };
}

describe("faults seen by a real client", () => {
  it("connection_reset: fetch fails with ECONNRESET; the next request is answered (times: 1)", async () => {
    expect(await failure(api(faults, `/customers/${id}`))).toEqual({ name: "TypeError", message: "fetch failed", code: "ECONNRESET" });
    expect((await api(faults, `/customers/${id}`)).status).toBe(200);
    const [, entry] = await journal(faults, `path=/customers/{id}`);
    expect(entry).toMatchObject({ status: null, fault: "connection_reset", responseBody: null, scenario: { scenario: "fault-connection-reset", rule: 0 } });
  });

  it("empty_response: the socket closes with no bytes, fetch fails with UND_ERR_SOCKET", async () => {
    expect(await failure(api(faults, "/customers"))).toEqual({ name: "TypeError", message: "fetch failed", code: "UND_ERR_SOCKET" });
    expect((await api(faults, "/customers")).status).toBe(200);
    const [, entry] = await journal(faults, "path=/customers");
    expect(entry).toMatchObject({ status: null, fault: "empty_response", responseBody: null, scenario: { scenario: "fault-empty-response", rule: 0 } });
  });

  it("malformed_json: a 200 JSON response whose body does not parse", async () => {
    const res = await api(faults, "/shop");
    expect([res.status, res.headers.get("Content-Type")]).toEqual([200, "application/json"]);
    const text = await res.text();
    expect(text).toBe(CUT);
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    const again = await api(faults, "/shop");
    expect(((await again.json()) as { success: boolean }).success).toBe(true);
    const [, entry] = await journal(faults, "path=/shop");
    expect(entry).toMatchObject({ status: 200, fault: "malformed_json", responseBody: CUT, scenario: { scenario: "fault-malformed-json", rule: 0 } });
  });

  it("malformed_json: res.json() throws SyntaxError", async () => {
    await fetch(`${faults.origin}/__sim/reset`, { method: "POST" });
    await expect((await api(faults, "/shop")).json()).rejects.toThrow(SyntaxError);
  });

  it("timeout: no answer until the client gives up; nothing changes; the server keeps serving", async () => {
    await fetch(`${faults.origin}/__sim/reset`, { method: "POST" });
    // Reset brought the connection_reset rule on getCustomer back; this test reads customers.
    expect((await fetch(`${faults.origin}/__sim/scenarios/fault-connection-reset`, { method: "DELETE" })).status).toBe(204);
    const balance = async () => ((await (await api(faults, `/customers/${id}`)).json()) as { data: { stampBalance: number } }).data.stampBalance;
    const before = await balance();
    const started = performance.now();
    const redeem = (signal?: AbortSignal) => api(faults, `/customers/${id}/redemptions`, { method: "POST", body: JSON.stringify({ reward_product_id: 101 }), ...(signal && { signal }) });
    expect(await failure(redeem(AbortSignal.timeout(300)))).toMatchObject({ name: "TimeoutError" });
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    expect((await fetch(`${faults.origin}/__sim/health`)).status).toBe(200);
    expect(await balance()).toBe(before);
    let entries = await journal(faults, "method=POST");
    for (let i = 0; i < 50 && entries.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      entries = await journal(faults, "method=POST");
    }
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ status: null, fault: "timeout", requestBody: { reward_product_id: 101 }, scenario: { scenario: "fault-timeout", rule: 0 } });
    const res = await redeem();
    expect(res.status).toBe(200);
    expect(await balance()).toBe(before - 5);
  });
});

describe("flags", () => {
  it("--latency 100 delays every API request by at least 100 ms", async () => {
    for (let i = 0; i < 2; i++) {
      const started = performance.now();
      expect((await api(slow, "/shop")).status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(100);
    }
    const entries = await journal(slow);
    expect(entries.map((e) => (e.durationMs as number) >= 99)).toEqual([true, true]);
  });

  it("--journal-size 2 keeps the 2 newest entries; LOYALTY_SIM_SCENARIO loads a comma-separated list", async () => {
    const scenarios = ((await (await fetch(`${small.origin}/__sim/scenarios`)).json()) as { scenarios: { name: string }[] }).scenarios;
    expect(scenarios.map((s) => s.name)).toEqual(["error-not-found", "error-tier-not-found"]);
    for (const path of ["/tiers", "/rewards", "/beacons"]) await api(small, path);
    const entries = await journal(small);
    expect(entries.map((e) => [e.path, e.status])).toEqual([["/rest_api/v1/beacons", 404], ["/rest_api/v1/rewards", 200]]);
  });
});
