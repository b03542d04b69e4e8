/**
 * `loyalty-sim import` as a user runs it: the built command, a simulator on a real port standing in
 * for production, credentials from the environment; then the written file served by the built
 * command too.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { HELP } from "../../src/cli/args.js";
import { IMPORT_HELP } from "../../src/cli/import.js";
import { ensureBuilt, runCli, startCli, stopCli } from "../support/cli.js";
import { dir, MARKED, sourceFixture, writeFixture } from "../support/import.js";

type Json = Record<string, any>;
const KEY = "live_key_cli_5e6f7a8b";
const SECRET = "live_secret_cli_9c0d1e2f";

beforeAll(() => ensureBuilt());

async function get(origin: string, path: string, headers: Record<string, string>): Promise<Json> {
  const res = await fetch(`${origin}/rest_api/v1${path}`, { headers });
  expect(res.status).toBe(200);
  return (await res.json()) as Json;
}

describe("issue 30: loyalty-sim import, the built command", () => {
  it("copies a shop on a real port into a fixture the command serves, printing what it assumed, no secret anywhere", async () => {
    const fixture = writeFixture(sourceFixture((file) => (file.access = { ...file.access, apiKey: KEY, apiSecret: SECRET })));
    const source = await startCli(["--port", "0", "--fixtures", fixture, "--customers", "5", "--seed", "1"]);
    const out = join(dir, "cli-imported.json");
    try {
      const run = await runCli(["import", "--from", source.origin, "--out", out, "--customers", "all", "--salt", "cli salt 1"], { LOYALTY_SIM_IMPORT_API_KEY: KEY, LOYALTY_SIM_IMPORT_API_SECRET: SECRET });
      expect(run.code).toBe(0);
      // Off a terminal, a progress line every few seconds at most (the first one, and another only on a slow machine).
      expect(run.stderr).toMatch(/^read the program \(5 requests\)\n(read \d of 9 customers \(\d+ requests\)\n)?$/);
      expect(run.stdout).toMatch(new RegExp(`^loyalty-sim import: wrote ${out}: the program and 9 customers, in 24 requests\\nAssumed \\(production does not show these; the file's "assumptions" lists them, edit the fields they name\\):\\n`));
      expect(run.stdout).toContain('\n  shop.codePrefix = "LOYAL": 5 of the 5 issued codes read start with it\n');
      expect(run.stdout).toContain(`\nServe it: loyalty-sim --fixtures ${out}\n`);
      const text = readFileSync(out, "utf8");
      for (const said of [run.stdout, run.stderr, text]) {
        for (const secret of [KEY, SECRET, "cli salt 1"]) expect(said).not.toContain(secret);
      }
      expect(text).not.toMatch(/marked/i);
      for (const code of MARKED.codes) expect(text).not.toContain(code);

      const imported = await startCli(["--port", "0", "--fixtures", out, "--customers", "0"]);
      try {
        const sourceAuth = { "X-Api-Key": KEY, "X-Api-Secret": SECRET };
        const simAuth = { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret" };
        expect((await get(imported.origin, "/rewards", simAuth)).data).toEqual((await get(source.origin, "/rewards", sourceAuth)).data);
        const [a, b] = [(await get(source.origin, "/customers/7000000000001", sourceAuth)).data, (await get(imported.origin, "/customers/7000000000001", simAuth)).data];
        expect([b.stampBalance, b.cards, b.vipTierName, b.state]).toEqual([a.stampBalance, a.cards, a.vipTierName, a.state]);
        expect(b.firstName).not.toBe(a.firstName);
      } finally {
        await stopCli(imported);
      }
    } finally {
      await stopCli(source);
    }
  });

  it("answers --help with its own options, and the main help names it", async () => {
    const help = await runCli(["import", "--help"]);
    expect([help.code, help.stdout, help.stderr]).toEqual([0, IMPORT_HELP, ""]);
    expect(HELP).toContain("\n       loyalty-sim import [options]   copy your shop from production into a fixture: loyalty-sim import --help\n");
  });
});
