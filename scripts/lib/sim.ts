/**
 * What `npm run bench` and `npm run soak` share: child processes on loopback (the built CLI and
 * others), waiting for them to answer, stopping them, and reading their memory.
 * @module
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

export const ROOT = new URL("../..", import.meta.url).pathname;
export const BIN = join(ROOT, "dist/cli/bin.js");
export const AUTH = { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret" };

/** Every child started here; killed when the script ends or is interrupted. */
const children: ChildProcess[] = [];

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts a child with its output drained (read it with your own "data" listeners), in a process
 * group of its own so that stopping it stops what it started too (`npx` leaves its command running
 * on SIGTERM, holding our pipes open and the script alive).
 */
export function start(cmd: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  child.stdout!.resume();
  child.stderr!.resume();
  children.push(child);
  return child;
}

/** Polls `url` until it answers 2xx; returns the milliseconds it took. */
export async function waitFor(url: string, init: RequestInit = {}, timeoutMs = 60_000): Promise<number> {
  const started = performance.now();
  for (;;) {
    try {
      const res = await fetch(url, init);
      await res.arrayBuffer();
      if (res.ok) return performance.now() - started;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > timeoutMs) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Signals a child's whole process group (see start). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // the group is gone already
  }
}

/** SIGTERMs a child's process group; resolves once the child has exited. */
export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    signalGroup(child, "SIGTERM");
  });
}

/** SIGKILLs the process group of every child started here that is still running. */
export function killChildren(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) signalGroup(child, "SIGKILL");
}

/** Kills the children on exit and on Ctrl-C / SIGTERM (then exits 130 / 143). */
export function killChildrenOnExit(): void {
  process.once("exit", killChildren);
  for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping`);
      killChildren();
      process.exit(code);
    });
  }
}

function procStatusMb(pid: number, field: "VmRSS" | "VmHWM"): number | undefined {
  const file = `/proc/${pid}/status`;
  if (!existsSync(file)) return undefined;
  const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(file, "utf8"))?.[1];
  return kb === undefined ? undefined : Number(kb) / 1024;
}

/** CPU time a process has used so far (user + system, every thread), in µs; undefined off Linux. */
export function cpuMicros(pid: number): number | undefined {
  const file = `/proc/${pid}/stat`;
  if (!existsSync(file)) return undefined;
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th,
  // in clock ticks (USER_HZ, 100 on Linux).
  const stat = readFileSync(file, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticksPerSecond = 100;
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / ticksPerSecond;
}

/** Peak resident memory of a process (Linux), in MB. */
export function peakRssMb(pid: number): number {
  return procStatusMb(pid, "VmHWM") ?? 0;
}

/** Current resident memory of a process, in MB (/proc on Linux, else `ps`). */
export function rssMb(pid: number): number {
  return procStatusMb(pid, "VmRSS") ?? Number(execFileSync("ps", ["-o", "rss=", "-p", String(pid)], { encoding: "utf8" }).trim()) / 1024;
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export interface StartedSim {
  child: ChildProcess;
  /** Origin, e.g. http://127.0.0.1:40123 (the API is under /rest_api/v1). */
  url: string;
  /** Process start to the first 200 from /__sim/health. */
  startupMs: number;
}

/**
 * Starts the built CLI on a free port (`--port 0`, the URL read from its banner) with the rate
 * limit off and, unless `quiet: false`, no log; resolves once /__sim/health answers. `nodeArgs`
 * go to node itself (`--trace-gc`, which NODE_OPTIONS does not take).
 */
export async function startSim(args: string[], { quiet = true, nodeArgs = [] }: { quiet?: boolean; nodeArgs?: string[] } = {}): Promise<StartedSim> {
  const started = performance.now();
  const child = start(process.execPath, [...nodeArgs, BIN, "--port", "0", "--rate-limit", "off", ...(quiet ? ["--quiet"] : []), ...args]);
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    let err = "";
    const onOut = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        child.stdout!.off("data", onOut);
        child.stderr!.off("data", onErr);
        child.off("exit", onExit);
        resolve(m[1]!);
      }
    };
    const onExit = (code: number | null) => reject(new Error(`loyalty-sim exited with ${code} before listening:\n${out}${err}`));
    const onErr = (chunk: Buffer) => void (err += chunk.toString());
    child.stdout!.on("data", onOut);
    child.stderr!.on("data", onErr);
    child.once("exit", onExit);
  });
  await waitFor(`${url}/__sim/health`);
  return { child, url, startupMs: performance.now() - started };
}

/** Writes `bench/<name>` (stamped with the time and Node version); returns its path from the root. */
export function writeBenchResult(name: string, result: Record<string, unknown>): string {
  mkdirSync(join(ROOT, "bench"), { recursive: true });
  writeFileSync(join(ROOT, "bench", name), `${JSON.stringify({ at: new Date().toISOString(), node: process.version, ...result }, null, 2)}\n`);
  return `bench/${name}`;
}
