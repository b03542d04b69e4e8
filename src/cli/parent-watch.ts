/**
 * The CLI goes away with the program that started it, so a test that spawns it (directly, or
 * through npx, which runs it under `npm exec` and a shell) never leaves it holding the port.
 * @module
 */
import { fstatSync, readFileSync } from "node:fs";

/**
 * Whether stdin is a pipe or a socket: how a program starts another. A terminal, /dev/null (a
 * shell's background job, nohup, Docker, systemd) or a file is a start meant to outlive its parent.
 */
export function stdinIsPipe(): boolean {
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}

/** The parent of `pid` as Linux's /proc tells it; undefined elsewhere, or once `pid` is gone. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // `pid (command) state ppid ...`: the command may hold spaces and parentheses.
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

export interface ParentWatch {
  stop(): void;
}

/**
 * Calls `onGone` once, with the reason, when stdin ends (if it is a pipe: a Node parent's end
 * closes when the process it spawned exits, npx included), when the parent process exits (this one
 * is then adopted by another), or when the parent is itself orphaned: the shell `npm exec` runs
 * a command in outlives a killed npx, and waits for its child forever (that check needs /proc,
 * so Linux only). Polled: Node cannot be told that its parent died.
 */
export function watchParent(onGone: (why: string) => void, intervalMs = 1000): ParentWatch {
  const parent = process.ppid;
  const grandparent = parentOf(parent);
  let watching = true;
  const gone = (why: string) => {
    if (!watching) return;
    stop();
    onGone(why);
  };
  const timer = setInterval(() => {
    if (process.ppid !== parent) gone("its parent process exited");
    else if (grandparent !== undefined && parentOf(parent) !== grandparent) gone("the process that started its parent exited");
  }, intervalMs);
  timer.unref();
  const onEnd = () => gone("stdin closed");
  // /dev/null or a file ends at once: only a pipe's end says that the other side went away.
  const stdin = stdinIsPipe() ? process.stdin : undefined;
  stdin?.on("end", onEnd);
  // An unreadable stdin tells nothing about the parent: only its end does.
  stdin?.on("error", () => undefined);
  stdin?.resume();
  function stop() {
    watching = false;
    clearInterval(timer);
    stdin?.off("end", onEnd);
    stdin?.pause();
  }
  return { stop };
}
