/**
 * `loyalty-sim scenarios add` against a simulator on a real port, as a CI job loads its own files
 * into a service container: YAML and JSON files added in order and then answering; the simulator's
 * refusal shown with exit 1; a bad file, or no URL, exit 2 with nothing sent; nothing listening,
 * exit 1 naming the URL.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, killAll, portIsFree, ROOT, runCli, startCli, stopCli, type StartedCli } from "./support/cli.js";

const AUTH = { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret" };
let cli: StartedCli;
let dir: string;
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
const names = async (apiKey?: string) =>
  ((await (await fetch(`${cli.origin}/__sim/scenarios`, { headers: apiKey ? { "X-Api-Key": apiKey } : {} })).json()) as { scenarios: { name: string; owner: string }[] }).scenarios.filter((s) => s.owner === "this shop").map((s) => s.name);

beforeAll(() => ensureBuilt());
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "loyalty-sim-scenarios-add-"));
  cli = await startCli(["--port", "0", "--customers", "3", "--quiet", "--max-scenario-rules", "2"]);
});
afterEach(async () => {
  await fetch(`${cli.origin}/__sim/scenarios`, { method: "DELETE" });
});
afterAll(async () => {
  if (cli) await stopCli(cli);
  await killAll();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("loyalty-sim scenarios add", () => {
  it("adds YAML and JSON files in order, each then answering, and says what it added", async () => {
    const shipped = join(ROOT, "scenarios/errors/plan-upgrade-required.yaml");
    const json = file("slow-shop.json", JSON.stringify({ name: "no-tiers", rules: [{ match: { operation: "listTiers" }, respond: { error: "PLAN_UPGRADE_REQUIRED" } }, { match: { operation: "getTier" }, respond: { error: "TIER_NOT_FOUND" } }] }));
    const run = await runCli(["scenarios", "add", "--url", cli.origin, shipped, json]);
    expect(run).toEqual({
      code: 0,
      signal: null,
      stdout: `added scenario error-plan-upgrade-required (1 rule) from ${shipped}\nadded scenario no-tiers (2 rules) from ${json}\n`,
      stderr: "",
    });
    // The simulator tries the last added first.
    expect(await names()).toEqual(["no-tiers", "error-plan-upgrade-required"]);
    const tiers = await fetch(`${cli.origin}/rest_api/v1/tiers`, { headers: AUTH });
    expect([tiers.status, ((await tiers.json()) as { error: { code: string } }).error.code]).toEqual([403, "PLAN_UPGRADE_REQUIRED"]);
  });

  it("takes the URL from LOYALTY_SIM_URL (as the GitHub Action exports it) and a shop by --api-key", async () => {
    const shop = (await (await fetch(`${cli.origin}/__sim/shops`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ customers: 1 }) })).json()) as { apiKey: string };
    const one = file("one.yaml", "name: only-here\nrules:\n  - match: { operation: getShop }\n    respond: { error: INTERNAL_ERROR }\n");
    const run = await runCli(["scenarios", "add", "--api-key", shop.apiKey, one], { LOYALTY_SIM_URL: cli.origin });
    expect([run.code, run.stdout, run.stderr]).toEqual([0, `added scenario only-here (1 rule) from ${one}\n`, ""]);
    expect([await names(shop.apiKey), await names()]).toEqual([["only-here"], []]);
  });

  it("shows the simulator's refusal (a limit of its own) and exits 1; the files before it stay added", async () => {
    const good = file("good.yaml", "name: fine\nrules:\n  - match: { operation: getShop }\n    respond: { error: INTERNAL_ERROR }\n");
    const big = file("big.yaml", `name: three-rules\nrules:\n${"  - match: { operation: getShop }\n    respond: { error: INTERNAL_ERROR }\n".repeat(3)}`);
    const run = await runCli(["scenarios", "add", "--url", cli.origin, good, big]);
    expect([run.code, run.stdout]).toEqual([1, `added scenario fine (1 rule) from ${good}\n`]);
    expect(run.stderr).toBe(
      `loyalty-sim scenarios: ${big} was not added (the 1 before it stay added): POST /__sim/scenarios: 422 VALIDATION_ERROR: The scenario has 3 rules, over the limit of 2 (raise it with --max-scenario-rules or LOYALTY_SIM_MAX_SCENARIO_RULES) (body rules: The scenario has 3 rules, over the limit of 2 (raise it with --max-scenario-rules or LOYALTY_SIM_MAX_SCENARIO_RULES))\n`,
    );
    expect(await names()).toEqual(["fine"]);
  });

  it("a file that is not a valid scenario: exit 2 naming the file and field, nothing sent", async () => {
    const good = file("first.yaml", "name: first\nrules:\n  - respond: { error: INTERNAL_ERROR }\n");
    const bad = file("bad.yaml", "name: bad\nrules:\n  - respond: { error: NO_SUCH_CODE }\n");
    const run = await runCli(["scenarios", "add", "--url", cli.origin, good, bad, join(dir, "missing.json")]);
    expect([run.code, run.stdout]).toEqual([2, ""]);
    expect(run.stderr).toMatch(new RegExp(`^loyalty-sim scenarios: Scenario ${bad.replace(/[.\\/]/g, "\\$&")} is not valid:\n  - rules\\[0\\]\\.respond\\.error: .*\n(.*\n)*Nothing was sent\\.\n$`));
    expect(await names()).toEqual([]);
  });

  it.each([
    [["scenarios", "add", "x.yaml"], "--url is missing: the simulator's origin, such as http://127.0.0.1:4747 (or set LOYALTY_SIM_URL)"],
    [["scenarios", "add", "--url", "localhost:4747", "x.yaml"], '--url: "localhost:4747" is not an http(s) URL, such as http://127.0.0.1:4747'],
    [["scenarios", "add", "--url", "http://127.0.0.1:1"], "no scenario file given: loyalty-sim scenarios add --url URL FILE..."],
    [["scenarios", "remove", "x"], 'unknown command "remove": the one command is "scenarios add"'],
  ])("%j: exit 2, %s", async (args, message) => {
    expect(await runCli(args)).toEqual({ code: 2, signal: null, stdout: "", stderr: `loyalty-sim scenarios: ${message}\nRun loyalty-sim scenarios --help for the options.\n` });
  });

  it("--help prints its usage and exits 0", async () => {
    const run = await runCli(["scenarios", "--help"]);
    expect([run.code, run.stderr]).toEqual([0, ""]);
    expect(run.stdout).toMatch(/^loyalty-sim scenarios add: load scenario files into a running simulator\n\nUsage: loyalty-sim scenarios add \[--url URL\] \[--api-key KEY\] \[--timeout SECONDS\] FILE\.\.\.\n/);
  });

  it("nothing listening at the URL: exit 1 naming it", async () => {
    const spare = await startCli(["--port", "0", "--quiet"]);
    await stopCli(spare);
    expect(await portIsFree(Number(new URL(spare.origin).port))).toBe(true);
    const one = file("x.yaml", "name: x\nrules:\n  - respond: { error: INTERNAL_ERROR }\n");
    const run = await runCli(["scenarios", "add", "--url", spare.origin, one]);
    expect(run).toEqual({ code: 1, signal: null, stdout: "", stderr: `loyalty-sim scenarios: ${one} was not added: could not reach loyalty-sim at ${spare.origin}: ECONNREFUSED\n` });
  });
});
