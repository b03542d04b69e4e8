/**
 * Runs the built `loyalty-sim` command (dist/cli/bin.js) as a child process: start it on a real
 * port and wait for its banner, or run it to completion and collect its output.
 * @module
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HANG_MS } from "./patience.js";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const BIN = fileURLToPath(new URL("../../dist/cli/bin.js", import.meta.url));

/** `npm test` builds before vitest; a bare `vitest run` on a fresh clone builds here. */
export function ensureBuilt(): void {
  if (!existsSync(BIN)) execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
}

const running = new Set<ChildProcess>();

// Each start spends ~0.4 s of CPU importing the app. Tests run concurrently, so starts queue for
// one of `cores` slots, held until the banner is out or the process ends.
let freeSlots = Math.max(1, availableParallelism());
const queue: (() => void)[] = [];

async function slot(): Promise<() => void> {
  if (freeSlots > 0) freeSlots--;
  else await new Promise<void>((resolve) => queue.push(resolve));
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const next = queue.shift();
    if (next) next();
    else freeSlots++;
  };
}

export interface CliRun {
  child: ChildProcess;
  /** Signals the process, or its whole process group when it runs another command (npx). */
  kill(signal: NodeJS.Signals): void;
  /** Everything written so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface StartedCli extends CliRun {
  /** `http://host:port`, read from the banner. */
  origin: string;
  banner: string;
}

/** The environment of the child: ours minus every LOYALTY_SIM_* variable, plus `env`. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith("LOYALTY_SIM_")) out[key] = value;
  return { ...out, ...env };
}

/** Another way to run the command: e.g. `npx loyalty-sim` in an installed folder, or the image's CMD. */
export interface SpawnOptions {
  /** Program and first arguments instead of `node dist/cli/bin.js`; it runs in a process group of its own. */
  command?: [string, ...string[]];
  /** Working directory (default: the repository). */
  cwd?: string;
  /** Take the environment as given, without ours. */
  cleanEnv?: boolean;
  /** A pipe we hold (`child.stdin`), as a program that starts another gives, or an open file descriptor; /dev/null by default. */
  stdin?: "pipe" | "ignore" | number;
}

const groups = new Set<ChildProcess>();

function signal(child: ChildProcess, sig: NodeJS.Signals): void {
  // A group outlives its leader when the leader (npx) dies first: signal it until the pipes close.
  if (groups.has(child) && child.pid !== undefined) {
    try {
      process.kill(-child.pid, sig);
    } catch {
      // The group is already gone.
    }
  } else if (child.exitCode === null && child.signalCode === null) child.kill(sig);
}

export function spawnCli(args: string[], env: Record<string, string> = {}, options: SpawnOptions = {}): CliRun {
  const [file, ...first] = options.command ?? [process.execPath, BIN];
  const child = spawn(file, [...first, ...args], {
    cwd: options.cwd ?? ROOT,
    env: options.cleanEnv ? env : childEnv(env),
    stdio: [options.stdin ?? "ignore", "pipe", "pipe"],
    detached: options.command !== undefined,
  });
  running.add(child);
  if (options.command) groups.add(child);
  let out = "";
  let err = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    const end = (code: number | null, signal: NodeJS.Signals | null) => {
      running.delete(child);
      groups.delete(child);
      resolve({ code, signal });
    };
    child.on("close", end);
    // A program that cannot be started (missing, not executable) never closes: report it as an exit.
    child.on("error", (error) => {
      err += `${error.message}\n`;
      end(null, null);
    });
  });
  return { child, kill: (sig) => signal(child, sig), stdout: () => out, stderr: () => err, exited };
}

/** Starts the server and resolves once its whole banner is out (rejects after `timeoutMs`). */
export async function startCli(args: string[], env: Record<string, string> = {}, timeoutMs = HANG_MS, options: SpawnOptions = {}): Promise<StartedCli> {
  const release = await slot();
  const run = spawnCli(args, env, options);
  void run.exited.then(release);
  const banner = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(`no banner within ${timeoutMs} ms`), timeoutMs);
    const check = () => {
      if (/^ {2}Seed: .*\n/m.test(run.stdout())) done(() => resolve(run.stdout()));
    };
    const fail = (why: string) => done(() => reject(new Error(`loyalty-sim ${args.join(" ")}: ${why}\nstdout: ${run.stdout()}\nstderr: ${run.stderr()}`)));
    const done = (then: () => void) => {
      release();
      clearTimeout(timer);
      run.child.stdout!.off("data", check);
      then();
    };
    run.child.stdout!.on("data", check);
    void run.exited.then(({ code, signal }) => fail(`exited (code ${code}, signal ${signal}) before its banner`));
  });
  const match = /listening on (http:\/\/\S+)/.exec(banner);
  if (!match?.[1]) throw new Error(`banner without a URL:\n${banner}`);
  return { ...run, origin: match[1], banner };
}

/** Runs a command that is expected to end by itself (help, version, bad options). */
export async function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = HANG_MS, options: SpawnOptions = {}) {
  const release = await slot();
  const run = spawnCli(args, env, options);
  const timer = setTimeout(() => run.kill("SIGKILL"), timeoutMs);
  const { code, signal } = await run.exited;
  clearTimeout(timer);
  release();
  return { code, signal, stdout: run.stdout(), stderr: run.stderr() };
}

/** Kills one child if it still runs and waits for it to be gone. */
export async function stopCli(run: CliRun): Promise<void> {
  run.kill("SIGKILL");
  await run.exited;
}

/** Kills every child still running (a safety net for afterAll/afterEach). */
export async function killAll(): Promise<void> {
  const children = [...running];
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (!groups.has(child) && (child.exitCode !== null || child.signalCode !== null)) return resolve();
          child.once("close", () => resolve());
          signal(child, "SIGKILL");
        }),
    ),
  );
  running.clear();
}

/** Whether we can listen on `port` of 127.0.0.1 ourselves: nothing holds it any more. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** `promise`, or a rejection naming `what` after `ms`: a guard against a hang, not a speed check. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} after ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * A named pipe opened for reading and writing: given as stdin it is a pipe that never ends,
 * whoever dies, so that only the CLI's parent checks can stop it. Closed when the test finishes.
 */
export function endlessPipe(ctx: { onTestFinished(fn: () => void): void }): number {
  const dir = mkdtempSync(join(tmpdir(), "loyalty-sim-fifo-"));
  execFileSync("mkfifo", [join(dir, "stdin")]);
  const fd = openSync(join(dir, "stdin"), "r+");
  ctx.onTestFinished(() => {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  });
  return fd;
}
