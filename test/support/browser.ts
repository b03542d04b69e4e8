/**
 * A headless Chromium for browser tests, taken from the `@sparticuz/chromium` dev dependency, so
 * `npm ci && npm test` needs no system browser. The package ships the browser brotli-packed; it is
 * unpacked once per package version into the temp folder and reused by every later run.
 * @module
 * @example
 * let browser: Browser;
 * beforeAll(async () => { browser = await launchBrowser(); });
 * afterAll(() => browser?.close());
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import sparticuz from "@sparticuz/chromium";
import { chromium, type Browser } from "playwright-core";
import { ROOT } from "./cli.js";

const run = promisify(execFile);
const packageJson = join(dirname(createRequire(import.meta.url).resolve("@sparticuz/chromium")), "../../package.json");
const { name, version } = JSON.parse(readFileSync(packageJson, "utf8")) as { name: string; version: string };
if (name !== "@sparticuz/chromium") throw new Error(`${packageJson}: expected @sparticuz/chromium, found ${name}`);

/** Where this version's browser lives once unpacked; it only ever appears complete (a rename). */
export const BROWSER_DIR = join(tmpdir(), `loyalty-sim-chromium-${version}`);

// The package's serverless defaults turn off the same-origin policy and mixed-content blocking;
// browser tests check what a web page may do, so the browser must enforce what a user's does.
const LOOSENING = new Set(["--disable-web-security", "--allow-running-insecure-content"]);
const ARGS = [
  ...sparticuz.args.filter((arg) => !LOOSENING.has(arg)),
  // No traffic of its own: tests assert every request a page makes.
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];

let unpacked: Promise<string> | undefined;

/**
 * The package always unpacks into the temp folder and trusts any file already there, even one
 * another process is still writing. So a child unpacks into a private folder (its TMPDIR), which is
 * then renamed into place: test files starting at once in several processes each get a complete
 * browser, and the first rename wins.
 */
async function unpack(): Promise<string> {
  const executable = join(BROWSER_DIR, "chromium");
  if (existsSync(executable)) return executable;
  const staging = mkdtempSync(`${BROWSER_DIR}.part-`);
  try {
    const script = 'import c from "@sparticuz/chromium"; process.stdout.write(await c.executablePath());';
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, env: { ...process.env, TMPDIR: staging } });
    if (stdout !== join(staging, "chromium")) throw new Error(`@sparticuz/chromium unpacked to ${stdout}, not into ${staging}`);
    try {
      renameSync(staging, BROWSER_DIR);
    } catch (error) {
      // Another process renamed its copy first; ours is removed below.
      if (!existsSync(executable)) throw error;
    }
    return executable;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Starts headless Chromium; close it when done. The first launch on a machine unpacks ~200 MB first. */
export async function launchBrowser(): Promise<Browser> {
  unpacked ??= unpack().catch((error: unknown) => {
    unpacked = undefined;
    throw error;
  });
  return chromium.launch({ executablePath: await unpacked, args: ARGS, headless: true });
}
