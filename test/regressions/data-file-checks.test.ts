/**
 * Regression (issue 17, cases 11 and 2): a `--data` file was checked only on the surface. A file
 * with no shops crashed with a stack trace (exit 1), one without `activities` threw a TypeError,
 * one without `program` started and answered 500 to every call, an edited balance or duplicate
 * ids loaded and broke balance = sum of ledger, and dates outside the clock's range were served
 * as 500s forever. Each is now refused at start: exit 2, the field named, the file untouched.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config.js";
import { buildSimulator } from "../../src/simulator/simulator.js";
import { ensureBuilt, killAll, runCli, startCli, stopCli } from "../support/cli.js";

type Json = any;
let dir: string;
/** A real file, as the server writes it: two shops, seeded customers with ledgers and codes. */
let written: Json;

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "loyalty-sim-checks-"));
  const file = join(dir, "seeded.json");
  const sim = buildSimulator(parseConfig({ customers: 6, seed: 4, data: file }));
  sim.engine.addShop({ ...sim.engine.spec("1")!, id: "2", seed: 9, access: { ...sim.engine.spec("1")!.access, apiKey: "second" } });
  await sim.dataFile!.flush();
  written = JSON.parse(readFileSync(file, "utf8"));
});
afterAll(async () => {
  await killAll();
  rmSync(dir, { recursive: true, force: true });
});

/** The written file with one edit. */
function edited(edit: (state: Json) => void): Json {
  const state = structuredClone(written);
  edit(state);
  return state;
}
const data = (state: Json, shop = 0) => state.shops[shop].data;
/** A customer of shop 1 with a ledger of at least two entries. */
const withLedger = (state: Json) => data(state).customers.findIndex((c: Json) => data(state).activities.filter((a: Json) => a.customerId === c.id).length >= 2);

const OUT_OF_RANGE = "must be an instant (epoch ms) from 1970-01-01T00:00:00+00:00 to 9999-12-31T23:59:59+00:00";

/** The edited file, and the line naming its problem. */
const cases: [string, () => { state: Json; line: string }][] = [
  ["no shops", () => ({ state: { format: "loyalty-sim-state", version: 1, savedAt: "", shops: [] }, line: "shops: needs at least one shop" })],
  ["no activities", () => ({ state: edited((s) => delete data(s).activities), line: "shops[0].data.activities: required" })],
  ["no program", () => ({ state: edited((s) => delete data(s, 1).program), line: "shops[1].data.program: required" })],
  [
    "an edited balance",
    () => {
      const c = withLedger(written);
      const { balance } = data(written).customers[c];
      return { state: edited((s) => (data(s).customers[c].balance += 5)), line: `shops[0].data.customers[${c}].balance: is ${balance + 5}, but the customer's ledger sums to ${balance}` };
    },
  ],
  [
    "a duplicate customer id",
    () => ({ state: edited((s) => (data(s).customers[2].id = data(s).customers[1].id)), line: `shops[0].data.customers[2].id: duplicate customer id ${data(written).customers[1].id}` }),
  ],
  ["an activity dated in the year 33658", () => ({ state: edited((s) => (data(s).activities[3].createdAt = 1e15)), line: `shops[0].data.activities[3].createdAt: ${OUT_OF_RANGE}` })],
  ["a customer created before 1970", () => ({ state: edited((s) => (data(s, 1).customers[0].createdAt = -1)), line: `shops[1].data.customers[0].createdAt: ${OUT_OF_RANGE}` })],
  ["two shops with one API key", () => ({ state: edited((s) => (s.shops[1].spec.access.apiKey = "sim_key")), line: "shops[1].spec.access.apiKey: is also shops[0]'s API key" })],
];

describe("a data file that cannot be served stops the start with exit 2, naming the field", () => {
  it.each(cases)("%s", async (_, make) => {
    const { state, line } = make();
    const file = join(mkdtempSync(join(dir, "case-")), "state.json");
    const text = JSON.stringify(state);
    writeFileSync(file, text);
    const { mtimeMs } = statSync(file);
    const result = await runCli(["--port", "0", "--data", file]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`loyalty-sim: Data file ${file} is damaged or was edited into a state loyalty-sim cannot serve:\n`);
    expect(result.stderr).toContain(`\n  - ${line}\n`);
    expect(result.stderr).toContain("\nloyalty-sim left it untouched: move it away, or pass another --data file, to start from the seeded state.\n");
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(file, "utf8")).toBe(text);
    expect(statSync(file).mtimeMs).toBe(mtimeMs);
  });

  it("the file as written (unedited) starts", async () => {
    const file = join(mkdtempSync(join(dir, "case-")), "state.json");
    writeFileSync(file, JSON.stringify(written));
    const cli = await startCli(["--port", "0", "--data", file]);
    try {
      expect(cli.banner).toContain(`(restored from ${file})`);
      expect((await fetch(`${cli.origin}/__sim/health`)).status).toBe(200);
    } finally {
      await stopCli(cli);
    }
  });
});
