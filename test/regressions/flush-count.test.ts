/**
 * Regression (found by test/robustness/crash.test.ts, CRASH_SEED=139434492): the "data file
 * written" report counted activities after the write had finished, so awards served while the
 * file was being written were reported as saved although the file did not hold them. A crash test
 * that trusts the report then saw fewer activities in the file than the report claimed.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { parseConfig } from "../../src/config.js";
import { buildSimulator } from "../../src/simulator/simulator.js";
import type { FlushInfo } from "../../src/persistence/data-file.js";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it("reports the activities the file holds, not those awarded while it was being written", async () => {
  dir = mkdtempSync(join(tmpdir(), "loyalty-sim-flush-"));
  const file = join(dir, "state.json");
  const reports: FlushInfo[] = [];
  const sim = buildSimulator(parseConfig({ customers: 3, seed: 2, data: file }), { dataFileHooks: { onFlush: (info) => reports.push(info) } });
  const shop = sim.shop;
  const customer = shop.store.data.customers[0]!;
  const before = shop.store.data.activities.length;

  const writing = sim.dataFile!.flush();
  // By the next check phase the state is serialised and the file I/O (open, write, rename) is in
  // flight: an award served now is not in this file.
  await new Promise<void>((resolve) => setImmediate(() => {
    shop.awardStamps(customer.id, { stamps: 1 });
    resolve();
  }));
  await writing;

  const saved = JSON.parse(readFileSync(file, "utf8")) as { shops: { data: { activities: unknown[] } }[] };
  expect(saved.shops[0]!.data.activities).toHaveLength(before);
  expect(reports).toHaveLength(1);
  expect(reports[0]!.activities).toBe(before);
  expect(shop.store.data.activities.length).toBeGreaterThan(before); // the award (and any tier change it caused)
});
