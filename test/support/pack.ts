/**
 * The npm package as a consumer gets it, packed once per test run and shared by the test files
 * that install it (package.test.ts, example-app.test.ts): `npm pack` (its `prepare` builds) in a
 * copy of the files a git clone would hold, so a git dependency's build is checked too, and the
 * build never rewrites the dist/ other test files are running.
 * @module
 */
import { execFile, execFileSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { promisify } from "node:util";
import { inject } from "vitest";
import { ROOT } from "./cli.js";
import { NPM_MS } from "./patience.js";

declare module "vitest" {
  interface ProvidedContext {
    /** A folder of this run where the first file that needs the package packs it (pack-setup.ts). */
    packDir?: string;
  }
}

export const run = promisify(execFile);

/** Our environment without npm's or vitest's own variables (`npm test` sets npm_config_local_prefix, vitest VITEST_*...). */
export function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(npm_|INIT_CWD$|LOYALTY_SIM_|VITEST|TINYPOOL|TEST$|NODE_ENV$|NODE_OPTIONS$)/i.test(key)) env[key] = value;
  }
  return env;
}

export const npm = (args: string[], cwd: string, timeout = NPM_MS) => run("npm", args, { cwd, env: cleanEnv(), timeout, maxBuffer: 64 * 1024 * 1024 });

/** The files a clone would hold: tracked or not ignored, as they are now; everything but build outputs without git. */
function copySources(to: string): void {
  let files: string[] | undefined;
  try {
    files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 }).split("\0").filter(Boolean);
  } catch {
    // Not a git checkout (an unpacked source archive): every file but the build outputs.
  }
  if (!files) {
    const skip = new Set(["node_modules", "dist", ".git", "coverage"]);
    cpSync(ROOT, to, { recursive: true, filter: (src) => !skip.has(relative(ROOT, src).split(/[\\/]/)[0]!) && !src.endsWith(".tgz") });
    return;
  }
  for (const file of files) {
    if (!existsSync(join(ROOT, file))) continue; // deleted, not yet committed
    if (!statSync(join(ROOT, file)).isFile()) continue; // a worktree's node_modules, linked: git lists the link
    mkdirSync(dirname(join(to, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(to, file));
  }
}

async function pack(dir: string): Promise<string> {
  const copy = join(dir, "repo");
  copySources(copy);
  // The dev dependencies `prepare` needs to build (tsc), without a second install.
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"), "dir");
  mkdirSync(join(dir, "out"));
  await npm(["pack", "--pack-destination", join(dir, "out")], copy);
  const packed = readdirSync(join(dir, "out"));
  if (packed.length !== 1) throw new Error(`npm pack made ${packed.join(", ") || "nothing"}`);
  return join(dir, "out", packed[0]!);
}

/**
 * The tarball's path. The first caller of a run packs (in `packDir`, taken with a lock folder);
 * the others wait for its answer. Without the global setup, each caller packs for itself.
 */
export async function packedTarball(): Promise<string> {
  const dir = inject("packDir") ?? mkdtempSync(join(tmpdir(), "loyalty-sim-pack-"));
  const answer = join(dir, "tarball.json");
  try {
    mkdirSync(join(dir, "lock"));
  } catch {
    return waitForPack(answer);
  }
  let result: { tarball?: string; error?: string };
  try {
    result = { tarball: await pack(dir) };
  } catch (error) {
    result = { error: error instanceof Error ? error.message : String(error) };
  }
  writeFileSync(`${answer}.tmp`, JSON.stringify(result));
  renameSync(`${answer}.tmp`, answer);
  if (result.error !== undefined) throw new Error(`npm pack failed: ${result.error}`);
  return result.tarball!;
}

async function waitForPack(answer: string): Promise<string> {
  for (let waited = 0; !existsSync(answer); waited += 250) {
    if (waited > NPM_MS) throw new Error("another test file took the pack lock and never answered");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const result = JSON.parse(readFileSync(answer, "utf8")) as { tarball?: string; error?: string };
  if (result.error !== undefined) throw new Error(`npm pack failed (in another test file): ${result.error}`);
  return result.tarball!;
}
