/**
 * Every GitHub Actions workflow of the repository (.github/workflows/) and of the docs (a YAML
 * block with `jobs:`) checked by GitHub's own parser; what they give the repository's Action
 * checked against action.yml; the Node versions they ask for supported. The docs' recipes run
 * here where they can: the Action recipe's inputs through the Action's script, the service-container
 * recipe's `scenarios add` step against a simulator on a port, the release workflow's version check.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action, actionJobs, shell } from "../support/action-steps.js";
import { ensureBuilt, killAll, ROOT, startCli, stopCli, type StartedCli } from "../support/cli.js";
import { codeBlocks, docPages } from "../support/doc-snippets.js";
import { workflowErrors } from "../support/workflow-parser.js";

interface Step {
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string | number>;
  env?: Record<string, string>;
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  env?: Record<string, string>;
  jobs: Record<string, { needs?: string; permissions?: Record<string, string>; env?: Record<string, string>; services?: Record<string, { image: string; env?: Record<string, string> }>; steps: Step[] }>;
}

const WORKFLOWS = join(ROOT, ".github/workflows");
const repository = readdirSync(WORKFLOWS).map((f) => ({ where: `.github/workflows/${f}`, text: readFileSync(join(WORKFLOWS, f), "utf8") }));
const documented = docPages(ROOT).flatMap((page) =>
  codeBlocks(page)
    .filter((b) => b.lang === "yaml" && b.lines.some((l) => /^jobs:\s*$/.test(l)))
    .map((b) => ({ where: `${page.source}:${b.line}`, text: `${b.lines.join("\n")}\n` })),
);
const all = [...repository, ...documented];
const workflow = (text: string) => parse(text) as Workflow;
const steps = (text: string) => Object.values(workflow(text).jobs).flatMap((j) => j.steps);
/** This repository's Action as a workflow names it: `./` in the repository, `OWNER/loyalty-sim@ref` in the docs. */
const isOurAction = (uses: string | undefined) => uses === "./" || /^[\w-]+\/loyalty-sim@/.test(uses ?? "");
const release = workflow(readFileSync(join(WORKFLOWS, "release.yml"), "utf8"));

describe("the workflows", () => {
  it("are the repository's CI and release, and the docs' recipes", () => {
    expect(repository.map((w) => w.where)).toEqual([".github/workflows/ci.yml", ".github/workflows/release.yml"]);
    expect(documented.map((w) => w.where.replace(/:\d+$/, ""))).toEqual(["docs/docker-and-ci.md", "docs/docker-and-ci.md", "docs/verify.md"]);
  });

  it.each(all)("$where is valid by GitHub's workflow parser", ({ where, text }) => {
    expect(workflowErrors(where, text)).toEqual([]);
  });

  it("the parser can fail: a misspelt key is an error", () => {
    expect(workflowErrors("w.yml", documented[0]!.text.replace("runs-on:", "run-on:"))).toEqual(["w.yml (Line: 4, Col: 5): Unexpected value 'run-on'", "w.yml (Line: 4, Col: 5): Required property is missing: runs-on"]);
  });

  it.each(all)("$where gives the Action only inputs action.yml has, and stops what it started, always", ({ text }) => {
    const ours = steps(text).filter((s) => isOurAction(s.uses));
    for (const s of ours) expect(Object.keys(s.with ?? {}).filter((input) => !Object.hasOwn(action.inputs, input))).toEqual([]);
    const starts = ours.filter((s) => s.with?.stop !== "true");
    expect(ours.filter((s) => s.with?.stop === "true").map((s) => s.if)).toEqual(starts.map(() => "always()"));
  });

  it.each(all)("$where runs on a supported Node (20, 22 or 24)", ({ text }) => {
    const versions = steps(text).filter((s) => s.uses?.startsWith("actions/setup-node@")).map((s) => Number(s.with?.["node-version"]));
    for (const version of versions) expect([20, 22, 24]).toContain(version);
  });
});

describe("release.yml", () => {
  const npm = release.jobs.npm!;
  const image = release.jobs.image!;

  it("runs on a tag v*, publishes the npm package after .ci/run, with provenance", () => {
    expect(release.on).toEqual({ push: { tags: ["v*"] } });
    expect(release.permissions).toEqual({ contents: "read" });
    expect(npm.permissions).toEqual({ contents: "read", "id-token": "write" });
    expect(npm.steps.map((s) => s.uses ?? s.run)).toEqual(["actions/checkout@v4", "actions/setup-node@v4", expect.stringContaining("GITHUB_REF_NAME"), ".ci/run", "npm publish --provenance --access public"]);
    expect(npm.steps.at(-1)!.env).toEqual({ NODE_AUTH_TOKEN: "${{ secrets.NPM_TOKEN }}" });
  });

  it("its version check passes on the package's own tag and fails on another", async () => {
    const check = npm.steps.find((s) => s.run?.includes("GITHUB_REF_NAME"))!.run!;
    const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    expect((await shell(check, ROOT, { GITHUB_REF_NAME: `v${version}` })).code).toBe(0);
    expect((await shell(check, ROOT, { GITHUB_REF_NAME: "v99.0.0" })).code).toBe(1);
  });

  it("then builds the image for linux/amd64 and linux/arm64 and pushes it to the owner's registry", () => {
    expect(image.needs).toBe("npm");
    expect(image.permissions).toEqual({ contents: "read", packages: "write" });
    const uses = image.steps.map((s) => s.uses!.replace(/@v\d+$/, ""));
    expect(uses).toEqual(["actions/checkout", "docker/setup-qemu-action", "docker/setup-buildx-action", "docker/login-action", "docker/metadata-action", "docker/build-push-action"]);
    const [login, meta, build] = image.steps.slice(3);
    expect(login!.with).toEqual({ registry: "ghcr.io", username: "${{ github.actor }}", password: "${{ secrets.GITHUB_TOKEN }}" });
    expect(meta!.with!.images).toBe("ghcr.io/${{ github.repository }}");
    expect(build!.with).toMatchObject({ context: ".", platforms: "linux/amd64,linux/arm64", push: true, tags: "${{ steps.meta.outputs.tags }}" });
  });
});

describe("the docs' recipes, run", () => {
  const { job, step, cleanup } = actionJobs();
  let cli: StartedCli | undefined;
  beforeAll(() => ensureBuilt());
  afterAll(async () => {
    if (cli) await stopCli(cli);
    await killAll();
    cleanup();
  });
  const recipe = (n: number) => workflow(documented[n]!.text);
  const SHIPPED = { flaky: readFileSync(join(ROOT, "scenarios/examples/flaky-checkout.yaml"), "utf8"), slow: readFileSync(join(ROOT, "scenarios/examples/slow-api.json"), "utf8") };

  it("the Action recipe: its inputs start the simulator with the job's files; its last step stops it", async () => {
    const [start, stop] = recipe(0).jobs.test!.steps.filter((s) => isOurAction(s.uses));
    const inputs = Object.fromEntries(Object.entries(start!.with!).map(([k, v]) => [k, String(v)]));
    const fixture = readFileSync(join(ROOT, "fixtures/default.json"), "utf8");
    const env = job("recipe-action", { [inputs.scenarios!.trim()]: SHIPPED.flaky, [inputs.fixtures!]: fixture });
    // Port 0 only so the test takes a free port; the recipe's own inputs otherwise.
    const started = await step("start", env, { ...inputs, port: "0" });
    expect([started.code, started.stderr]).toEqual([0, ""]);
    const url = started.output.url!;
    const names = ((await (await fetch(`${url}/__sim/scenarios`)).json()) as { scenarios: { name: string }[] }).scenarios.map((s) => s.name);
    expect(names).toEqual(["flaky-checkout"]);
    const count = (await (await fetch(`${url}/rest_api/v1/customers?hasCount=true&limit=1`, { headers: { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret" } })).json()) as { meta: { pagination: { count: number } } };
    expect(count.meta.pagination.count).toBe(200);
    const stopped = await step("stop", env, Object.fromEntries(Object.entries(stop!.with!).map(([k, v]) => [k, String(v)])));
    expect([stopped.code, stopped.stdout]).toEqual([0, expect.stringContaining("loyalty-sim: SIGTERM, shutting down\n")]);
  });

  it("the service-container recipe: its scenarios add step loads the job's files into the running simulator", async () => {
    const test = recipe(1).jobs.test!;
    expect(Object.values(test.services!).map((s) => s.image)).toEqual(["ghcr.io/OWNER/loyalty-sim:0.1.0"]);
    const load = test.steps.find((s) => s.run?.includes("loyalty-sim scenarios add"))!;
    const files = load.run!.split(" ").filter((w) => w.startsWith("test/sim/"));
    expect(files).toEqual(["test/sim/flaky.yaml", "test/sim/slow.json"]);
    cli = await startCli(["--port", "0", "--quiet", ...Object.entries(Object.values(test.services!)[0]!.env ?? {}).flatMap(([k, v]) => (k === "LOYALTY_SIM_SEED" ? ["--seed", v] : []))]);
    const env = job("recipe-service", { [files[0]!]: SHIPPED.flaky, [files[1]!]: SHIPPED.slow });
    // The job's LOYALTY_SIM_URL names the service's published port; here, the test's simulator.
    expect(test.env).toEqual({ LOYALTY_SIM_URL: "http://127.0.0.1:4747" });
    const run = await shell(load.run!, env.GITHUB_WORKSPACE, { LOYALTY_SIM_URL: cli.origin });
    expect(run).toEqual({ code: 0, stdout: "added scenario flaky-checkout (7 rules) from test/sim/flaky.yaml\nadded scenario slow-api (1 rule) from test/sim/slow.json\n", stderr: "" });
    const names = ((await (await fetch(`${cli.origin}/__sim/scenarios`)).json()) as { scenarios: { name: string }[] }).scenarios.map((s) => s.name);
    expect(names).toEqual(["slow-api", "flaky-checkout"]);
  });
});
