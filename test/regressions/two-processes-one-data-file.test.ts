/**
 * Regression (issue 26, case 2): two processes on one `--data` file wrote through the same
 * `.state.json.tmp`, one renaming the other's half-written file into place (after a SIGKILL at such
 * a moment the restart exited 2 with every shop lost), and otherwise overwrote each other's changes.
 * Now the file is locked for the life of the process (`state.json.lock`): a second process is
 * refused at start, naming the file and the other process; a clean exit gives the lock up; a lock
 * whose process was killed is taken over at once; each write has a temporary file of its own.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { parseConfig } from "../../src/config.js";
import { startSimulator } from "../../src/index.js";
import { buildSimulator } from "../../src/simulator/simulator.js";
import { ensureBuilt, killAll, runCli, startCli, stopCli } from "../support/cli.js";

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "loyalty-sim-two-"));
});
afterAll(async () => {
  await killAll();
  rmSync(dir, { recursive: true, force: true });
});

const dataIn = () => join(mkdtempSync(join(dir, "d-")), "state.json");
const args = (file: string) => ["--port", "0", "--quiet", "--data", file, "--flush-ms", "50", "--customers", "2"];
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
type Lock = { pid: number; host: string; since: string; start: string | null };
const lockOf = (file: string) => JSON.parse(readFileSync(`${file}.lock`, "utf8")) as Lock;

describe("issue 26, case 2: two processes on one --data file corrupt it", () => {
  it("a second CLI on a file in use exits 2 naming the file and the other process, and touches nothing", async (ctx: TestContext) => {
    const file = dataIn();
    const first = await startCli(args(file));
    ctx.onTestFinished(() => stopCli(first));
    while (!existsSync(file)) await new Promise((r) => setTimeout(r, 10));
    const lock = lockOf(file);
    expect(lock).toEqual({ pid: first.child.pid, host: hostname(), since: expect.stringMatching(ISO), start: expect.any(String) });
    const before = readFileSync(file);

    const second = await runCli(args(file));
    expect([second.code, second.stdout]).toEqual([2, ""]);
    expect(second.stderr).toBe(
      `loyalty-sim: Data file ${file} is in use by another loyalty-sim: process ${first.child.pid} on host ${hostname()}, since ${lock.since} (its lock: ${file}.lock). ` +
        "Stop that process, or pass another --data file.\nRun loyalty-sim --help for the options.\n",
    );
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(lockOf(file)).toEqual(lock);
    expect(readdirSync(join(file, "..")).sort()).toEqual(["state.json", "state.json.lock"]);
    expect((await fetch(`${first.origin}/__sim/health`)).status).toBe(200);
  });

  it("a clean exit (SIGTERM) gives the lock up: the next start takes the file", async () => {
    const file = dataIn();
    const first = await startCli(args(file));
    first.kill("SIGTERM");
    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect(readdirSync(join(file, ".."))).toEqual(["state.json"]);
    const next = await startCli(args(file));
    try {
      expect(next.banner).toContain(`(restored from ${file})`);
      expect(lockOf(file).pid).toBe(next.child.pid);
    } finally {
      await stopCli(next);
    }
  });

  it("the lock of a process killed with SIGKILL is taken over at once, with what its writes left behind", async () => {
    const file = dataIn();
    const first = await startCli(args(file));
    while (!existsSync(file)) await new Promise((r) => setTimeout(r, 10));
    await stopCli(first); // SIGKILL
    expect(lockOf(file).pid).toBe(first.child.pid);
    // What writes killed half-way leave: this version's temporary files, and earlier versions' one.
    for (const leftover of [`.state.json.${first.child.pid}.0a1b2c3d.tmp`, ".state.json.tmp"]) writeFileSync(join(file, "..", leftover), '{"half');
    const next = await startCli(args(file));
    try {
      expect(next.banner).toContain(`(restored from ${file})`);
      expect(lockOf(file)).toMatchObject({ pid: next.child.pid, host: hostname() });
      expect(readdirSync(join(file, "..")).sort()).toEqual(["state.json", "state.json.lock"]);
    } finally {
      await stopCli(next);
    }
  });

  it("in process: a second simulator on the file is refused until the first closes; a failed start gives the file up", async () => {
    const data = dataIn();
    const first = await startSimulator({ data, flushMs: 50 });
    const since = lockOf(data).since;
    await expect(startSimulator({ data })).rejects.toMatchObject({
      name: "DataFileError",
      message: `Data file ${data} is in use by another simulator of this process (pid ${process.pid}), since ${since}. Close that simulator first, or pass another data file.`,
    });
    await first.close();
    expect(existsSync(`${data}.lock`)).toBe(false);
    // A start that fails after taking the lock (a scenario file that does not exist) gives it up.
    await expect(startSimulator({ data, scenario: [join(dir, "missing.yaml")] })).rejects.toMatchObject({ name: "ScenarioError" });
    const again = await startSimulator({ data });
    await again.close();
  });

  it("a process whose lock was taken from under it (its file deleted, another process started) writes no more, and says so", async () => {
    const data = dataIn();
    const first = buildSimulator(parseConfig({ customers: 2, data }));
    await first.dataFile!.flush();
    rmSync(`${data}.lock`);
    const second = buildSimulator(parseConfig({ customers: 2, data }));
    const written = readFileSync(data);
    first.shop.awardStamps(first.shop.store.data.customers[0]!.id, { stamps: 1 });
    await expect(first.dataFile!.flush()).rejects.toThrow(
      `its lock ${data}.lock is now held by process ${process.pid} on host ${hostname()} (since ${lockOf(data).since}): this process no longer writes the file; stop one of the two`,
    );
    expect(first.dataFile!.failure?.error).toMatch(/^its lock .* is now held by process/);
    expect(readFileSync(data).equals(written)).toBe(true);
    second.dataFile!.release();
    first.dataFile!.release();
  });

  it("a lock the file system refuses is a DataFileError saying what to do", async () => {
    // A name the file system takes, whose lock's temporary name (".NAME.lock.PID.HEX") is too long.
    // (A folder at the lock path is refused apart: test/persistence/data-lock.test.ts.)
    const data = join(dirname(dataIn()), `${"s".repeat(240)}.json`);
    await expect(startSimulator({ data })).rejects.toMatchObject({
      name: "DataFileError",
      message: expect.stringMatching(
        new RegExp(`^Data file ${data} cannot be locked: ${data}\\.lock cannot be made \\(ENAMETOOLONG: .*\\)\\. Check that folder's permissions \\(or remove ${data}\\.lock if no loyalty-sim uses the file\\), or pass another --data file\\.$`),
      ),
    });
  });

  it("each write has a temporary file of its own", async () => {
    const data = dataIn();
    const sim = buildSimulator(parseConfig({ customers: 2, data }));
    // A folder where the file goes: every rename fails and names its temporary file.
    mkdirSync(join(data, "in-the-way"), { recursive: true });
    const temps: string[] = [];
    for (const stamps of [1, 2]) {
      sim.shop.awardStamps(sim.shop.store.data.customers[0]!.id, { stamps });
      const error = (await sim.dataFile!.flush().catch((e: unknown) => e)) as Error;
      temps.push(/rename '.*\/(\.state\.json\.[^']*)'/.exec(error.message)![1]!);
    }
    expect(temps[0]).toMatch(new RegExp(`^\\.state\\.json\\.${process.pid}\\.[0-9a-f]{8}\\.tmp$`));
    expect(temps[1]).toMatch(new RegExp(`^\\.state\\.json\\.${process.pid}\\.[0-9a-f]{8}\\.tmp$`));
    expect(temps[0]).not.toBe(temps[1]);
    sim.dataFile!.release();
  });
});
