/**
 * The GitHub Action (action.yml) as a job runs it: its file checked by GitHub's own parser, and its
 * script (scripts/action/run.sh) run as its steps run it, with GITHUB_ENV, GITHUB_OUTPUT and
 * RUNNER_TEMP in a temp folder: the simulator starts in the background with the job's own files,
 * answers at the exported LOYALTY_SIM_URL, and stops on `stop`; a bad file fails the step with the
 * simulator's message. The job's workspace has loyalty-sim installed (this repository's build), as
 * `npm ci` leaves an app that depends on it; `version:` installs the packed package instead.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action, actionJobs, type JobEnv } from "../support/action-steps.js";
import { ensureBuilt, portIsFree, ROOT } from "../support/cli.js";
import { packedTarball } from "../support/pack.js";
import { actionErrors } from "../support/workflow-parser.js";

const { job, step, cleanup } = actionJobs();
beforeAll(() => ensureBuilt());
afterAll(cleanup);

const PACKAGE = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string; scripts: Record<string, string> };

/**
 * This repository as the runner checks the action out (no dist/), with its dependencies (as a
 * developer's checkout has them) and a build that copies the dist/ this run built, so as not to
 * compile it all again (package.test.ts checks the real build).
 */
function lightCheckout(job: JobEnv): string {
  // Beside the job's workspace, so that the jobs' cleanup removes it.
  const checkout = join(job.GITHUB_WORKSPACE, "../action-checkout");
  mkdirSync(checkout);
  const build = `node -e "require('node:fs').cpSync(process.argv[1], 'dist', { recursive: true })" ${join(ROOT, "dist")}`;
  writeFileSync(join(checkout, "package.json"), JSON.stringify({ ...PACKAGE, scripts: { ...PACKAGE.scripts, build } }));
  for (const linked of ["node_modules", "scripts", "fixtures", "scenarios", "openapi", "graphql", "assets"]) symlinkSync(join(ROOT, linked), join(checkout, linked));
  return checkout;
}

const FIXTURE = JSON.parse(readFileSync(join(ROOT, "fixtures/default.json"), "utf8")) as { access: Record<string, string> };
const NO_BEACONS = "name: no-beacons\nrules:\n  - match: { operation: listBeacons }\n    respond: { error: PLAN_UPGRADE_REQUIRED }\n";
const NO_TIERS = '{"name":"no-tiers","rules":[{"match":{"operation":"listTiers"},"respond":{"error":"PLAN_UPGRADE_REQUIRED"}}]}';

describe("action.yml", () => {
  it("is a valid action by GitHub's own parser, composite, its steps running scripts/action/run.sh", () => {
    expect(actionErrors("action.yml", readFileSync(join(ROOT, "action.yml"), "utf8"))).toEqual([]);
    expect(action.runs.using).toBe("composite");
    expect(action.runs.steps.map((s) => [s.id, s.if, s.run])).toEqual([
      ["start", "inputs.stop != 'true'", '"$GITHUB_ACTION_PATH/scripts/action/run.sh" start'],
      ["stop", "inputs.stop == 'true'", '"$GITHUB_ACTION_PATH/scripts/action/run.sh" stop'],
    ]);
    // Every input reaches the script, which checks each (`stop` too: "yes" would start one).
    expect(Object.keys(action.runs.steps[0]!.env!).sort()).toEqual(Object.keys(action.inputs).map((i) => `LOYALTY_SIM_ACTION_${i.toUpperCase()}`).sort());
  });

  it("the parser can fail: a misspelt key is an error", () => {
    const text = readFileSync(join(ROOT, "action.yml"), "utf8").replace("using: composite", "using: compost");
    expect(actionErrors("action.yml", text)).toEqual(["action.yml (Line: 55, Col: 10): Unexpected value 'compost'"]);
  });
});

describe("the action's script, run as its steps run it", () => {
  it("starts the job's loyalty-sim with its scenarios and fixtures, exports LOYALTY_SIM_URL, and stops it", async () => {
    const program = { ...FIXTURE, access: { ...FIXTURE.access, apiKey: "ci_key", apiSecret: "ci_secret" } };
    const env = job("start-stop", { "sim/no-beacons.yaml": NO_BEACONS, "sim/no tiers.json": NO_TIERS, "sim/program.json": JSON.stringify(program) });
    const start = await step("start", env, { port: "0", seed: "3", scenarios: "sim/no-beacons.yaml\n  sim/no tiers.json  \n\n", fixtures: "sim/program.json", args: "--customers 4 --quiet" });
    expect(start.code).toBe(0);
    const url = start.output.url!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(start.env).toBe(`LOYALTY_SIM_URL=${url}\n`);
    expect(start.output).toEqual({ url, pid: expect.stringMatching(/^\d+$/), log: join(env.RUNNER_TEMP, "loyalty-sim/loyalty-sim.log") });
    expect(start.stdout).toBe(`loyalty-sim ready at ${url} (pid ${start.output.pid}, log ${start.output.log})\n`);

    const headers = { "X-Api-Key": "ci_key", "X-Api-Secret": "ci_secret" };
    expect(await (await fetch(`${url}/__sim/health`)).json()).toMatchObject({ status: "ok" });
    const customers = (await (await fetch(`${url}/rest_api/v1/customers?hasCount=true`, { headers })).json()) as { meta: { pagination: { count: number } } };
    expect(customers.meta.pagination.count).toBe(4);
    const beacons = await fetch(`${url}/rest_api/v1/beacons`, { headers });
    expect([beacons.status, ((await beacons.json()) as { error: { code: string } }).error.code]).toEqual([403, "PLAN_UPGRADE_REQUIRED"]);
    // One file a line: a name with a space is one file.
    expect((await fetch(`${url}/rest_api/v1/tiers`, { headers })).status).toBe(403);
    // The step ended; the simulator runs on (its own session), until the stop step.
    const pid = Number(start.output.pid);
    expect(() => process.kill(pid, 0)).not.toThrow();
    expect(readFileSync(start.output.log!, "utf8")).toContain("  Seed:        3 (4 customers)\n");

    const stop = await step("stop", env, { stop: "true" });
    expect(stop.code).toBe(0);
    expect(stop.stdout).toContain(`loyalty-sim stopped; the end of its log (${start.output.log}):\n`);
    expect(stop.stdout).toContain("loyalty-sim: SIGTERM, shutting down\n");
    expect(() => process.kill(pid, 0)).toThrow();
    expect(await portIsFree(Number(new URL(url).port))).toBe(true);
    // A second stop has nothing to do.
    expect((await step("stop", env, { stop: "true" })).stdout).toContain("not started by this job");
  });

  it("a scenario file the simulator refuses fails the step with its message, nothing exported", async () => {
    const env = job("bad-scenario", { "sim/no tiers.json": NO_TIERS, "sim/bad.yaml": "name: bad\nrules:\n  - respond: { error: NO_SUCH_CODE }\n" });
    const start = await step("start", env, { port: "0", scenarios: "sim/no tiers.json\nsim/bad.yaml" });
    expect(start.code).toBe(1);
    expect(start.stdout).toContain("Scenario sim/bad.yaml is not valid:\n  - rules[0].respond.error:");
    expect(start.stdout).toContain("::error title=loyalty-sim::loyalty-sim exited before it was ready (its output is above)\n");
    // Its output is shown with workflow commands stopped (a token of that step), so no line of it runs as one.
    expect(start.stdout).toMatch(/^::stop-commands::([0-9a-f]{32})\n[^]*Scenario sim\/bad\.yaml is not valid[^]*\n::\1::\n::error /);
    expect(start.stdout).not.toContain("no tiers");
    expect([start.env, start.output]).toEqual(["", {}]);
    expect(existsSync(join(env.RUNNER_TEMP, "loyalty-sim/loyalty-sim.pid"))).toBe(false);
  });

  it("version: installs that package (here the packed tarball, by a path in the workspace) into the runner's temp folder and runs it", async () => {
    const tarball = await packedTarball();
    const env = job("version", {}, false);
    mkdirSync(join(env.GITHUB_WORKSPACE, "vendor"));
    copyFileSync(tarball, join(env.GITHUB_WORKSPACE, "vendor/loyalty-sim.tgz"));
    const start = await step("start", env, { port: "0", version: "vendor/loyalty-sim.tgz", args: "--customers 2 --quiet" });
    expect([start.code, start.stdout]).toEqual([0, expect.stringContaining(`loyalty-sim: installing ${join(env.GITHUB_WORKSPACE, "vendor/loyalty-sim.tgz")}\n`)]);
    expect(existsSync(join(env.RUNNER_TEMP, "loyalty-sim/install/node_modules/loyalty-sim/dist/cli/bin.js"))).toBe(true);
    const shop = await fetch(`${start.output.url}/rest_api/v1/shop`, { headers: { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret" } });
    expect(shop.status).toBe(200);
    expect((await step("stop", env, { stop: "true" })).code).toBe(0);
  });

  it("no loyalty-sim in the job and no version: this action's own checkout, built in the runner's temp folder, never the registry's name", async () => {
    const jobEnv = job("checkout", {}, false);
    const env = { ...jobEnv, GITHUB_ACTION_PATH: lightCheckout(jobEnv) };
    const start = await step("start", env, { port: "0", args: "--customers 1 --quiet" });
    expect([start.code, start.stdout]).toEqual([0, expect.stringMatching(/^loyalty-sim: no node_modules\/\.bin\/loyalty-sim in the workspace and no version: building this action's own checkout\nloyalty-sim ready at /)]);
    // Its files copied, its own build run there, and nothing installed from the registry.
    const copy = join(env.RUNNER_TEMP, "loyalty-sim/action");
    expect([existsSync(join(copy, "dist/cli/bin.js")), existsSync(join(env.GITHUB_ACTION_PATH, "dist")), existsSync(join(env.RUNNER_TEMP, "loyalty-sim/install"))]).toEqual([true, false, false]);
    expect(readFileSync(join(env.RUNNER_TEMP, "loyalty-sim/install.log"), "utf8")).toContain(`> loyalty-sim@${PACKAGE.version} build\n`);
    expect(await (await fetch(`${start.output.url}/__sim/health`)).json()).toMatchObject({ status: "ok", version: PACKAGE.version });
    expect((await step("stop", env, { stop: "true" })).code).toBe(0);
  });
});
