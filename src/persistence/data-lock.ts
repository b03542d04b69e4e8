/**
 * One process per data file: a lock file beside it (`state.json.lock`) holding its owner's pid,
 * host, start and since when, made exclusively before the data file is read and removed when the
 * simulator closes. A lock whose owner is gone (killed with SIGKILL, say) is taken over at once:
 * on the owner's host a pid no longer alive, or alive as another process than the one that took it,
 * is gone. A lock taken on another host cannot be checked, and is respected.
 * @module
 */
import { randomBytes } from "node:crypto";
import { linkSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";

export interface LockOwner {
  pid: number;
  host: string;
  /** When the lock was taken (ISO). */
  since: string;
  /** When its process started, as the system counts it (Linux's /proc/PID/stat), to tell a pid given again from the owner; null where unknown. */
  start: string | null;
}

/** A process's state and start (ticks since boot) from /proc, or null where there is no /proc or no such process. */
function procStat(pid: number): { state: string; start: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The fields after the command name (which may hold spaces and parentheses): state is field 3, starttime 22.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0] ?? "", start: fields[19] ?? "" };
  } catch {
    return null;
  }
}

const processStart = (pid: number): string | null => procStat(pid)?.start ?? null;

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** Whether the owner's process still runs; true when that cannot be told (another host). */
function isAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true;
  if (owner.pid !== process.pid) {
    try {
      process.kill(owner.pid, 0);
    } catch (error) {
      // EPERM: it runs, as another user.
      if (codeOf(error) === "ESRCH") return false;
    }
  }
  // Alive, or this process: the owner only if it started when the owner did, and not killed
  // already (a zombie its parent has not reaped yet).
  const stat = procStat(owner.pid);
  if (stat === null || owner.start === null) return true;
  return owner.start === stat.start && stat.state !== "Z" && stat.state !== "X";
}

function parseOwner(text: string): LockOwner | null {
  try {
    const owner = JSON.parse(text) as Partial<LockOwner>;
    if (Number.isSafeInteger(owner.pid) && typeof owner.host === "string" && typeof owner.since === "string") {
      return { pid: owner.pid!, host: owner.host, since: owner.since, start: typeof owner.start === "string" ? owner.start : null };
    }
  } catch {
    // Not a lock this program wrote: nobody holds it.
  }
  return null;
}

/** The file's text, or undefined when it does not exist. */
function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if (codeOf(error) === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Makes `path` with `text` unless it exists: written whole to a file of its own first, then linked
 * into place, so no process ever reads a half-written lock. Where links are not supported, an
 * exclusive create.
 */
function createExclusively(path: string, text: string): boolean {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}`);
  try {
    writeFileSync(temp, text, { flag: "wx" });
    linkSync(temp, path);
    return true;
  } catch (error) {
    const code = codeOf(error);
    if (code === "EEXIST") return false;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "ENOSYS") throw error;
  } finally {
    rmSync(temp, { force: true });
  }
  try {
    writeFileSync(path, text, { flag: "wx" });
    return true;
  } catch (error) {
    if (codeOf(error) === "EEXIST") return false;
    throw error;
  }
}

/** The lock file of a data file. */
export const lockPathOf = (dataPath: string): string => `${dataPath}.lock`;

/** Whether the owner is this process (another simulator in it holds the file). */
export const isThisProcess = (owner: LockOwner): boolean => owner.pid === process.pid && owner.host === hostname();

/** Whether the owner runs on this host (so that whether it runs could be checked). */
export const isOnThisHost = (owner: LockOwner): boolean => owner.host === hostname();

export class DataLock {
  private constructor(
    readonly path: string,
    private readonly text: string,
  ) {}

  /** The lock of the data file at `dataPath`, or its live owner. Throws only what the file system throws. */
  static take(dataPath: string): DataLock | LockOwner {
    const path = lockPathOf(dataPath);
    const owner: LockOwner = { pid: process.pid, host: hostname(), since: new Date().toISOString(), start: processStart(process.pid) };
    const text = `${JSON.stringify(owner)}\n`;
    // Each turn either takes the lock, finds a live owner, or clears a gone one's; a few turns
    // cover other processes starting at the same moment.
    for (let turn = 0; turn < 5; turn++) {
      if (createExclusively(path, text)) return new DataLock(path, text);
      const found = readText(path);
      if (found === undefined) continue;
      const holder = parseOwner(found);
      if (holder !== null && isAlive(holder)) return holder;
      // Gone: cleared only if it is still the lock just judged (another process may have replaced it).
      if (readText(path) === found) rmSync(path, { force: true });
    }
    const holder = parseOwner(readText(path) ?? "");
    if (holder === null) throw new Error(`could not take the lock ${path}: other processes keep replacing it`);
    return holder;
  }

  /**
   * Who holds the lock now, when no longer this process (undefined while it does); checked before
   * each write. A lock file removed from under it is made again. A lock that cannot be read (its
   * folder gone) counts as held: the write then fails and says why.
   */
  takenBy(): LockOwner | null | undefined {
    try {
      const found = readText(this.path);
      if (found === this.text) return undefined;
      if (found !== undefined) return parseOwner(found);
      if (createExclusively(this.path, this.text)) return undefined;
      return parseOwner(readText(this.path) ?? "");
    } catch {
      return undefined;
    }
  }

  /** Removes the lock file, if it still is this lock. */
  release(): void {
    try {
      if (readText(this.path) === this.text) rmSync(this.path, { force: true });
    } catch {
      // Its folder is gone: so is the lock.
    }
  }
}
