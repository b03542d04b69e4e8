/**
 * `--out` checked before the import sends anything, so a path it cannot write costs no quota: its
 * folder exists and can be written, the path is not a folder, and an existing file is one an
 * earlier import wrote (replaced whole, the way a fixture is kept up to date) unless `--force`.
 * @module
 */
import { accessSync, closeSync, constants, openSync, readSync, statSync, type Stats } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ImportUsageError } from "./options.js";

/** How every file the import writes begins (`JSON.stringify(fixture, null, 2)`, assumptions first). */
export const WRITTEN_START = '{\n  "assumptions": [';

export function checkDestination(out: string, force: boolean): void {
  const problem = (text: string) => new ImportUsageError(`--out: ${text}`);
  const folder = dirname(resolve(out));
  const shown = dirname(out);
  const at = statOf(folder);
  if (at === undefined) throw problem(`the folder ${shown} does not exist: create it, or give a path in a folder that does`);
  if (!at.isDirectory()) throw problem(`${shown} is not a folder: give a path in a folder that exists`);
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw problem(`the folder ${shown} cannot be written (no permission): give a path in a folder you can write`);
  }
  const existing = statOf(resolve(out));
  if (existing === undefined) return;
  if (existing.isDirectory()) throw problem(`${out} is a folder: give the file to write, such as ${join(out, "shop.json")}`);
  if (!force && !(existing.isFile() && startsAsWritten(out))) {
    throw problem(`${out} exists and is not a fixture loyalty-sim import wrote, so it was left alone: give another path, or --force to replace it`);
  }
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    // ENOTDIR (a file on the way) reads as absent here: the folder check above names it.
    return undefined;
  }
}

/** Only the first bytes are read: the file may be of any size. */
function startsAsWritten(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const head = Buffer.alloc(WRITTEN_START.length);
    const read = readSync(fd, head, 0, head.length, 0);
    return head.subarray(0, read).toString("utf8") === WRITTEN_START;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
