/**
 * One process per data file: a lock file beside it (`state.json.lock`) holding its owner's pid,
 * host, start and since when, made exclusively before the data file is read and removed when the
 * simulator closes. A lock whose owner is gone (killed with SIGKILL, say) is taken over at once:
 * on the owner's host a pid no longer alive, or alive as another process than the one that took it,
 * is gone. A lock taken on another host cannot be checked, and is respected.
 * @module
 */
import { randomBytes } from "node:crypto";
import { closeSync, constants, existsSync, fstatSync, linkSync, lstatSync, openSync, readFileSync, readlinkSync, readSync, rmSync, writeFileSync, type Stats } from "node:fs";
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

/**
 * Something at the lock path that is no lock file (a symbolic link, a folder, a named pipe): never
 * read or written through, nor removed; the message says what it is.
 */
export class LockPathError extends Error {
  override readonly name = "LockPathError";
}

/** A lock is about 150 bytes; what is longer is no lock of ours, and read no further. */
const MAX_LOCK_BYTES = 4096;

/** What a file system entry that is neither a regular file nor a link is, in words. */
export function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return "a folder";
  if (stat.isFIFO()) return "a named pipe (FIFO)";
  if (stat.isSocket()) return "a socket";
  return "a device";
}

/** What sits at `path`, in words, when it is not a regular file. */
function describeOther(path: string, stat: Stats): string {
  if (!stat.isSymbolicLink()) return kindOf(stat);
  // The target as the link holds it, without control characters (it is anyone's text).
  // eslint-disable-next-line no-control-regex
  const target = readlinkSync(path).replace(/[\u0000-\u001f\u007f-\u009f]/g, "");
  return `a symbolic link to ${target}${existsSync(path) ? "" : ", which does not exist"}`;
}

const notALock = (path: string, stat: Stats) => new LockPathError(`the lock path ${path} is ${describeOther(path, stat)}, not a lock file loyalty-sim made`);

/**
 * The lock file's text (its first MAX_LOCK_BYTES), or undefined when there is none. Opened without
 * following a link and without waiting (a named pipe would wait for a writer), then checked to be
 * a regular file; anything else is a LockPathError.
 */
function readText(path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = codeOf(error);
    if (code === "ENOENT") return undefined;
    // A link (ELOOP on Linux and macOS, EMLINK on FreeBSD), or a folder where opening one fails.
    if (code === "ELOOP" || code === "EMLINK" || code === "EISDIR") throw notALock(path, lstatSync(path));
    throw error;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw notALock(path, stat);
    const buffer = Buffer.alloc(MAX_LOCK_BYTES);
    const read = readSync(fd, buffer, 0, MAX_LOCK_BYTES, 0);
    return buffer.toString("utf8", 0, read);
  } finally {
    closeSync(fd);
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

  /**
   * The lock of the data file at `dataPath`, or its live owner. Throws a LockPathError for what is
   * no lock file at its path, else only what the file system throws.
   */
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
   * folder gone) counts as held: the write then fails and says why. Something else put at its path
   * (a link, a pipe) is a lock loyalty-sim did not write: null.
   */
  takenBy(): LockOwner | null | undefined {
    try {
      const found = readText(this.path);
      if (found === this.text) return undefined;
      if (found !== undefined) return parseOwner(found);
      if (createExclusively(this.path, this.text)) return undefined;
      return parseOwner(readText(this.path) ?? "");
    } catch (error) {
      return error instanceof LockPathError ? null : undefined;
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
