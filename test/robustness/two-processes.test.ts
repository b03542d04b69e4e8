/**
 * Two processes on one `--data` file (the probe of issue 26, case 2): while a CLI serves a write
 * storm with a 20 ms flush interval, a second CLI is started on the same file, again and again.
 * Each is refused (exit 2, naming the file and the first process); the first keeps answering; the
 * file, read every few milliseconds meanwhile, always parses and passes the check at start; after
 * a clean stop it holds every award the first process acknowledged.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDataFile } from "../../src/persistence/data-file.js";
import { ensureBuilt, killAll, runCli, startCli, stopCli } from "../support/cli.js";
import { HEADERS, storm, sum } from "../support/storm.js";

const SECOND_STARTS = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "loyalty-sim-two-processes-"));
});
afterAll(async () => {
  await killAll();
  rmSync(dir, { recursive: true, force: true });
});

type Saved = { shops: { data: { customers: { id: string; balance: number }[] } }[] };

/** Reads the file every few ms until stopped: how many reads, and what failed to parse or check. */
function watchFile(file: string) {
  const problems: string[] = [];
  let reads = 0;
  let over = false;
  const done = (async () => {
    while (!over) {
      const text = readFileSync(file, "utf8");
      reads++;
      try {
        JSON.parse(text);
        readDataFile(file);
      } catch (error) {
        problems.push(`read ${reads}: ${String(error).slice(0, 200)} (${text.length} bytes)`);
      }
      await sleep(5);
    }
  })();
  return { problems, reads: () => reads, stop: () => ((over = true), done) };
}

describe("two processes on one --data file", () => {
  it("the second is refused while the first serves a write storm; the file always parses and keeps every acknowledged award", async () => {
    const file = join(dir, "state.json");
    const args = ["--port", "0", "--quiet", "--data", file, "--flush-ms", "20", "--rate-limit", "off", "--customers", "4"];
    const first = await startCli(args);
    try {
      const ids: string[] = [];
      for (const n of [1, 2, 3]) {
        const res = await fetch(`${first.origin}/__sim/customers`, { method: "POST", headers: HEADERS, body: JSON.stringify({ firstName: "Storm", lastName: `No${n}`, email: `storm${n}@example.com`, stampBalance: 0 }) });
        expect(res.status).toBe(201);
        ids.push(((await res.json()) as { id: string }).id);
      }
      while (!existsSync(file)) await sleep(5);

      const watching = watchFile(file);
      const load = storm(first.origin, ids);
      const refusals: { code: number | null; stdout: string; stderr: string }[] = [];
      for (let i = 0; i < SECOND_STARTS; i++) refusals.push(await runCli(args));
      await sleep(100);
      load.stop();
      await load.done;
      await watching.stop();

      const since = (JSON.parse(readFileSync(`${file}.lock`, "utf8")) as { since: string }).since;
      const refusal = `loyalty-sim: Data file ${file} is in use by another loyalty-sim: process ${first.child.pid} on host ${hostname()}, since ${since} (its lock: ${file}.lock). Stop that process, or pass another --data file.\nRun loyalty-sim --help for the options.\n`;
      expect(refusals).toEqual(Array.from({ length: SECOND_STARTS }, () => ({ code: 2, signal: null, stdout: "", stderr: refusal })));
      expect(load.unexpected).toEqual([]);
      expect(sum(load.acked)).toBeGreaterThan(0);
      expect(watching.problems).toEqual([]);
      expect(watching.reads()).toBeGreaterThan(20);
      expect((await fetch(`${first.origin}/__sim/health`)).status).toBe(200);

      first.kill("SIGTERM");
      expect(await first.exited).toEqual({ code: 0, signal: null });
      const saved = JSON.parse(readFileSync(file, "utf8")) as Saved;
      const balances = new Map(saved.shops[0]!.data.customers.map((c) => [c.id, c.balance]));
      // Every award was answered before the stop: the file holds exactly those acknowledged.
      expect(ids.map((id) => balances.get(id))).toEqual(ids.map((id) => load.acked.get(id)));
      expect(existsSync(`${file}.lock`)).toBe(false);
    } finally {
      await stopCli(first);
    }
  });
});
