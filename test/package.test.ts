/**
 * The npm package as users get it: packed (support/pack.ts; its `prepare` builds), then in an
 * empty folder `npm install <tarball>`, `npx loyalty-sim`, and `import { createSimulator } from "loyalty-sim"`.
 * `.ci/run` runs it once more on Node 22 and 24 (LOYALTY_SIM_EXPECT_NODE names the major version
 * the run must be on, so a PATH that missed the wanted binary fails instead of testing the wrong one).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endlessPipe, killAll, portIsFree, ROOT, startCli, stopCli, within } from "./support/cli.js";
import { cleanEnv, npm, packedTarball, run } from "./support/pack.js";
import { HANG_MS } from "./support/patience.js";

const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };

let tmp: string;
let tarball: string;
/** Paths inside the tarball, without the leading `package/`. */
let packed: string[];
/** The empty folder the tarball is installed into. */
let app: string;
/** What `npm install <tarball>` wrote to stderr (npm's warnings). */
let installWarnings: string;

beforeAll(async () => {
  tarball = await packedTarball();
  const { stdout } = await run("tar", ["-tzf", tarball]);
  packed = stdout.split("\n").filter(Boolean).map((p) => p.replace(/^package\//, ""));

  tmp = mkdtempSync(join(tmpdir(), "loyalty-sim-package-"));
  app = join(tmp, "app");
  mkdirSync(app);
  await npm(["init", "-y"], app);
  ({ stderr: installWarnings } = await npm(["install", tarball, "--no-audit", "--no-fund", "--prefer-offline"], app));
});

afterAll(async () => {
  await killAll();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe(`the npm package, on Node ${process.versions.node}`, () => {
  it("runs on the Node the run asked for, npm and npx included", async () => {
    const expected = process.env.LOYALTY_SIM_EXPECT_NODE;
    if (expected !== undefined) expect(process.versions.node.split(".")[0]).toBe(expected);
    // npm and npx start through "#!/usr/bin/env node": the first node on PATH must be this one.
    const { stdout } = await npm(["version", "--json"], app);
    expect((JSON.parse(stdout) as { node: string }).node).toBe(process.versions.node);
  });

  it("installs without an engine warning: every dependency supports this Node", () => {
    expect(installWarnings.split("\n").filter((line) => line.includes("EBADENGINE"))).toEqual([]);
  });

  it("is named after the version and ships the runtime files only", () => {
    expect(tarball.endsWith(`loyalty-sim-${version}.tgz`)).toBe(true);
    for (const file of ["package.json", "README.md", "dist/cli/bin.js", "dist/cli/healthcheck.js", "dist/index.js", "dist/index.d.ts", "fixtures/default.json", "openapi/openapi.json", "graphql/schema.graphql", "scenarios/scenario.schema.json", "assets/inspector/inspector.js", "assets/inspector/inspector.css", "assets/inspector/favicon.svg"]) {
      expect(packed, file).toContain(file);
    }
    const shipped = (dir: string) => readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => relative(ROOT, join(e.parentPath, e.name)).replaceAll("\\", "/"));
    // Every scenario of the repository, examples, errors and faults alike.
    const scenarios = shipped("scenarios");
    expect(scenarios.length).toBeGreaterThan(20);
    expect(packed.filter((p) => p.startsWith("scenarios/")).sort()).toEqual(scenarios.sort());
    expect(packed.filter((p) => p.startsWith("fixtures/")).sort()).toEqual(shipped("fixtures").sort());
    expect(packed.filter((p) => p.startsWith("assets/")).sort()).toEqual(shipped("assets").sort());
    // The pages the README links, so an installed copy's links work (the screenshots stay in the repository).
    expect(packed.filter((p) => p.startsWith("docs/")).sort()).toEqual(readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`).sort());
    const unwanted = packed.filter((p) => /^(src|test|scripts|\.ci|node_modules|bench|coverage)\//.test(p) || /(^|\/)tsconfig[^/]*\.json$|^Dockerfile$|^\.dockerignore$|^redocly\.yaml$|\.tgz$/.test(p));
    expect(unwanted).toEqual([]);
    expect(packed.every((p) => /^(dist|fixtures|scenarios|openapi|graphql|assets)\/|^docs\/[^/]+\.md$|^(README\.md|package\.json|LICENSE)$/.test(p)), packed.join("\n")).toBe(true);
  });

  it("installs with its runtime dependencies only", () => {
    const manifest = JSON.parse(readFileSync(join(app, "node_modules/loyalty-sim/package.json"), "utf8")) as { bin: Record<string, string> };
    expect(manifest.bin).toEqual({ "loyalty-sim": "dist/cli/bin.js" });
    expect(existsSync(join(app, "node_modules/.bin/loyalty-sim"))).toBe(true);
    for (const dep of ["hono", "htmx.org", "@hono/node-server", "lowdb", "zod", "@mswjs/interceptors", "graphql", "graphql-jit", "graphiql", "react", "react-dom"]) expect(existsSync(join(app, "node_modules", dep)), dep).toBe(true);
    for (const dev of ["typescript", "vitest", "tsx", "@redocly/cli", "playwright-core", "fast-check", "graphql-http"]) expect(existsSync(join(app, "node_modules", dev)), dev).toBe(false);
  });

  it("starts with npx loyalty-sim and serves the health check and the API", async () => {
    const cli = await startCli(["--port", "0"], cleanEnv(), HANG_MS, { command: ["npx", "loyalty-sim"], cwd: app, cleanEnv: true });
    try {
      expect(cli.banner).toContain(`loyalty-sim ${version} listening on ${cli.origin}`);
      const health = await fetch(`${cli.origin}/__sim/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: "ok", version });
      const shop = await fetch(`${cli.origin}/rest_api/v1/shop`, { headers: { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret" } });
      expect(shop.status).toBe(200);
      expect(await shop.json()).toMatchObject({ success: true, data: { programName: "Crumb & Bean Rewards", stampCardValue: 10 } });
      const customers = await fetch(`${cli.origin}/rest_api/v1/customers?hasCount=true`, { headers: { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret" } });
      expect(((await customers.json()) as { meta: { pagination: { count: number } } }).meta.pagination.count).toBe(50);
      // The same GraphQL query three times: graphql-js answers, then graphql-jit's compiled function
      // (which must find the one graphql the package installs; a second copy is an internal error).
      const answers = [];
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${cli.origin}/graphql`, {
          method: "POST",
          headers: { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret", "Content-Type": "application/json" },
          body: JSON.stringify({ query: "{ shop { programName } }" }),
        });
        answers.push([res.status, await res.text()]);
      }
      expect(answers).toEqual(Array(3).fill([200, '{"data":{"shop":{"programName":"Crumb & Bean Rewards"}}}']));
      expect(cli.stderr()).toBe("");
      const docs = await fetch(`${cli.origin}/doc`);
      expect(docs.status).toBe(200);
      expect(cli.banner).toContain(`  Inspector:   ${cli.origin}/__sim/ui`);
      const ui = await fetch(`${cli.origin}/__sim/ui`);
      expect([ui.status, ui.headers.get("content-security-policy")]).toEqual([200, "default-src 'self'; script-src 'self'; style-src 'self'; frame-ancestors 'none'"]);
      expect(await ui.text()).toContain("<h1>Requests</h1>");
      for (const [file, type] of [["htmx.min.js", "text/javascript; charset=utf-8"], ["inspector.js", "text/javascript; charset=utf-8"], ["inspector.css", "text/css; charset=utf-8"]]) {
        const asset = await fetch(`${cli.origin}/__sim/ui/assets/${file}`);
        expect([file, asset.status, asset.headers.get("content-type")]).toEqual([file, 200, type]);
        expect((await asset.arrayBuffer()).byteLength, file).toBeGreaterThan(1000);
      }
    } finally {
      await stopCli(cli);
    }
  });

  // A test that starts `npx loyalty-sim` and kills it kills npm, not the simulator npm runs under a
  // shell: the simulator sees its stdin close (Node closes the pipe it gave npx), or, stdin kept
  // open by someone else, its parent (the shell) orphaned (SIGKILL) or gone (npm forwards SIGTERM).
  // With a pipe, its close and the parent checks race: any of them may be first.
  const ANY = "stdin closed|its parent process exited|the process that started its parent exited";
  it.for([
    ["SIGTERM", "pipe", ANY],
    ["SIGKILL", "pipe", ANY],
    ["SIGTERM", "endless", "its parent process exited"],
    ["SIGKILL", "endless", "the process that started its parent exited"],
  ] as const)("npx loyalty-sim killed with %s, stdin %s: the simulator exits (%s) and frees the port", async ([signal, stdin, why], ctx) => {
    const cli = await startCli(["--port", "0"], cleanEnv(), HANG_MS, { command: ["npx", "loyalty-sim"], cwd: app, cleanEnv: true, stdin: stdin === "pipe" ? "pipe" : endlessPipe(ctx) });
    ctx.onTestFinished(() => stopCli(cli));
    expect((await fetch(`${cli.origin}/__sim/health`)).status).toBe(200);
    cli.child.kill(signal); // npm alone, not its process group
    // Resolves once npm and everything sharing its output (the shell, the simulator) are gone.
    await within(cli.exited, HANG_MS, "the simulator still runs");
    expect(cli.stdout()).toMatch(new RegExp(`^loyalty-sim: (${why}), shutting down$`, "m"));
    expect(await portIsFree(Number(new URL(cli.origin).port))).toBe(true);
  });

  it("is importable from ESM: createSimulator answers in process, createClient is there", async () => {
    writeFileSync(
      join(app, "check.mjs"),
      `import { createSimulator, createClient, startSimulator, SimulatorError, IN_PROCESS_ORIGIN } from "loyalty-sim";
const sim = createSimulator({ customers: 3 });
const headers = { "X-Api-Key": sim.apiKey, "X-Api-Secret": sim.apiSecret };
const shop = await sim.fetch(sim.baseUrl + "/shop", { headers });
const client = createClient({ origin: IN_PROCESS_ORIGIN, apiKey: sim.apiKey, apiSecret: sim.apiSecret, fetch: sim.fetch });
const list = await client.rest_api.v1.customers.$get({ query: { hasCount: "true" } });
const error = await sim.control.mergeCustomer("1", "2").catch((e) => e);
sim.intercept();
const intercepted = await fetch("https://stamp.appydesign.io/rest_api/v1/shop", { headers });
sim.restore();
console.log(JSON.stringify({
  shop: [shop.status, (await shop.json()).data.programName],
  count: (await list.json()).meta.pagination.count,
  error: [error instanceof SimulatorError, error.status, error.code],
  intercepted: intercepted.status,
  startSimulator: typeof startSimulator,
}));
`,
    );
    const { stdout } = await run(process.execPath, ["check.mjs"], { cwd: app, env: cleanEnv(), timeout: HANG_MS });
    expect(JSON.parse(stdout)).toEqual({
      shop: [200, "Crumb & Bean Rewards"],
      count: 3,
      error: [true, 404, "CUSTOMER_NOT_FOUND"],
      intercepted: 200,
      startSimulator: "function",
    });
  });

  it("a stack trace of an error thrown through the package points at files the package ships", async () => {
    writeFileSync(
      join(app, "trace.mjs"),
      `import { createSimulator } from "loyalty-sim";
const sim = createSimulator({ customers: 1 });
const error = await sim.control.mergeCustomer("404404", "1").catch((e) => e);
console.log(JSON.stringify(error.stack));
`,
    );
    // With source maps applied, as Node does them and as test runners do.
    const { stdout } = await run(process.execPath, ["--enable-source-maps", "trace.mjs"], { cwd: app, env: cleanEnv(), timeout: HANG_MS });
    const stack = JSON.parse(stdout) as string;
    expect(stack).toMatch(/^SimulatorError: POST \/__sim\/customers\/404404\/merge: 404 CUSTOMER_NOT_FOUND/);
    const installed = join(app, "node_modules", "loyalty-sim");
    const files = [...stack.matchAll(/(?:file:\/\/)?(\/[^\s():]+):\d+:\d+/g)].map((m) => m[1]!).filter((f) => f.startsWith(installed));
    expect(files.length, stack).toBeGreaterThan(0);
    for (const file of files) expect(existsSync(file), `${file} in\n${stack}`).toBe(true);
  });

  it("ships types a TypeScript consumer resolves through the package's exports, every documented status included", async () => {
    writeFileSync(
      join(app, "check.mts"),
      `import { createClient, createSimulator, PRODUCTION_ORIGIN, type Customer, type Interception, type RunningSimulator } from "loyalty-sim";
const sim = createSimulator();
const client = createClient({ origin: "http://x", apiKey: sim.apiKey, apiSecret: sim.apiSecret, fetch: sim.fetch });
export async function first(): Promise<Customer["stampBalance"]> {
  const res = await client.rest_api.v1.customers[":id"].$get({ param: { id: "1" } });
  if (res.status !== 200) return 0;
  const body = await res.json();
  return body.data.stampBalance;
}
export async function redeem(id: string): Promise<string> {
  const res = await client.rest_api.v1.customers[":id"].redemptions.$post({ param: { id }, json: { reward_product_id: 103 } });
  if (res.status === 422) return (await res.json()).error.code;
  if (res.status === 200) return (await res.json()).data.code;
  // @ts-expect-error 418 is no documented status of the route
  if (res.status === 418) return "teapot";
  return String(res.status);
}
// @ts-expect-error stamps is a number
client.rest_api.v1.customers[":id"].stamps.award.$post({ param: { id: "1" }, json: { stamps: "5" } });
export type Url = RunningSimulator["url"];
export const interception: Interception = sim.intercept(PRODUCTION_ORIGIN);
interception.restore();
`,
    );
    const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
    const args = ["--noEmit", "--strict", "--skipLibCheck", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--lib", "es2023,dom", "check.mts"];
    const result = await run(process.execPath, [tsc, ...args], { cwd: app, env: cleanEnv(), timeout: HANG_MS }).catch((e: { stdout: string; code: number }) => e);
    expect(result.stdout).toBe("");
  });
});
