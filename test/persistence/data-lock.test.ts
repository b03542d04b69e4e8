/**
 * Regression (issue 35, item 13): what sits at the lock path of a `--data` file (`state.json.lock`)
 * and is no lock file: a dangling symbolic link made the start exit 2 saying "other processes keep
 * replacing it", and a named pipe hung the start for good (the read of the lock waited for a
 * writer). Each is now refused at once, exit 2, saying what is there and what to do, untouched.
 * So is a named pipe at the data file's own path, which hung the start the same way.
 */
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataLock } from "../../src/persistence/data-lock.js";
import { ensureBuilt, killAll, runCli } from "../support/cli.js";

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "loyalty-sim-lock-path-"));
});
afterAll(async () => {
  await killAll();
  rmSync(dir, { recursive: true, force: true });
});

const dataIn = () => join(mkdtempSync(join(dir, "d-")), "state.json");
const start = (data: string) => runCli(["--port", "0", "--quiet", "--data", data, "--customers", "1"], {});
const refusal = (data: string, what: string) =>
  `loyalty-sim: Data file ${data} cannot be locked: the lock path ${data}.lock is ${what}, not a lock file loyalty-sim made. ` +
  `loyalty-sim makes its lock file itself and never reads or writes through what is there: remove ${data}.lock (if no loyalty-sim uses the file), or pass another --data file.\n` +
  "Run loyalty-sim --help for the options.\n";

describe("issue 35, item 13: the lock path holds something that is no lock file", () => {
  it("a dangling symbolic link: exit 2 naming where it points, which does not exist; nothing made there", async () => {
    const data = dataIn();
    const target = join(dir, "nowhere", "lock");
    symlinkSync(target, `${data}.lock`);
    const run = await start(data);
    expect([run.code, run.stdout, run.stderr]).toEqual([2, "", refusal(data, `a symbolic link to ${target}, which does not exist`)]);
    expect([readlinkSync(`${data}.lock`), existsSync(target), existsSync(data)]).toEqual([target, false, false]);
  });

  it("a symbolic link to a file: exit 2 naming it; the file is neither read as a lock nor changed", async () => {
    const data = dataIn();
    const target = join(dir, "precious.txt");
    writeFileSync(target, "not a lock\n");
    symlinkSync(target, `${data}.lock`);
    const run = await start(data);
    expect([run.code, run.stderr]).toEqual([2, refusal(data, `a symbolic link to ${target}`)]);
    expect([lstatSync(`${data}.lock`).isSymbolicLink(), readFileSync(target, "utf8")]).toEqual([true, "not a lock\n"]);
  });

  it("a named pipe: exit 2 at once, not a start that waits for a writer forever", async () => {
    const data = dataIn();
    execFileSync("mkfifo", [`${data}.lock`]);
    const run = await start(data);
    expect([run.code, run.signal, run.stderr]).toEqual([2, null, refusal(data, "a named pipe (FIFO)")]);
  });

  it("a folder: exit 2 saying it is one", async () => {
    const data = dataIn();
    mkdirSync(`${data}.lock`);
    const run = await start(data);
    expect([run.code, run.stderr]).toEqual([2, refusal(data, "a folder")]);
  });

  it("a lock replaced by a named pipe while held: no longer this process's, and release leaves the pipe alone", () => {
    const data = dataIn();
    const lock = DataLock.take(data);
    if (!(lock instanceof DataLock)) throw new Error("the lock was not taken");
    expect(lock.takenBy()).toBeUndefined();
    rmSync(`${data}.lock`);
    execFileSync("mkfifo", [`${data}.lock`]);
    expect(lock.takenBy()).toBeNull();
    lock.release();
    expect(lstatSync(`${data}.lock`).isFIFO()).toBe(true);
  });
});

describe("issue 35, item 13: the data file's own path holds something that is no file", () => {
  it("a named pipe: exit 2 at once, saying what it is", async () => {
    const data = dataIn();
    execFileSync("mkfifo", [data]);
    const run = await start(data);
    expect([run.code, run.signal, run.stderr]).toEqual([
      2,
      null,
      `loyalty-sim: Data file ${data} is a named pipe (FIFO), not a file. loyalty-sim left it untouched: move it away, or pass another --data file, to start from the seeded state.\nRun loyalty-sim --help for the options.\n`,
    ]);
    expect(lstatSync(data).isFIFO()).toBe(true);
  });
});
