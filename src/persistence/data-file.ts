/**
 * `--data FILE`: every shop's state kept in a JSON file through lowdb and loaded at the next start.
 * Writes are coalesced (at most one per flush interval, only when something changed) and atomic
 * (a temporary file renamed over the old one, so a killed process leaves either the previous or
 * the new file, never half of one). A failing write is reported, retried and cleaned up after.
 * @module
 */
import { randomBytes } from "node:crypto";
import { accessSync, constants, existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { Low, type Adapter } from "lowdb";
import { ShopStore } from "../store/shop-store.js";
import { DataLock, isOnThisHost, isThisProcess, kindOf, LockPathError, lockPathOf, type LockOwner } from "./data-lock.js";
import { readJsonFile, type PieceLimits } from "./json-pieces.js";
import { DATA_FORMAT, DATA_VERSION, type SavedState, type ShopStates, type Snapshot } from "./saved-state.js";
import { MAX_PROBLEMS, stateProblems } from "./state-schema.js";
import { StateText } from "./state-text.js";

export class DataFileError extends Error {
  override readonly name = "DataFileError";

  constructor(
    readonly path: string,
    problem: string,
    advice = "loyalty-sim left it untouched: move it away, or pass another --data file, to start from the seeded state.",
    /** Each field at fault, as `path: message`. */
    readonly problems: string[] = [],
  ) {
    const list = problems.map((p) => `\n  - ${p}`).join("");
    super(problems.length > 0 ? `Data file ${path} ${problem}:${list}\n${advice}` : `Data file ${path} ${problem}. ${advice}`);
  }
}

/** Refuses, at start rather than at the first write, a file whose folder cannot take it. */
function checkWritable(path: string): void {
  const dir = dirname(resolve(path));
  try {
    if (!statSync(dir).isDirectory()) throw new Error("not a directory");
    accessSync(dir, constants.W_OK);
  } catch {
    throw new DataFileError(path, `cannot be written: its folder ${dir} does not exist or is not writable`, "Create the folder (or mount a writable volume there), or pass another --data file.");
  }
}

/** Refuses a file another simulator has open: naming it, since when, and what to do. */
function inUse(path: string, owner: LockOwner): DataFileError {
  if (isThisProcess(owner)) {
    return new DataFileError(path, `is in use by another simulator of this process (pid ${owner.pid}), since ${owner.since}`, "Close that simulator first, or pass another data file.");
  }
  const lock = lockPathOf(path);
  const problem = `is in use by another loyalty-sim: process ${owner.pid} on host ${owner.host}, since ${owner.since} (its lock: ${lock})`;
  const gone = isOnThisHost(owner) ? "" : ` If that process is gone (it ran on another machine or container), delete ${lock}.`;
  return new DataFileError(path, problem, `Stop that process, or pass another --data file.${gone}`);
}

/** The file's lock, or its live owner; a lock the file system refuses is the user's to fix (exit code 2). */
function takeLock(path: string): DataLock | LockOwner {
  try {
    return DataLock.take(path);
  } catch (error) {
    const lock = lockPathOf(path);
    if (error instanceof LockPathError) {
      throw new DataFileError(path, `cannot be locked: ${error.message}`, `loyalty-sim makes its lock file itself and never reads or writes through what is there: remove ${lock} (if no loyalty-sim uses the file), or pass another --data file.`);
    }
    throw new DataFileError(path, `cannot be locked: ${lock} cannot be made (${(error as Error).message})`, `Check that folder's permissions (or remove ${lock} if no loyalty-sim uses the file), or pass another --data file.`);
  }
}

/** Temporary files of writes (this version's, made unique per write, and the single name earlier versions used). */
const isTempOf = (base: string, name: string) =>
  name.startsWith(`.${base}.`) && /^(?:\d+\.[0-9a-f]+\.tmp|tmp|lock\.\d+\.[0-9a-f]+)$/.test(name.slice(base.length + 2));

/** Removes what writes killed half-way left behind: only the lock's holder writes, so none is in use. */
function removeLeftovers(path: string): void {
  const dir = dirname(resolve(path));
  const base = basename(path);
  for (const name of readdirSync(dir)) if (isTempOf(base, name)) rmSync(join(dir, name), { force: true });
}

/**
 * The saved state, or undefined when the file does not exist yet. The whole file is checked (see
 * state-schema.ts) before anything is served from it; `limits` are the piece reader's.
 */
export function readDataFile(path: string, limits?: PieceLimits): SavedState | undefined {
  if (!existsSync(path)) return undefined;
  // Checked before it is opened: opening a named pipe would wait for a writer for ever.
  const stat = statSync(path);
  if (!stat.isFile()) throw new DataFileError(path, `is ${kindOf(stat)}, not a file`);
  let data: unknown;
  try {
    data = readJsonFile(path, limits);
  } catch (error) {
    const reason = (error as Error).message;
    throw new DataFileError(path, error instanceof SyntaxError ? `is not valid JSON (${reason})` : `cannot be read (${reason})`);
  }
  const state = data as Partial<SavedState> | null;
  if (!state || typeof state !== "object" || state.format !== DATA_FORMAT) {
    throw new DataFileError(path, "is not a loyalty-sim data file");
  }
  if (state.version !== DATA_VERSION) {
    throw new DataFileError(path, `was written by another version of loyalty-sim (data version ${String(state.version)}, this one reads ${DATA_VERSION})`);
  }
  const problems = stateProblems(state);
  if (problems.length > 0) {
    const shown = problems.slice(0, MAX_PROBLEMS);
    if (problems.length > shown.length) shown.push(`... and more (the first ${MAX_PROBLEMS} are listed)`);
    throw new DataFileError(path, "is damaged or was edited into a state loyalty-sim cannot serve", undefined, shown);
  }
  return state as SavedState;
}

/** What a completed write contained: crash tests compare a restarted state with the last one. */
export interface FlushInfo {
  path: string;
  shops: number;
  customers: number;
  activities: number;
  ms: number;
}

/** Writes to the file have been failing since `since` (an ISO timestamp of real time), lately with `error`. */
export interface DataFileFailure {
  path: string;
  error: string;
  since: string;
}

export interface DataFileHooks {
  onFlush?(info: FlushInfo): void;
  /** Writes began to fail, or now fail with another error; each interval tries again. */
  onFailing?(failure: DataFileFailure): void;
  /** A write succeeded after the failure. */
  onRecovered?(failure: DataFileFailure): void;
}

/**
 * Writes the chunks to a temporary file and renames it over `path`, so the file is always either
 * the previous or the new one. A failed write (a full disk, a folder gone) removes its temporary
 * file: failing writes retried every interval leave nothing behind.
 */
async function writeAtomically(path: string, chunks: readonly Buffer[]): Promise<void> {
  // A name of its own per write: no process renames another's half-written file into place.
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    await writeFile(temp, chunks);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * lowdb's adapter for the state file: compact JSON written as the chunks StateText keeps between
 * flushes (lowdb's own JSON adapters indent, which doubles the bytes of a large shop, and
 * serialise and encode the whole state every time), written atomically.
 */
class StateFile implements Adapter<Snapshot> {
  readonly #text = new StateText();

  constructor(readonly path: string) {}

  async read(): Promise<Snapshot | null> {
    return readSnapshot(this.path) ?? null;
  }

  write(state: Snapshot): Promise<void> {
    return writeAtomically(this.path, this.#text.chunks(state));
  }
}

/** The file's shops, each in a store of its own; undefined when the file does not exist yet. */
function readSnapshot(path: string): Snapshot | undefined {
  const saved = readDataFile(path);
  return saved && { ...saved, shops: saved.shops.map(({ spec, data }) => ({ spec, store: new ShopStore(data) })) };
}

const emptyState = (): Snapshot => ({ format: DATA_FORMAT, version: DATA_VERSION, savedAt: "", shops: [] });

/** Each shop's store with its change counter as last written: the same again means nothing to write. */
type Written = { store: ShopStore; version: number }[];

/** Keeps the file in step with the shops: a timer flushes when anything changed. */
export class DataFile {
  readonly #db: Low<Snapshot>;
  readonly #lock: DataLock;
  #released = false;
  #timer: NodeJS.Timeout | undefined;
  #written: Written = [];
  #writing: Promise<void> = Promise.resolve();
  #failure: DataFileFailure | undefined;
  #failureKind = "";

  constructor(
    readonly path: string,
    private readonly shops: ShopStates,
    private readonly flushMs: number,
    private readonly hooks: DataFileHooks = {},
  ) {
    checkWritable(path);
    // Taken before the file is read: a second process is refused before it does anything.
    const lock = takeLock(path);
    if (!(lock instanceof DataLock)) throw inUse(path, lock);
    this.#lock = lock;
    removeLeftovers(path);
    this.#db = new Low<Snapshot>(new StateFile(path), emptyState());
  }

  /** Restores the shops the file holds, checked whole first; false when the file does not exist yet. */
  load(): boolean {
    const saved = readSnapshot(this.path);
    if (saved) this.shops.restore(saved.shops);
    return saved !== undefined;
  }

  /** While writes fail: since when and why (GET /__sim/health reports it). */
  get failure(): DataFileFailure | undefined {
    return this.#failure;
  }

  start(): void {
    // A failed write is reported through onFailing and retried at the next tick.
    this.#timer = setInterval(() => this.flush().catch(() => undefined), this.flushMs);
    this.#timer.unref();
  }

  /** Writes the state if it changed since the last write. Concurrent calls queue up. */
  flush(): Promise<void> {
    const write = async () => {
      const shops = this.shops.snapshot();
      const now: Written = shops.map(({ store }) => ({ store, version: store.version }));
      const before = this.#written;
      if (now.length === before.length && now.every((w, i) => w.store === before[i]!.store && w.version === before[i]!.version)) return;
      const started = performance.now();
      this.#db.data = { format: DATA_FORMAT, version: DATA_VERSION, savedAt: new Date().toISOString(), shops };
      // Counted now, not after the write: requests served while the file is written are not in it.
      const customers = shops.reduce((n, s) => n + s.store.customerCount, 0);
      const activities = shops.reduce((n, s) => n + s.store.data.activities.length, 0);
      // The adapter serialises synchronously at the start of write(): the file holds exactly this moment.
      try {
        this.#checkLock();
        await this.#db.write();
      } catch (error) {
        this.#failed(error);
        throw error;
      }
      this.#written = now;
      const failure = this.#failure;
      this.#failure = undefined;
      if (failure) this.hooks.onRecovered?.(failure);
      this.hooks.onFlush?.({ path: this.path, shops: shops.length, customers, activities, ms: Math.round(performance.now() - started) });
    };
    // Chained so writes never overlap; a failed write does not stop later ones.
    const next = this.#writing.then(write);
    this.#writing = next.catch(() => undefined);
    return next;
  }

  #failed(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    // The same fault again (each write names a temporary file of its own) is told once.
    const { code, syscall } = error as NodeJS.ErrnoException;
    const kind = code !== undefined ? `${code} ${syscall ?? ""}` : message;
    if (this.#failure && this.#failureKind === kind) return;
    this.#failureKind = kind;
    this.#failure = { path: this.path, error: message, since: this.#failure?.since ?? new Date().toISOString() };
    this.hooks.onFailing?.(this.#failure);
  }

  /** A lock taken from under this process (its file removed by hand, another process started): no more writes. */
  #checkLock(): void {
    if (this.#released) throw new Error("the simulator was closed: its data file is given up");
    const owner = this.#lock.takenBy();
    if (owner === undefined) return;
    const who = owner === null ? "was replaced by a file loyalty-sim did not write" : `is now held by process ${owner.pid} on host ${owner.host} (since ${owner.since})`;
    throw new Error(`its lock ${this.#lock.path} ${who}: this process no longer writes the file; stop one of the two`);
  }

  /** The last write, then the file is given up to the next process. */
  async stop(): Promise<void> {
    try {
      clearInterval(this.#timer);
      await this.flush();
    } finally {
      this.release();
    }
  }

  /** Gives the file up without writing it (a start that failed after the file was opened). */
  release(): void {
    clearInterval(this.#timer);
    this.#released = true;
    this.#lock.release();
  }
}
