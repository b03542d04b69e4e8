/**
 * Regression (issue 17, case 12): with the data file unwritable, awards kept answering 200,
 * `/__sim/health` said ok, `--quiet` printed nothing, acknowledged writes were lost at exit, and a
 * failed write left its temporary file behind. Root ignores chmod, so the file is made unwritable
 * the way root cannot overrule: `state.json` replaced by a (non-empty) folder, over which the
 * temporary file cannot be renamed.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { parseConfig } from "../../src/config.js";
import { buildSimulator } from "../../src/simulator/simulator.js";
import type { DataFileFailure } from "../../src/persistence/data-file.js";
import { ensureBuilt, killAll, startCli, stopCli } from "../support/cli.js";

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "loyalty-sim-failed-flush-"));
});
afterAll(async () => {
  await killAll();
  rmSync(dir, { recursive: true, force: true });
});

const main = { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret", "Content-Type": "application/json" };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `done` holds (the test's timeout ends a wait that never does). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await sleep(20);
  }
}

const health = async (origin: string) => {
  const res = await fetch(`${origin}/__sim/health`);
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

/** Makes the data file unwritable: its name taken by a folder. */
function block(file: string): void {
  rmSync(file, { force: true });
  mkdirSync(join(file, "in-the-way"), { recursive: true });
}

describe("a data file that cannot be written", () => {
  it("a failed write rejects and leaves no temporary file (in process)", async () => {
    const folder = mkdtempSync(join(dir, "d-"));
    const file = join(folder, "state.json");
    const failures: DataFileFailure[] = [];
    const sim = buildSimulator(parseConfig({ customers: 2, data: file }), { dataFileHooks: { onFailing: (f) => failures.push(f) } });
    await sim.dataFile!.flush();
    block(file);
    sim.shop.awardStamps(sim.shop.store.data.customers[0]!.id, { stamps: 1 });
    await expect(sim.dataFile!.flush()).rejects.toMatchObject({ code: "EISDIR" });
    // The lock stays: the simulator still has the file open.
    expect(readdirSync(folder).sort()).toEqual(["state.json", "state.json.lock"]);
    expect(sim.dataFile!.failure).toStrictEqual(failures[0]);
    expect(failures).toEqual([{ path: file, error: expect.stringMatching(/^EISDIR: /), since: expect.any(String) }]);
  });

  it("is reported on health (503 degraded) and on stderr under --quiet, retried, cleaned up after, and fails the exit", async (ctx: TestContext) => {
    const folder = mkdtempSync(join(dir, "d-"));
    const file = join(folder, "state.json");
    const cli = await startCli(["--port", "0", "--quiet", "--data", file, "--flush-ms", "50", "--customers", "3"]);
    ctx.onTestFinished(() => stopCli(cli));
    await until(async () => existsSync(file), Boolean);
    const customers = (await (await fetch(`${cli.origin}/rest_api/v1/customers`, { headers: main })).json()) as { data: { id: string; state: string }[] };
    const id = customers.data.find((c) => c.state === "active")!.id;
    const award = (stamps: number) => fetch(`${cli.origin}/rest_api/v1/customers/${id}/stamps/award`, { method: "POST", headers: main, body: JSON.stringify({ stamps }) });

    block(file);
    expect((await award(4)).status).toBe(200);
    const degraded = await until(() => health(cli.origin), (h) => h.status !== 200);
    expect(degraded.status).toBe(503);
    expect(degraded.body).toStrictEqual({
      status: "degraded",
      version: expect.any(String),
      uptimeMs: expect.any(Number),
      dataFile: { path: file, error: expect.stringMatching(/^EISDIR: illegal operation on a directory, rename '.*\.state\.json\.\d+\.[0-9a-f]{8}\.tmp' -> '.*state\.json'$/), since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
    });
    expect(cli.stderr()).toContain(`loyalty-sim: could not write the data file ${file}: EISDIR: illegal operation on a directory`);
    expect(cli.stderr()).toContain(`(failing since ${degraded.body.dataFile.since}; retried every 50 ms; GET /__sim/health answers 503 until a write succeeds)\n`);
    await sleep(200); // several retries
    expect(cli.stderr().match(/could not write the data file/g)).toHaveLength(1); // told once, not every retry

    // Writable again: the next retry writes the award, and health is ok again.
    rmSync(file, { recursive: true });
    const ok = await until(() => health(cli.origin), (h) => h.status === 200);
    expect(ok.body.status).toBe("ok");
    expect(ok.body).not.toHaveProperty("dataFile");
    expect(cli.stderr()).toContain(`loyalty-sim: the data file ${file} is written again (it failed from ${degraded.body.dataFile.since})\n`);
    const saved = JSON.parse(readFileSync(file, "utf8")) as { shops: { data: { customers: { id: string; balance: number }[] } }[] };
    const balance = saved.shops[0]!.data.customers.find((c) => c.id === id)!.balance;

    // Unwritable at exit: the process says so and exits non-zero.
    block(file);
    expect((await award(3)).status).toBe(200);
    cli.kill("SIGTERM");
    expect(await cli.exited).toEqual({ code: 1, signal: null });
    expect(cli.stderr()).toContain(`loyalty-sim: could not write the data file ${file} at exit; changes since its last write are lost: EISDIR: illegal operation on a directory`);
    // The failed writes (retries and the last one) left no temporary file behind.
    expect(readdirSync(folder)).toEqual(["state.json"]);
    expect(balance).toBeGreaterThanOrEqual(4);
  });

  it("a folder replaced by a file is reported the same way", async (ctx: TestContext) => {
    const folder = mkdtempSync(join(dir, "d-"));
    const file = join(folder, "state.json");
    const cli = await startCli(["--port", "0", "--log-level", "silent", "--data", file, "--flush-ms", "50", "--customers", "2"]);
    ctx.onTestFinished(() => stopCli(cli));
    await until(async () => existsSync(file), Boolean);
    rmSync(folder, { recursive: true });
    writeFileSync(folder, "not a folder");
    await fetch(`${cli.origin}/__sim/shops`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    const degraded = await until(() => health(cli.origin), (h) => h.status !== 200);
    expect([degraded.status, degraded.body.status, degraded.body.dataFile.error]).toEqual([503, "degraded", expect.stringMatching(/^ENOTDIR: not a directory, open /)]);
    expect(cli.stderr()).toContain(`loyalty-sim: could not write the data file ${file}: ENOTDIR`);
  });
});
