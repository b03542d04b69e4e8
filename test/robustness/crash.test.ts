/**
 * Crash safety of `--data`: a CLI under a write storm is killed with SIGKILL at a random moment,
 * five rounds in a row on one file. Every restart loads a valid file, every balance equals its
 * ledger, and nothing written before the last reported flush is missing. SIGTERM loses nothing.
 *
 * The kill delays come from a seeded generator; the seed is printed, and CRASH_SEED=<n> replays it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDataFile } from "../../src/persistence/data-file.js";
import { ensureBuilt, killAll, startCli, stopCli, type StartedCli } from "../support/cli.js";
import { HEADERS, storm, sum } from "../support/storm.js";
import { until } from "../support/patience.js";

const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const STORM_EMAILS = [1, 2, 3, 4].map((n) => `storm${n}@example.com`);

/** mulberry32: a small seeded generator, so that a failing run's delays can be replayed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

async function get(origin: string, path: string): Promise<any> {
  const res = await fetch(`${origin}/rest_api/v1${path}`, { headers: HEADERS });
  const body = (await res.json()) as any;
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** Each customer's balance and ledger sum and activity count, through the API (cursors walked). */
async function ledgers(origin: string) {
  const customers = (await get(origin, "/customers?limit=1000")).data as { id: string; email: string; stampBalance: number }[];
  const out: { id: string; email: string; balance: number; sum: number; entries: number }[] = [];
  for (const c of customers) {
    let sum = 0;
    let entries = 0;
    let after = "";
    for (;;) {
      const page = await get(origin, `/customers/${c.id}/activities?limit=1000${after && `&after=${after}`}`);
      for (const a of page.data as { stampChange: number }[]) sum += a.stampChange;
      entries += page.data.length;
      if (!page.meta.pagination.hasNext) break;
      after = page.meta.pagination.nextCursor;
    }
    out.push({ id: c.id, email: c.email, balance: c.stampBalance, sum, entries });
  }
  return out;
}

/** The `activities` of the last "data file written" debug line (lines cut by the kill are skipped). */
function lastFlushed(stdout: string): { activities: number; customers: number } | undefined {
  let last: { activities: number; customers: number } | undefined;
  for (const line of stdout.split("\n")) {
    if (!line.includes('"data file written"')) continue;
    try {
      last = JSON.parse(line) as { activities: number; customers: number };
    } catch {
      // The last line may be cut short by SIGKILL.
    }
  }
  return last;
}

type FileState = { shops: { data: { customers: { id: string; email: string; balance: number }[]; activities: { customerId: string; stampChange: number }[] } }[] };

/** Parses the file as a whole (it must never be half-written) and checks its own ledger invariant. */
function readState(file: string, context: string) {
  const text = readFileSync(file, "utf8");
  let state: FileState;
  try {
    state = JSON.parse(text) as FileState;
  } catch (error) {
    throw new Error(`${context}: ${file} is not valid JSON (${String(error)}), ${text.length} bytes`);
  }
  expect(() => readDataFile(file), context).not.toThrow();
  const data = state.shops[0]!.data;
  const sums = new Map<string, number>();
  for (const a of data.activities) sums.set(a.customerId, (sums.get(a.customerId) ?? 0) + a.stampChange);
  expect(data.customers.filter((c) => c.balance !== (sums.get(c.id) ?? 0)).map((c) => c.id), `${context}: balances off their ledger in the file`).toEqual([]);
  const balances = new Map(data.customers.map((c) => [c.email, c.balance]));
  return { activities: data.activities.length, customers: data.customers.length, balance: (email: string) => balances.get(email)! };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "loyalty-sim-crash-"));
  console.log(`crash test: CRASH_SEED=${SEED}`);
});
afterAll(async () => {
  await killAll();
  rmSync(dir, { recursive: true, force: true });
});

const args = (file: string, flushMs: number) => ["--port", "0", "--data", file, "--flush-ms", String(flushMs), "--log-level", "debug", "--log-format", "json", "--rate-limit", "off", "--customers", "20"];

/** Creates the storm's customers (balance 0) and waits until a write holds them. */
async function createStormCustomers(cli: StartedCli, waitForFlush: boolean): Promise<string[]> {
  const ids: string[] = [];
  for (const [n, email] of STORM_EMAILS.entries()) {
    const res = await fetch(`${cli.origin}/__sim/customers`, { method: "POST", headers: HEADERS, body: JSON.stringify({ firstName: "Storm", lastName: `No${n}`, email, stampBalance: 0 }) });
    expect(res.status).toBe(201);
    ids.push(((await res.json()) as { id: string }).id);
  }
  if (waitForFlush) await until("a write holding the storm's customers", () => (lastFlushed(cli.stdout())?.customers ?? 0) >= 24);
  return ids;
}

describe("--data under SIGKILL and SIGTERM", () => {
  it("five SIGKILLs at random moments of a write storm: each restart is whole and misses nothing flushed", async () => {
    const file = join(dir, "state.json");
    const random = seeded(SEED);
    let flushedDuringStorms = 0;
    for (let round = 1; round <= 5; round++) {
      const delay = Math.round(150 + random() * 750);
      const context = `CRASH_SEED=${SEED} round ${round} (kill after ${delay} ms)`;
      const before = round === 1 ? undefined : readState(file, context);
      const cli = await startCli(args(file, 50));
      try {
        expect(cli.banner, context).toContain(round === 1 ? "(20 customers)" : `(restored from ${file})`);
        const ids = round === 1 ? await createStormCustomers(cli, true) : await Promise.all(STORM_EMAILS.map(async (e) => (await get(cli.origin, `/customers?email=${e}`)).data[0].id as string));
        expect(ids, context).toHaveLength(4);

        // What the API serves is the file: same balances, every balance equal to its ledger.
        const served = await ledgers(cli.origin);
        expect(served.filter((c) => c.balance !== c.sum), context).toEqual([]);
        if (before) {
          expect(served, context).toHaveLength(before.customers);
          for (const email of STORM_EMAILS) expect(served.find((c) => c.email === email)!.balance, context).toBe(before.balance(email));
          expect(served.reduce((n, c) => n + c.entries, 0), context).toBeGreaterThanOrEqual(before.activities);
        }
        const start = new Map(ids.map((id) => [id, served.find((c) => c.id === id)!.balance]));
        const flushedBefore = lastFlushed(cli.stdout())?.activities ?? 0;

        const load = storm(cli.origin, ids);
        // The random moment counts from the storm's first answer, however slow the machine.
        await until("the storm's first acknowledged award", () => sum(load.acked) > 0);
        await sleep(delay);
        cli.kill("SIGKILL");
        expect((await cli.exited).signal, context).toBe("SIGKILL");
        await load.done;
        expect(load.unexpected, context).toEqual([]);
        expect(sum(load.acked), context).toBeGreaterThan(0);

        // The file parses, holds at least what the last reported write held, and no more than was sent.
        const flushed = lastFlushed(cli.stdout());
        expect(flushed, context).toBeDefined();
        const after = readState(file, context);
        expect(after.activities, context).toBeGreaterThanOrEqual(flushed!.activities);
        if (flushed!.activities > flushedBefore) flushedDuringStorms++;
        for (const [n, id] of ids.entries()) {
          const kept = after.balance(STORM_EMAILS[n]!) - start.get(id)!;
          expect(kept, `${context}: customer ${id}`).toBeGreaterThanOrEqual(0);
          expect(kept, `${context}: customer ${id}`).toBeLessThanOrEqual(load.sent.get(id)!);
        }
      } finally {
        await stopCli(cli);
      }
    }
    // The storms did reach the file, not only the seeded state.
    expect(flushedDuringStorms, `CRASH_SEED=${SEED}`).toBeGreaterThan(0);

    // A last restart serves the file as it is.
    const final = readState(file, "final");
    const cli = await startCli(args(file, 50));
    try {
      expect(cli.banner).toContain(`(restored from ${file})`);
      const served = await ledgers(cli.origin);
      expect(served.filter((c) => c.balance !== c.sum)).toEqual([]);
      for (const email of STORM_EMAILS) expect(served.find((c) => c.email === email)!.balance).toBe(final.balance(email));
    } finally {
      await stopCli(cli);
    }
  });

  it("SIGTERM in the middle of a storm, with a 60 s flush interval, loses no acknowledged award", async () => {
    const file = join(dir, "term.json");
    const cli = await startCli(args(file, 60_000));
    try {
      const ids = await createStormCustomers(cli, false);
      const load = storm(cli.origin, ids);
      await until("the storm's first acknowledged award", () => sum(load.acked) > 0);
      await sleep(300);
      expect(existsSync(file)).toBe(false); // nothing written yet: all of it rides on the SIGTERM flush
      cli.kill("SIGTERM");
      expect(await cli.exited).toEqual({ code: 0, signal: null });
      await load.done;
      expect(load.unexpected).toEqual([]);
      expect(sum(load.acked)).toBeGreaterThan(0);
      expect(cli.stdout()).toContain("loyalty-sim: SIGTERM, shutting down");
      const saved = readState(file, "SIGTERM");
      expect(lastFlushed(cli.stdout())).toMatchObject({ customers: 24, activities: saved.activities });
      for (const [n, id] of ids.entries()) {
        const kept = saved.balance(STORM_EMAILS[n]!);
        expect(kept, `customer ${id}`).toBeGreaterThanOrEqual(load.acked.get(id)!);
        expect(kept, `customer ${id}`).toBeLessThanOrEqual(load.sent.get(id)!);
      }
    } finally {
      await stopCli(cli);
    }
    const again = await startCli(args(file, 60_000));
    try {
      expect(again.banner).toContain(`(restored from ${file})`);
      const saved = readState(file, "restart");
      for (const email of STORM_EMAILS) {
        expect((await get(again.origin, `/customers?email=${email}`)).data[0].stampBalance).toBe(saved.balance(email));
      }
    } finally {
      await stopCli(again);
    }
  });
});
