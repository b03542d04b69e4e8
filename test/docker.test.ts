/**
 * The Dockerfile without a Docker engine: its instructions are checked, then replayed in temp
 * folders (COPY through .dockerignore, the build stage's `npm run build`, the runtime stage's
 * production-only `npm ci`), and the image's ENTRYPOINT, CMD and HEALTHCHECK run there the way
 * `docker run` assembles them, with the image's environment plus the documented LOYALTY_SIM_*
 * variables, files under a "/sim" folder and the data file under a "/data" folder.
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, posix, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envName, OPTION_NAMES } from "../src/config.js";
import { HELP } from "../src/cli/args.js";
import { killAll, ROOT, runCli, spawnCli, startCli, stopCli, type SpawnOptions } from "./support/cli.js";
import { HANG_MS, NPM_MS } from "./support/patience.js";

const run = promisify(execFile);

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  image: string;
  name: string;
  steps: Instruction[];
}

/** Instructions (continuations joined, comments dropped) grouped by stage. */
function parseDockerfile(text: string): Stage[] {
  const lines = text.replace(/\\\r?\n/g, " ").split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("#"));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, op = "", args = ""] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (op.toUpperCase() === "FROM") {
      const [image = "", as, name] = args.split(/\s+/);
      stages.push({ image, name: as?.toUpperCase() === "AS" && name ? name : String(stages.length), steps: [] });
    } else stages.at(-1)!.steps.push({ op: op.toUpperCase(), args: args.replace(/\s+/g, " ") });
  }
  return stages;
}

const dockerfile = parseDockerfile(readFileSync(join(ROOT, "Dockerfile"), "utf8"));
const runtime = dockerfile.at(-1)!;
const envOf = (stage: Stage): Record<string, string> =>
  Object.fromEntries(stage.steps.filter((s) => s.op === "ENV").flatMap((s) => s.args.split(" ").map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)])));
const env = envOf(runtime);
/** Our environment without npm's variables (an `npm test` run sets npm_config_local_prefix etc.). */
const hostEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|INIT_CWD$|LOYALTY_SIM_)/i.test(k))) as Record<string, string>;
const execForm = (text: string) => JSON.parse(text) as string[];
const healthcheck = runtime.steps.find((s) => s.op === "HEALTHCHECK")!;
const healthCommand = execForm(/\bCMD (\[.*\])$/.exec(healthcheck.args)?.[1] ?? "null");
const execFormOf = (op: string) => {
  const step = runtime.steps.findLast((s) => s.op === op);
  return step && execForm(step.args);
};
const entrypoint = execFormOf("ENTRYPOINT");
// An ENTRYPOINT of ours resets the base image's CMD (["node"] in the node images).
const cmd = execFormOf("CMD") ?? (entrypoint ? [] : ["node"]);
const imageWorkdir = runtime.steps.findLast((s) => s.op === "WORKDIR")?.args ?? "/";

/** .dockerignore patterns as anchored regexes: `*` within a segment, `**` across segments. */
const ignored = readFileSync(join(ROOT, ".dockerignore"), "utf8")
  .split("\n")
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith("#"))
  .map((p) => new RegExp(`^${p.replace(/\/$/, "").replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*\*/g, "\0").replace(/\*/g, "[^/]*").replace(/\0/g, ".*")}(/|$)`));
const isIgnored = (rel: string) => ignored.some((re) => re.test(rel.replaceAll("\\", "/")));

let tmp: string;
/** A stage's filesystem root: its absolute paths (/app, /sim, /data) live under it. */
const rootOf = (stage: string) => join(tmp, "stages", stage);
let app: string;

async function replay(stage: Stage): Promise<void> {
  const root = rootOf(stage.name);
  let workdir = "/";
  for (const { op, args } of stage.steps) {
    const inStage = (p: string) => join(root, p.startsWith("/") ? p : join(workdir, p));
    if (op === "WORKDIR") mkdirSync(inStage((workdir = args)), { recursive: true });
    else if (op === "COPY") {
      const parts = args.split(" ");
      const from = parts[0]!.startsWith("--from=") ? parts.shift()!.slice("--from=".length) : undefined;
      const dest = parts.pop()!;
      for (const source of parts) {
        const target = dest.endsWith("/") || parts.length > 1 ? join(inStage(dest), source.split("/").at(-1)!) : inStage(dest);
        if (from !== undefined) {
          cpSync(join(rootOf(from), source), target, { recursive: true });
          continue;
        }
        expect(isIgnored(source), `COPY ${source}: excluded by .dockerignore`).toBe(false);
        expect(existsSync(join(ROOT, source)), `COPY ${source}: not in the build context`).toBe(true);
        cpSync(join(ROOT, source), target, { recursive: true, filter: (src) => !isIgnored(relative(ROOT, src)) });
      }
    } else if (op === "RUN") {
      for (const command of args.split(" && ")) {
        const npm = (extra: string[]) => run("npm", [...command.split(" ").slice(1), ...extra], { cwd: inStage("."), env: { ...hostEnv, ...envOf(stage) }, timeout: NPM_MS });
        if (/^npm ci\b/.test(command) && !command.includes("--omit=dev")) {
          // The build stage's full install: the repository's node_modules stands in for it.
          symlinkSync(join(ROOT, "node_modules"), inStage("node_modules"), "dir");
        } else if (/^npm ci\b.*--omit=dev/.test(command)) await npm(["--prefer-offline"]);
        else if (command === "npm run build") await npm([]);
        else if (/^mkdir -p /.test(command)) for (const dir of command.split(" ").slice(2)) mkdirSync(inStage(dir), { recursive: true });
        // Emptying this machine's npm cache or changing owners is not ours to do.
        else if (!/^npm cache clean\b|^chown /.test(command)) throw new Error(`RUN ${command}: not emulated; teach test/docker.test.ts what it does`);
      }
    }
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The container's environment: the image's ENV plus what `docker run -e` adds. */
const containerEnv = (extra: Record<string, string>) => ({ PATH: process.env.PATH ?? "", ...env, ...extra });

/** A command run in the container as one run here: node is ours, its script is found under the stage's root. */
function inContainer([program, ...args]: string[], workdir: string): SpawnOptions & { command: [string, ...string[]] } {
  expect(program).toBe("node");
  const root = rootOf(runtime.name);
  const [script, ...rest] = args;
  // Node resolves a relative script against the working directory, which `docker run -w` changes.
  const here = script === undefined || script.startsWith("-") ? args : [join(root, posix.resolve(workdir, script)), ...rest];
  return { command: [process.execPath, ...here], cwd: join(root, workdir), cleanEnv: true };
}

/**
 * What `docker run [-w workdir] loyalty-sim ...args` runs. Without an ENTRYPOINT of ours, the node
 * image's docker-entrypoint.sh applies: it hands arguments that start with "-" to node.
 */
function dockerRun(args: string[], workdir = imageWorkdir) {
  const argv = [...(entrypoint ?? []), ...(args.length > 0 ? args : cmd)];
  return inContainer(!entrypoint && argv[0]?.startsWith("-") ? ["node", ...argv] : argv, workdir);
}

function runHealthcheck(port: number, workdir = imageWorkdir) {
  const { command: [program, ...args], cwd } = inContainer(healthCommand, workdir);
  return run(program, args, { cwd, env: containerEnv({ LOYALTY_SIM_PORT: String(port) }), timeout: HANG_MS }).then(
    () => ({ code: 0, stderr: "" }),
    (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
  );
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), "loyalty-sim-docker-"));
  for (const stage of dockerfile) await replay(stage);
  app = join(rootOf(runtime.name), "app");
});

afterAll(async () => {
  await killAll();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("Dockerfile", () => {
  it("builds in one stage and runs a slim image of the newest supported LTS (24) in the last, both on the same Node", () => {
    expect(dockerfile.length).toBeGreaterThanOrEqual(2);
    const [, major, variant] = /^node:(\d+)(?:[.\d]*)?-?(.*)$/.exec(runtime.image) ?? [];
    expect(Number(major)).toBe(24); // the newest LTS line of engines, which .ci/run tests
    expect(dockerfile.map((stage) => stage.image)).toEqual(dockerfile.map(() => runtime.image));
    expect(variant).toMatch(/slim|alpine/);
    expect(runtime.steps.some((s) => s.op === "COPY" && s.args.startsWith(`--from=${dockerfile[0]!.name} `))).toBe(true);
  });

  it("runs as node on 0.0.0.0:4747, configured by the CLI's own variables only", () => {
    expect(runtime.steps.filter((s) => s.op === "USER").map((s) => s.args)).toEqual(["node"]);
    expect(runtime.steps.filter((s) => s.op === "EXPOSE").map((s) => s.args)).toEqual(["4747"]);
    expect(env).toMatchObject({ LOYALTY_SIM_HOST: "0.0.0.0", LOYALTY_SIM_PORT: "4747" });
    const known = new Set(OPTION_NAMES.map(envName));
    expect(Object.keys(env).filter((k) => k.startsWith("LOYALTY_SIM_") && !known.has(k))).toEqual([]);
    // The CLI is the entrypoint (so `docker run` arguments are its flags), both by absolute path.
    expect(entrypoint).toEqual(["node", "/app/dist/cli/bin.js"]);
    expect(runtime.steps.filter((s) => s.op === "CMD")).toEqual([]);
    expect(healthCommand).toEqual(["node", "/app/dist/cli/healthcheck.js"]);
    expect(healthcheck.args).toMatch(/--interval=\d+s/);
  });

  it(".dockerignore keeps build outputs, tests and history out of the context", () => {
    for (const path of ["node_modules", "dist", "test", ".git", "node_modules/hono/package.json", "loyalty-sim-0.1.0.tgz"]) expect(isIgnored(path), path).toBe(true);
    for (const path of ["src", "src/app/app.ts", "package.json", "package-lock.json", "fixtures", "scenarios", "openapi", "tsconfig.build.json"]) expect(isIgnored(path), path).toBe(false);
  });

  it("leaves a runtime stage without dev dependencies, sources or tests", () => {
    for (const file of ["dist/cli/bin.js", "dist/cli/healthcheck.js", "dist/index.js", "fixtures/default.json", "openapi/openapi.json", "scenarios/faults/timeout.yaml", "node_modules/hono", "node_modules/lowdb"]) {
      expect(existsSync(join(app, file)), file).toBe(true);
    }
    for (const file of ["src", "test", "node_modules/typescript", "node_modules/vitest", "node_modules/tsx"]) expect(existsSync(join(app, file)), file).toBe(false);
    expect(existsSync(join(rootOf(runtime.name), "sim"))).toBe(true);
    expect(statSync(join(rootOf(runtime.name), "data")).isDirectory()).toBe(true);
  });

  it("docs/docker-and-ci.md names the image's files as the runtime stage has them, the shipped scenarios its text names included", () => {
    const page = readFileSync(join(ROOT, "docs/docker-and-ci.md"), "utf8");
    const table = page.slice(page.indexOf("| path | what |"), page.indexOf("### Hosting your team's image"));
    const paths = [...table.matchAll(/^\| `(\/[^`]+)` \|/gm)].map((m) => m[1]!);
    expect(paths).toEqual(["/app/dist/", "/app/scenarios/", "/app/scenarios/scenario.schema.json", "/app/fixtures/default.json", "/app/openapi/openapi.json", "/app/assets/", "/app/node_modules/", "/sim", "/data"]);
    const named = [...page.matchAll(/`?(\/app\/[\w./-]+\.(?:json|js|ya?ml))(?![\w.])/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(5);
    for (const path of [...paths, ...named]) expect(existsSync(join(rootOf(runtime.name), path)), path).toBe(true);
  });
});

describe("the image's command, replayed", () => {
  it("serves the env-configured shop with mounted files, answers its healthcheck, and flushes /data on SIGTERM", async () => {
    const root = rootOf(runtime.name);
    const fixture = JSON.parse(readFileSync(join(app, "fixtures/default.json"), "utf8")) as { access: { apiKey: string; apiSecret: string } };
    fixture.access = { ...fixture.access, apiKey: "docker_key", apiSecret: "docker_secret" };
    writeFileSync(join(root, "sim/program.json"), JSON.stringify(fixture));
    writeFileSync(join(root, "sim/no-beacons.yaml"), "name: no-beacons\nrules:\n  - match: { operation: listBeacons }\n    respond: { error: PLAN_UPGRADE_REQUIRED }\n");
    const port = await freePort();
    const vars = {
      LOYALTY_SIM_PORT: String(port),
      LOYALTY_SIM_FIXTURES: join(root, "sim/program.json"),
      LOYALTY_SIM_SCENARIO: join(root, "sim/no-beacons.yaml"),
      LOYALTY_SIM_DATA: join(root, "data/state.json"),
      LOYALTY_SIM_FLUSH_MS: "60000",
      LOYALTY_SIM_SEED: "3",
      LOYALTY_SIM_CUSTOMERS: "4",
    };
    const image = dockerRun([]);
    const cli = await startCli([], containerEnv(vars), HANG_MS, image);
    expect(cli.origin).toBe(`http://127.0.0.1:${port}`);
    expect(cli.banner).toContain("  Credentials: X-Api-Key: docker_key  X-Api-Secret: docker_secret\n  Seed:        3 (4 customers)\n");
    expect(cli.banner).toContain(`  Scenarios:   ${vars.LOYALTY_SIM_SCENARIO}\n`);

    // Bound to 0.0.0.0: another local address reaches it (every 127/8 address is loopback on Linux).
    const origin = process.platform === "linux" ? `http://127.0.0.2:${port}` : cli.origin;
    const headers = { "X-Api-Key": "docker_key", "X-Api-Secret": "docker_secret", "Content-Type": "application/json" };
    const list = (await (await fetch(`${origin}/rest_api/v1/customers`, { headers })).json()) as { data: { id: string; stampBalance: number }[] };
    expect(list.data).toHaveLength(4);
    const { id, stampBalance } = list.data[0]!;
    const award = await fetch(`${origin}/rest_api/v1/customers/${id}/stamps/award`, { method: "POST", headers, body: JSON.stringify({ stamps: 7 }) });
    expect(((await award.json()) as { data: { stampBalance: number } }).data.stampBalance).toBe(stampBalance + 7);
    const beacons = await fetch(`${origin}/rest_api/v1/beacons`, { headers });
    expect([beacons.status, ((await beacons.json()) as { error: { code: string } }).error.code]).toEqual([403, "PLAN_UPGRADE_REQUIRED"]);
    // The inspector's own files ship in the image beside dist/.
    for (const path of ["/__sim/ui", "/__sim/ui/assets/inspector.js", "/__sim/ui/assets/htmx.min.js"]) expect([path, (await fetch(`${origin}${path}`)).status]).toEqual([path, 200]);

    expect(await runHealthcheck(port)).toEqual({ code: 0, stderr: "" });
    expect(existsSync(vars.LOYALTY_SIM_DATA)).toBe(false);
    cli.kill("SIGTERM");
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    expect(cli.stdout()).toContain("loyalty-sim: SIGTERM, shutting down\n");
    const saved = JSON.parse(readFileSync(vars.LOYALTY_SIM_DATA, "utf8")) as { shops: { data: { customers: { id: string; balance: number }[] } }[] };
    expect(saved.shops[0]!.data.customers.find((c) => c.id === id)!.balance).toBe(stampBalance + 7);

    const down = await runHealthcheck(port);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(`healthcheck: http://127.0.0.1:${port}/__sim/health:`);

    // The next container with the same /data volume starts from the saved state.
    const again = await startCli([], containerEnv(vars), HANG_MS, image);
    try {
      expect(again.banner).toContain(`  Seed:        3 (restored from ${vars.LOYALTY_SIM_DATA})\n`);
      const res = await fetch(`${again.origin}/rest_api/v1/customers/${id}`, { headers });
      expect(((await res.json()) as { data: { stampBalance: number } }).data.stampBalance).toBe(stampBalance + 7);
    } finally {
      await stopCli(again);
    }
  });

  it("the healthcheck fails on an answer that is not ok", async () => {
    const server = createServer((socket) => socket.end("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: 17\r\nConnection: close\r\n\r\n{\"status\":\"down\"}"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      expect((await runHealthcheck((server.address() as { port: number }).port)).code).toBe(1);
    } finally {
      server.close();
    }
  });

  it("reads its configuration from the environment: a bad LOYALTY_SIM_PORT stops it with exit 2", async () => {
    const cli = spawnCli([], containerEnv({ LOYALTY_SIM_PORT: "http" }), dockerRun([]));
    expect((await cli.exited).code).toBe(2);
    expect(cli.stderr()).toContain("--port (LOYALTY_SIM_PORT):");
  });

  it("takes `docker run` arguments as the CLI's flags: --seed 42, and --help", async () => {
    const cli = await startCli([], containerEnv({ LOYALTY_SIM_PORT: String(await freePort()) }), HANG_MS, dockerRun(["--seed", "42", "--customers", "3"]));
    try {
      expect(cli.banner).toContain("  Seed:        42 (3 customers)\n");
    } finally {
      await stopCli(cli);
    }
    expect(await runCli([], containerEnv({}), HANG_MS, dockerRun(["--help"]))).toEqual({ code: 0, signal: null, stdout: HELP, stderr: "" });
  });

  it("starts and passes its healthcheck in another working directory (docker run -w /)", async () => {
    const port = await freePort();
    const cli = await startCli([], containerEnv({ LOYALTY_SIM_PORT: String(port) }), HANG_MS, dockerRun([], "/"));
    try {
      expect(cli.origin).toBe(`http://127.0.0.1:${port}`);
      expect(await runHealthcheck(port, "/")).toEqual({ code: 0, stderr: "" });
    } finally {
      await stopCli(cli);
    }
  });
});
