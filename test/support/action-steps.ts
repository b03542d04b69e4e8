/**
 * The repository's GitHub Action (action.yml) run here as a runner runs it: a job's workspace and
 * runner temp folder in a temp folder, each step's `run` in bash with the step's `env`, its
 * `${{ inputs.x }}` replaced by the inputs given (or their defaults), GITHUB_ENV and GITHUB_OUTPUT
 * files read back. Used by test/ci/action.test.ts and the docs' recipes (test/ci/workflows.test.ts).
 * @module
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { parse } from "yaml";
import { ROOT } from "./cli.js";
import { cleanEnv } from "./pack.js";
import { NPM_MS } from "./patience.js";

export const action = parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as {
  inputs: Record<string, { default: string }>;
  runs: { using: string; steps: { id: string; if: string; run: string; env?: Record<string, string> }[] };
};

/** GitHub's variables of one job, paths in its own folder. */
export type JobEnv = Record<"GITHUB_WORKSPACE" | "GITHUB_ACTION_PATH" | "RUNNER_TEMP" | "GITHUB_ENV" | "GITHUB_OUTPUT", string>;

/** Jobs in a temp folder of their own; `cleanup` kills any simulator a failed test left and removes the folder. */
export function actionJobs() {
  const tmp = mkdtempSync(join(tmpdir(), "loyalty-sim-action-"));
  const started: number[] = [];

  /** A job: its workspace (with `files`, and loyalty-sim installed unless `installed` is false), its runner's temp folder and GitHub's files, empty. */
  function job(name: string, files: Record<string, string>, installed = true): JobEnv {
    const root = join(tmp, name);
    const workspace = join(root, "workspace");
    const temp = join(root, "runner-temp");
    mkdirSync(temp, { recursive: true });
    mkdirSync(workspace, { recursive: true });
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(workspace, path)), { recursive: true });
      writeFileSync(join(workspace, path), text);
    }
    if (installed) {
      // What `npm ci` leaves in an app that depends on loyalty-sim: the package and its bin link.
      writeFileSync(join(workspace, "package.json"), JSON.stringify({ name: "app", private: true, devDependencies: { "loyalty-sim": "*" } }));
      mkdirSync(join(workspace, "node_modules/.bin"), { recursive: true });
      symlinkSync(ROOT, join(workspace, "node_modules/loyalty-sim"), "dir");
      symlinkSync("../loyalty-sim/dist/cli/bin.js", join(workspace, "node_modules/.bin/loyalty-sim"));
    }
    const env = { GITHUB_WORKSPACE: workspace, GITHUB_ACTION_PATH: ROOT, RUNNER_TEMP: temp, GITHUB_ENV: join(root, "env"), GITHUB_OUTPUT: join(root, "output") };
    writeFileSync(env.GITHUB_ENV, "");
    writeFileSync(env.GITHUB_OUTPUT, "");
    return env;
  }

  /** One of the action's steps, run as the runner runs it: its `run` in bash, the step's env with the inputs. */
  async function step(id: "start" | "stop", env: JobEnv, inputs: Record<string, string> = {}) {
    const found = action.runs.steps.find((s) => s.id === id)!;
    const values = Object.fromEntries(Object.entries(action.inputs).map(([name, input]) => [name, inputs[name] ?? input.default]));
    const stepEnv = Object.fromEntries(Object.entries(found.env ?? {}).map(([key, value]) => [key, value.replace(/^\$\{\{ inputs\.(\w+) \}\}$/, (_, name: string) => values[name]!)]));
    // A runner whose npm cache is warm (actions/setup-node's `cache: npm`), as this machine's is:
    // an install asks the registry only for what the cache lacks.
    const result = await shell(found.run, env.GITHUB_WORKSPACE, { npm_config_prefer_offline: "true", ...env, ...stepEnv });
    const output = Object.fromEntries(readFileSync(env.GITHUB_OUTPUT, "utf8").split("\n").filter(Boolean).map((l) => l.split(/=(.*)/s).slice(0, 2) as [string, string]));
    if (output.pid) started.push(Number(output.pid));
    return { ...result, env: readFileSync(env.GITHUB_ENV, "utf8"), output };
  }

  function cleanup(): void {
    for (const pid of started) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Already stopped, as it should be.
      }
    }
    rmSync(tmp, { recursive: true, force: true });
  }

  return { job, step, cleanup };
}

/** A step's `run` text in bash, as the runner runs it; its exit code and output. */
export function shell(run: string, cwd: string, env: Record<string, string>) {
  return promisify(execFile)("bash", ["-e", "-c", run], { cwd, env: { ...cleanEnv(), ...env }, timeout: NPM_MS }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}
