/**
 * `--data FILE`: state that survives restarts, coalesced and atomic writes, flushes on reset and
 * on SIGINT/SIGTERM, and refusal (exit 2, file untouched) of files it cannot read.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { startSimulator } from "../src/index.js";
import { parseConfig } from "../src/config.js";
import { buildSimulator } from "../src/simulator/simulator.js";
import { readDataFile } from "../src/persistence/data-file.js";
import { ensureBuilt, killAll, runCli, startCli, stopCli } from "./support/cli.js";
import { until } from "./support/patience.js";

let dir: string;
/** A data file path in a folder of its own (to see temporary files). */
const dataPath = () => join(mkdtempSync(join(dir, "d-")), "state.json");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const creds = (s: { apiKey: string; apiSecret: string }) => ({ "X-Api-Key": s.apiKey, "X-Api-Secret": s.apiSecret, "Content-Type": "application/json" });

/** GET/POST an API path of a shop and return the envelope's data (throws on a non-2xx). */
async function api<T = any>(origin: string, shop: { apiKey: string; apiSecret: string }, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${origin}/rest_api/v1${path}`, { method: body === undefined ? "GET" : "POST", headers: creds(shop), ...(body !== undefined && { body: JSON.stringify(body) }) });
  const json = (await res.json()) as { data: T };
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** A customer that takes stamps (not removed, not merged). */
async function activeId(origin: string, shop: { apiKey: string; apiSecret: string }): Promise<string> {
  const customers = await api<{ id: string; state: string; mergedIntoCustomerId?: string }[]>(origin, shop, "/customers?limit=1000");
  return customers.find((c) => c.state === "active" && c.mergedIntoCustomerId === undefined)!.id;
}

type Saved = { shops: { spec: { id: string }; data: { customers: { id: string; balance: number }[] } }[] };
const saved = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Saved;
const balanceIn = (file: string, shopId: string, id: string) => saved(file).shops.find((s) => s.spec.id === shopId)!.data.customers.find((c) => c.id === id)!.balance;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "loyalty-sim-data-"));
});
afterAll(async () => {
  await killAll();
  rmSync(dir, { recursive: true, force: true });
});

/** What a client can see of a shop: customers, and each one's ledger and codes. */
async function snapshot(origin: string, shop: { apiKey: string; apiSecret: string }) {
  const customers = await api<{ id: string }[]>(origin, shop, "/customers?limit=1000");
  const out: Record<string, unknown> = {};
  for (const c of customers) {
    out[c.id] = {
      customer: await api(origin, shop, `/customers/${c.id}`),
      activities: await api(origin, shop, `/customers/${c.id}/activities?limit=1000`),
      codes: await api(origin, shop, `/customers/${c.id}/reward-codes`),
    };
  }
  return out;
}

describe("state in a data file", () => {
  it("survives a restart: stamps, redemptions, created shops and customers, credentials", async () => {
    const data = dataPath();
    const first = await startSimulator({ data, flushMs: 50, customers: 4, rateLimit: "off" });
    const id = await activeId(first.url, first);
    await api(first.url, first, `/customers/${id}/stamps/award`, { stamps: 40, comment: "kept" });
    const redeemed = await api<{ code: string }>(first.url, first, `/customers/${id}/redemptions`, { reward_product_id: 101 });
    expect(redeemed.code).toMatch(/^LOYAL-/);
    const shop = await first.control.createShop({ customers: 2, seed: 8 });
    const other = await activeId(first.url, shop);
    await api(first.url, shop, `/customers/${other}/stamps/award`, { stamps: 3 });
    const ada = await first.control.createCustomer({ firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", stampBalance: 12 });
    const before = { main: await snapshot(first.url, first), shop: await snapshot(first.url, shop), shops: await first.control.shops() };
    expect(Object.keys(before.main)).toHaveLength(5);
    await first.close();

    // The file wins over the seed, the customer count and the credential options.
    const second = await startSimulator({ data, flushMs: 50, customers: 1, seed: 99, apiKey: "other", rateLimit: "off" });
    try {
      expect([second.apiKey, second.apiSecret]).toEqual(["sim_key", "sim_secret"]);
      expect(await second.control.shops()).toEqual(before.shops);
      expect(await snapshot(second.url, second)).toEqual(before.main);
      expect(await snapshot(second.url, shop)).toEqual(before.shop);
      expect(await api(second.url, second, `/customers/${ada.id}`)).toMatchObject({ firstName: "Ada", stampBalance: 12 });
      const codes = await api<{ code: string; used: boolean }[]>(second.url, second, `/customers/${id}/reward-codes`);
      expect(codes.find((c) => c.code === redeemed.code)).toMatchObject({ used: false });
    } finally {
      await second.close();
    }
  });

  it("coalesces writes: a burst of 200 awards is written a few times, never once per request", async () => {
    const data = dataPath();
    const sim = await startSimulator({ data, flushMs: 50, customers: 3, rateLimit: "off" });
    try {
      await until("the first tick writes the seeded state", () => existsSync(data));
      // Each write renames the temporary file over state.json: inotify reports exactly one
      // "rename" of state.json per write, which polling the mtime could miss.
      const writes: number[] = [];
      const watcher = watch(join(data, ".."), (type, name) => type === "rename" && name === "state.json" && writes.push(performance.now()));
      try {
        await sleep(150);
        expect(writes).toEqual([]); // nothing changed, nothing written
        const id = await activeId(sim.url, sim);
        const start = (await api<{ stampBalance: number }>(sim.url, sim, `/customers/${id}`)).stampBalance;
        const began = performance.now();
        for (let batch = 0; batch < 10; batch++) {
          await Promise.all(Array.from({ length: 20 }, () => api(sim.url, sim, `/customers/${id}/stamps/award`, { stamps: 1 })));
        }
        // The flush after the burst, and the watcher's news of it.
        await until("the burst is written", () => balanceIn(data, "1", id) === start + 200 && writes.length > 0);
        const elapsed = performance.now() - began;
        expect(writes.length).toBeLessThanOrEqual(Math.ceil(elapsed / 50) + 1);
        expect(writes.length).toBeLessThan(50);
        expect(balanceIn(data, "1", id)).toBe(start + 200);
        // The watcher hears of a rename in the event loop's poll phase, which comes before setImmediate's.
        await new Promise((resolve) => setImmediate(resolve));
        const settled = writes.length;
        await sleep(150);
        expect(writes.length).toBe(settled);
        await sim.reset();
        await until("the reset is written", () => writes.length > settled);
        await sleep(150);
        expect(writes.length).toBe(settled + 1); // the counting is exact: reset writes once
      } finally {
        watcher.close();
      }
    } finally {
      await sim.close();
    }
    expect(readdirSync(join(data, ".."))).toEqual(["state.json"]);
  });

  it("POST /__sim/reset writes the seeded state at once, long before the flush interval", async () => {
    const data = dataPath();
    const sim = await startSimulator({ data, flushMs: 60_000, customers: 3, seed: 6 });
    try {
      const id = await activeId(sim.url, sim);
      await api(sim.url, sim, `/customers/${id}/stamps/award`, { stamps: 25 });
      await sim.control.createShop({ customers: 1 });
      expect(existsSync(data)).toBe(false);
      expect(await sim.control.reset()).toEqual({ reset: true, shops: 2 });
      const seeded = buildSimulator(parseConfig({ customers: 3, seed: 6 })).shop.store.data;
      const file = saved(data);
      expect(file.shops.map((s) => s.spec.id)).toEqual(["1", "2"]);
      expect(JSON.parse(JSON.stringify(file.shops[0]!.data))).toEqual(JSON.parse(JSON.stringify(seeded)));
    } finally {
      await sim.close();
    }
  });

  it("startSimulator refuses a file it cannot read with a DataFileError", async () => {
    const data = dataPath();
    writeFileSync(data, "[]");
    await expect(startSimulator({ data })).rejects.toMatchObject({ name: "DataFileError", path: data });
  });
});

describe("the CLI with --data", () => {
  async function start(ctx: TestContext, args: string[]) {
    const cli = await startCli(["--port", "0", "--quiet", ...args]);
    ctx.onTestFinished(() => stopCli(cli));
    return cli;
  }

  it.for(["SIGTERM", "SIGINT"] as const)("%s with --flush-ms 60000 loses nothing", async (signal, ctx) => {
    const data = dataPath();
    const cli = await start(ctx, ["--data", data, "--flush-ms", "60000", "--customers", "3"]);
    const main = { apiKey: "sim_key", apiSecret: "sim_secret" };
    const id = await activeId(cli.origin, main);
    const { stampBalance } = await api<{ stampBalance: number }>(cli.origin, main, `/customers/${id}/stamps/award`, { stamps: 11 });
    const shop = (await (await fetch(`${cli.origin}/__sim/shops`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" })).json()) as { id: string; apiSecret: string };
    expect(existsSync(data)).toBe(false);
    // Printed after the Seed line the banner wait stops at.
    expect(cli.stdout()).toContain(`  Data file:   ${data} (flushed at most every 60000 ms)\n`);
    cli.kill(signal);
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    expect(cli.stdout()).toContain(`loyalty-sim: ${signal}, shutting down\n`);
    expect(balanceIn(data, "1", id)).toBe(stampBalance);
    expect(readdirSync(join(data, ".."))).toEqual(["state.json"]);

    const again = await start(ctx, ["--data", data]);
    expect(again.banner).toContain(`(restored from ${data})`);
    expect((await api<{ stampBalance: number }>(again.origin, main, `/customers/${id}`)).stampBalance).toBe(stampBalance);
    const shops = (await (await fetch(`${again.origin}/__sim/shops`)).json()) as { shops: { id: string; apiSecret: string }[] };
    expect(shops.shops.find((s) => s.id === shop.id)?.apiSecret).toBe(shop.apiSecret);
  });

  it("a hard kill loses at most the last interval, and never leaves a half-written file", async (ctx) => {
    const data = dataPath();
    // A large shop makes each write take tens of ms, so the kill very likely lands mid-write.
    const cli = await start(ctx, ["--data", data, "--flush-ms", "10", "--customers", "8000", "--rate-limit", "off"]);
    const main = { apiKey: "sim_key", apiSecret: "sim_secret" };
    const id = await activeId(cli.origin, main);
    const { stampBalance } = await api<{ stampBalance: number }>(cli.origin, main, `/customers/${id}/stamps/award`, { stamps: 5 });
    await until("the award is written", () => (readDataFile(data)?.shops[0]!.data.customers.find((c) => c.id === id)?.balance ?? 0) >= stampBalance);
    const stopAt = performance.now() + 400;
    while (performance.now() < stopAt) await api(cli.origin, main, `/customers/${id}/stamps/adjust`, { stamps: 1 });
    cli.kill("SIGKILL");
    await cli.exited;
    const state = readDataFile(data)!; // complete and readable, whatever the kill interrupted
    const balance = state.shops[0]!.data.customers.find((c) => c.id === id)!.balance;
    expect(balance).toBeGreaterThanOrEqual(stampBalance);
    const again = await start(ctx, ["--data", data]);
    expect((await api<{ stampBalance: number }>(again.origin, main, `/customers/${id}`)).stampBalance).toBe(balance);
  });

  it("a data file whose folder does not exist stops the start with exit 2, before the banner", async () => {
    const folder = join(dir, "missing");
    const result = await runCli(["--port", "0", "--data", join(folder, "state.json")]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(
      `loyalty-sim: Data file ${join(folder, "state.json")} cannot be written: its folder ${folder} does not exist or is not writable. Create the folder (or mount a writable volume there), or pass another --data file.\n`,
    );
    expect(existsSync(folder)).toBe(false);
  });

  it.each([
    ["not JSON", "{ not json", "is not valid JSON ("],
    ["empty", "", "is not valid JSON ("],
    ["another data version", JSON.stringify({ format: "loyalty-sim-state", version: 999, savedAt: "2026-01-01T00:00:00Z", shops: [] }), "was written by another version of loyalty-sim (data version 999, this one reads 1)"],
    ["some other JSON", JSON.stringify({ users: [{ id: 1 }] }), "is not a loyalty-sim data file"],
    ["damaged", JSON.stringify({ format: "loyalty-sim-state", version: 1, shops: [{ spec: { id: "1" } }] }), "is damaged or was edited into a state loyalty-sim cannot serve:\n  - savedAt: required\n  - shops[0].spec.program: required\n"],
  ])("a data file that is %s stops the start with exit 2 and is left untouched", async (_, content, problem) => {
    const data = dataPath();
    writeFileSync(data, content);
    const { mtimeMs } = statSync(data);
    const result = await runCli(["--port", "0", "--data", data, "--flush-ms", "10"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`loyalty-sim: Data file ${data} ${problem}`);
    expect(result.stderr).toContain("loyalty-sim left it untouched: move it away, or pass another --data file, to start from the seeded state.\n");
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(readFileSync(data, "utf8")).toBe(content);
    expect(statSync(data).mtimeMs).toBe(mtimeMs);
    expect(readdirSync(join(data, ".."))).toEqual(["state.json"]);
  });
});
