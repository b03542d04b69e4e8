/**
 * The npm package as users get it: `npm pack` (its `prepare` builds), then in an empty folder
 * `npm install <tarball>`, `npx loyalty-sim`, and `import { createSimulator } from "loyalty-sim"`.
 * The pack runs in a copy of the working tree, so its build never rewrites the dist/ that other
 * test files are running at the same time.
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAll, ROOT, startCli, stopCli } from "./support/cli.js";

const run = promisify(execFile);
const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };

/** Our environment without npm's own variables (an `npm test` run sets npm_config_local_prefix etc.). */
function npmEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !/^(npm_|INIT_CWD$|LOYALTY_SIM_)/i.test(key)) env[key] = value;
  }
  return env;
}

const npm = (args: string[], cwd: string, timeout = 90_000) => run("npm", args, { cwd, env: npmEnv(), timeout, maxBuffer: 64 * 1024 * 1024 });

let tmp: string;
let tarball: string;
/** Paths inside the tarball, without the leading `package/`. */
let packed: string[];
/** The empty folder the tarball is installed into. */
let app: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), "loyalty-sim-pack-"));
  const copy = join(tmp, "repo");
  const skip = new Set(["node_modules", "dist", ".git", "coverage"]);
  cpSync(ROOT, copy, {
    recursive: true,
    filter: (src) => {
      const rel = relative(ROOT, src);
      return rel === "" || (!skip.has(rel.split(/[\\/]/)[0]!) && !rel.endsWith(".tgz"));
    },
  });
  // The dev dependencies `prepare` needs to build (tsc), without a second install.
  symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"), "dir");
  mkdirSync(join(tmp, "out"));
  await npm(["pack", "--pack-destination", join(tmp, "out")], copy, 120_000);
  const [file, ...more] = readdirSync(join(tmp, "out"));
  expect(more).toEqual([]);
  tarball = join(tmp, "out", file!);
  const { stdout } = await run("tar", ["-tzf", tarball]);
  packed = stdout.split("\n").filter(Boolean).map((p) => p.replace(/^package\//, ""));

  app = join(tmp, "app");
  mkdirSync(app);
  await npm(["init", "-y"], app);
  await npm(["install", tarball, "--no-audit", "--no-fund", "--prefer-offline"], app);
}, 180_000);

afterAll(async () => {
  await killAll();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("the npm package", { timeout: 60_000 }, () => {
  it("is named after the version and ships the runtime files only", () => {
    expect(tarball.endsWith(`loyalty-sim-${version}.tgz`)).toBe(true);
    for (const file of ["package.json", "README.md", "dist/cli/bin.js", "dist/cli/healthcheck.js", "dist/index.js", "dist/index.d.ts", "fixtures/default.json", "openapi/openapi.json", "graphql/schema.graphql", "scenarios/scenario.schema.json"]) {
      expect(packed, file).toContain(file);
    }
    const shipped = (dir: string) => readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => relative(ROOT, join(e.parentPath, e.name)).replaceAll("\\", "/"));
    // Every scenario of the repository, examples, errors and faults alike.
    const scenarios = shipped("scenarios");
    expect(scenarios.length).toBeGreaterThan(20);
    expect(packed.filter((p) => p.startsWith("scenarios/")).sort()).toEqual(scenarios.sort());
    expect(packed.filter((p) => p.startsWith("fixtures/")).sort()).toEqual(shipped("fixtures").sort());
    const unwanted = packed.filter((p) => /^(src|test|scripts|\.ci|node_modules|bench|coverage)\//.test(p) || /(^|\/)tsconfig[^/]*\.json$|^Dockerfile$|^\.dockerignore$|^redocly\.yaml$|\.tgz$/.test(p));
    expect(unwanted).toEqual([]);
    expect(packed.every((p) => /^(dist|fixtures|scenarios|openapi|graphql)\/|^(README\.md|package\.json|LICENSE)$/.test(p)), packed.join("\n")).toBe(true);
  });

  it("installs with its runtime dependencies only", () => {
    const manifest = JSON.parse(readFileSync(join(app, "node_modules/loyalty-sim/package.json"), "utf8")) as { bin: Record<string, string> };
    expect(manifest.bin).toEqual({ "loyalty-sim": "dist/cli/bin.js" });
    expect(existsSync(join(app, "node_modules/.bin/loyalty-sim"))).toBe(true);
    for (const dep of ["hono", "@hono/node-server", "lowdb", "zod", "@mswjs/interceptors", "graphql", "@graphql-yoga/render-graphiql"]) expect(existsSync(join(app, "node_modules", dep)), dep).toBe(true);
    for (const dev of ["typescript", "vitest", "tsx", "@redocly/cli", "playwright-core", "ajv", "graphql-http"]) expect(existsSync(join(app, "node_modules", dev)), dev).toBe(false);
  });

  it("starts with npx loyalty-sim and serves the health check and the API", async () => {
    const cli = await startCli(["--port", "0"], npmEnv(), 60_000, { command: ["npx", "loyalty-sim"], cwd: app, cleanEnv: true });
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
      const docs = await fetch(`${cli.origin}/doc`);
      expect(docs.status).toBe(200);
    } finally {
      await stopCli(cli);
    }
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
    const { stdout } = await run(process.execPath, ["check.mjs"], { cwd: app, env: npmEnv(), timeout: 30_000 });
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
    const { stdout } = await run(process.execPath, ["--enable-source-maps", "trace.mjs"], { cwd: app, env: npmEnv(), timeout: 30_000 });
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
    const result = await run(process.execPath, [tsc, ...args], { cwd: app, env: npmEnv(), timeout: 60_000 }).catch((e: { stdout: string; code: number }) => e);
    expect(result.stdout).toBe("");
  });
});
