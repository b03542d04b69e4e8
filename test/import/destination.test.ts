/**
 * import checks `--out` before it sends anything (issue 35, item 11): a folder that does not exist,
 * a path that is a folder or lies below a file, and an existing file that an import did not write
 * (without --force) are usage errors (exit 2) with no request spent; a file an import wrote is
 * replaced whole.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runImportCli } from "../../src/cli/import.js";
import { dir, startSource } from "../support/import.js";

let runs = 0;

/** The command with `--out out` against a stand-in source: exit code, stderr, requests sent. */
async function importTo(out: string, more: string[] = []) {
  const source = startSource({ customers: 0 });
  const said = { out: "", err: "" };
  const io = { out: (t: string) => (said.out += t), err: (t: string) => (said.err += t), progress: () => {} };
  const argv = ["--from", source.credentials.from, "--api-key", source.credentials.apiKey, "--api-secret", source.credentials.apiSecret, "--out", out, "--customers", "1", "--salt", "s", ...more];
  const code = await runImportCli(argv, {}, io, source.deps);
  return { code, err: said.err, requests: source.statuses.length };
}

const usage = (problem: string) => `loyalty-sim import: --out: ${problem}\nRun loyalty-sim import --help for the options.\n`;

describe("issue 35, item 11: import checks --out first", () => {
  it("refuses a folder that does not exist, before any request: exit 2", async () => {
    const missing = join(dir, `missing-${runs++}`);
    const out = join(missing, "shop.json");
    const run = await importTo(out);
    expect([run.code, run.requests]).toEqual([2, 0]);
    expect(run.err).toBe(usage(`the folder ${missing} does not exist: create it, or give a path in a folder that does`));
  });

  it("refuses a path that is a folder, and one below a file, before any request: exit 2", async () => {
    const folder = join(dir, `folder-${runs++}`);
    mkdirSync(folder);
    const isFolder = await importTo(folder);
    expect([isFolder.code, isFolder.requests]).toEqual([2, 0]);
    expect(isFolder.err).toBe(usage(`${folder} is a folder: give the file to write, such as ${join(folder, "shop.json")}`));
    const file = join(dir, `file-${runs++}.txt`);
    writeFileSync(file, "notes");
    const below = await importTo(join(file, "shop.json"));
    expect([below.code, below.requests]).toEqual([2, 0]);
    expect(below.err).toBe(usage(`${file} is not a folder: give a path in a folder that exists`));
  });

  it("refuses to replace a file an import did not write unless --force, before any request", async () => {
    const out = join(dir, `notes-${runs++}.json`);
    writeFileSync(out, '{"mine": true}\n');
    const refused = await importTo(out);
    expect([refused.code, refused.requests]).toEqual([2, 0]);
    expect(refused.err).toBe(usage(`${out} exists and is not a fixture loyalty-sim import wrote, so it was left alone: give another path, or --force to replace it`));
    expect(readFileSync(out, "utf8")).toBe('{"mine": true}\n');
    const forced = await importTo(out, ["--force"]);
    expect(forced.code).toBe(0);
    expect(JSON.parse(readFileSync(out, "utf8")).assumptions.length).toBeGreaterThan(0);
  });

  it("replaces a file an import wrote, whole, without --force", async () => {
    const out = join(dir, `again-${runs++}.json`);
    expect((await importTo(out)).code).toBe(0);
    writeFileSync(out, readFileSync(out, "utf8").replace('"programName": "', '"programName": "Edited '));
    const again = await importTo(out);
    expect(again.code).toBe(0);
    expect(readFileSync(out, "utf8")).not.toContain("Edited");
  });
});
