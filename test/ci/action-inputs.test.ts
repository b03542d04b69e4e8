/**
 * Regression (issue 35, item 4): the Action ran an input as shell code. `timeout:
 * BASH_VERSINFO[$(touch ...)0]+60` ran the command (bash arithmetic evaluates a subscript) and the
 * step went on. Now every input is checked against a strict pattern before any use: each hostile
 * value here fails the start step with one ::error line naming the input (a value in it escaped
 * as GitHub's workflow commands are, so it cannot start a command of its own), its command never
 * runs, and nothing is started, installed or exported.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { actionJobs } from "../support/action-steps.js";

const { job, step, cleanup } = actionJobs();
afterAll(cleanup);

const SECONDS = "is not a whole number of seconds from 1 to 3600";
const GIVE =
  "give the https URL or the path of a tarball (.tgz) or of a built package folder, or leave version empty to run the job's node_modules/.bin/loyalty-sim or else this action's own version";
const TAG = `is a version or dist-tag, which would install the registry's package "loyalty-sim": this project publishes none there, and anyone could; ${GIVE}`;
const LONG = "x".repeat(5000);

// [input, value, the error after "<input>: "]; WS stands for the workspace in a message.
const CASES: [string, string, string][] = [
  ["timeout", "BASH_VERSINFO[$(touch pwned)0]+60", `"BASH_VERSINFO[$(touch pwned)0]+60" ${SECONDS}`],
  ["timeout", "$(touch pwned)", `"$(touch pwned)" ${SECONDS}`],
  ["timeout", "`touch pwned`", `"\`touch pwned\`" ${SECONDS}`],
  ["timeout", "60; touch pwned", `"60; touch pwned" ${SECONDS}`],
  ["timeout", "60\ntouch pwned", `"60%0Atouch pwned" ${SECONDS}`],
  ["timeout", "60\n::add-mask::x\r\n::set-env name=NODE_OPTIONS::--require=./pwned.js", `"60%0A::add-mask::x%0D%0A::set-env name=NODE_OPTIONS::--require=./pwned.js" ${SECONDS}`],
  ["timeout", "100%0A::add-mask::x", `"100%250A::add-mask::x" ${SECONDS}`],
  ["timeout", "3601", `"3601" ${SECONDS}`],
  ["timeout", "0", `"0" ${SECONDS}`],
  ["timeout", "010", `"010" ${SECONDS}`],
  ["timeout", "-5", `"-5" ${SECONDS}`],
  ["timeout", LONG, `"${"x".repeat(80)}... (5000 characters)" ${SECONDS}`],
  ["port", "a[$(touch pwned)]", '"a[$(touch pwned)]" is not a port from 0 to 65535 (0: any free port)'],
  ["port", "65536", '"65536" is not a port from 0 to 65535 (0: any free port)'],
  ["port", "4747 --data pwned", '"4747 --data pwned" is not a port from 0 to 65535 (0: any free port)'],
  ["seed", "x[$(touch pwned)]", '"x[$(touch pwned)]" is not a whole number from 0 to 2147483647'],
  ["seed", "2147483648", '"2147483648" is not a whole number from 0 to 2147483647'],
  ["stop", "yes", '"yes" is not true or false'],
  ["stop", "$(touch pwned)", '"$(touch pwned)" is not true or false'],
  ["scenarios", "$(touch pwned).yaml", '"$(touch pwned).yaml" does not exist in the workspace (WS): give a path relative to it, after actions/checkout'],
  ["scenarios", "sim/ok.yaml\nsim/ok.yaml; touch pwned", '"sim/ok.yaml; touch pwned" does not exist in the workspace (WS): give a path relative to it, after actions/checkout'],
  ["scenarios", "--data=pwned", '"--data=pwned" starts with "-": give a path relative to the workspace, such as ./--data=pwned'],
  ["scenarios", "../outside.yaml", '"../outside.yaml" leads out of the workspace (WS): give a file of the job\'s checkout'],
  ["scenarios", "sim/link.yaml", '"sim/link.yaml" leads out of the workspace (WS): give a file of the job\'s checkout'],
  ["scenarios", "/etc/passwd", '"/etc/passwd" leads out of the workspace (WS): give a file of the job\'s checkout'],
  ["scenarios", "sim", '"sim" is not a file'],
  ["scenarios", "sim/ok\u001b[2J.yaml", '"sim/ok?[2J.yaml" holds a control character'],
  ["scenarios", LONG, `"${"x".repeat(80)}... (5000 characters)" is longer than 4096 characters`],
  ["fixtures", "$(touch pwned)", '"$(touch pwned)" does not exist in the workspace (WS): give a path relative to it, after actions/checkout'],
  ["fixtures", "--help", '"--help" starts with "-": give a path relative to the workspace, such as ./--help'],
  ["fixtures", "sim/link.yaml", '"sim/link.yaml" leads out of the workspace (WS): give a file of the job\'s checkout'],
  ["version", "0.1.0", `"0.1.0" ${TAG}`],
  ["version", "latest", `"latest" ${TAG}`],
  ["version", "loyalty-sim@^0.1", `"loyalty-sim@^0.1" ${TAG}`],
  ["version", "$(touch pwned)", `"$(touch pwned)" is no tarball (.tgz) or package folder (relative paths start at the workspace, WS): ${GIVE}`],
  ["version", "someone/loyalty-sim", `"someone/loyalty-sim" is no tarball (.tgz) or package folder (relative paths start at the workspace, WS): ${GIVE}`],
  ["version", "--registry=https://evil.example", `"--registry=https://evil.example" starts with "-": ${GIVE}`],
  ["version", "http://example.com/loyalty-sim.tgz", `"http://example.com/loyalty-sim.tgz" is not an https URL or a path: ${GIVE}`],
  ["version", "github:someone/loyalty-sim", `"github:someone/loyalty-sim" is not an https URL or a path: ${GIVE}`],
  ["version", "https://user:token@example.com/loyalty-sim.tgz", '"https://user:token@example.com/loyalty-sim.tgz" is not an https URL of a tarball (.tgz), without user, query or fragment'],
  ["args", "--customers 4\u001b]0;pwned\u0007", '"--customers 4?]0;pwned?" holds a control character'],
  ["args", LONG, `"${"x".repeat(80)}... (5000 characters)" is longer than 4096 characters`],
];

describe("issue 35, item 4: every input of the Action is checked before any use", () => {
  it.each(CASES.map(([input, value, error], i) => [i, input, JSON.stringify(value).slice(0, 60), value, error] as const))(
    "%i: %s %s fails the step naming it; its command never runs",
    async (i, input, _shown, value, error) => {
      const env = job(`case-${i}`, { "sim/ok.yaml": "name: ok\nrules: []\n", "../outside.yaml": "name: outside\nrules: []\n" }, false);
      symlinkSync(join(env.GITHUB_WORKSPACE, "../outside.yaml"), join(env.GITHUB_WORKSPACE, "sim/link.yaml"));
      const start = await step("start", env, { [input]: value });
      expect([start.code, start.stdout]).toEqual([1, `::error title=loyalty-sim::${input}: ${error.replaceAll("WS", env.GITHUB_WORKSPACE)}\n`]);
      expect(existsSync(join(env.GITHUB_WORKSPACE, "pwned"))).toBe(false);
      expect([start.env, start.output, existsSync(join(env.RUNNER_TEMP, "loyalty-sim"))]).toEqual(["", {}, false]);
    },
  );

  it("args are words given to loyalty-sim as they are: never evaluated nor globbed", async () => {
    const env = job("args-words", {});
    writeFileSync(join(env.GITHUB_WORKSPACE, "a-file"), "");
    const start = await step("start", env, { port: "0", args: "--customers 1 $(touch pwned) `touch pwned` ; touch pwned *" });
    expect(start.code).toBe(1);
    // loyalty-sim refuses the first word that is no flag: as it was written.
    expect(start.stdout).toContain("Unexpected argument '$(touch'");
    expect(start.stdout).toContain("::error title=loyalty-sim::loyalty-sim exited before it was ready (its output is above)\n");
    expect(existsSync(join(env.GITHUB_WORKSPACE, "pwned"))).toBe(false);
  });

  it("stop: a pid given to another process since (the simulator gone) is not signalled", async (ctx) => {
    const other = spawn("sleep", ["60"], { stdio: "ignore" });
    ctx.onTestFinished(() => void other.kill("SIGKILL"));
    const env = job("reused-pid", {}, false);
    mkdirSync(join(env.RUNNER_TEMP, "loyalty-sim"));
    writeFileSync(join(env.RUNNER_TEMP, "loyalty-sim/loyalty-sim.pid"), `${other.pid}\n`);
    const stop = await step("stop", env, { stop: "true" });
    expect([stop.code, stop.stdout]).toEqual([0, `loyalty-sim: process ${other.pid} is no longer the simulator this job started (the pid went to another process): nothing to stop\n`]);
    expect([other.exitCode, other.signalCode]).toEqual([null, null]);
    expect(existsSync(join(env.RUNNER_TEMP, "loyalty-sim/loyalty-sim.pid"))).toBe(false);
  });

  it("stop: a pid file that holds no process id is refused, nothing signalled", async () => {
    const env = job("bad-pid", {}, false);
    mkdirSync(join(env.RUNNER_TEMP, "loyalty-sim"));
    writeFileSync(join(env.RUNNER_TEMP, "loyalty-sim/loyalty-sim.pid"), "12abc\n");
    const stop = await step("stop", env, { stop: "true" });
    expect([stop.code, stop.stdout]).toEqual([1, `::error title=loyalty-sim::${join(env.RUNNER_TEMP, "loyalty-sim/loyalty-sim.pid")} holds no process id: nothing was stopped\n`]);
  });
});
