import { readFileSync } from "node:fs";
import { request, Agent } from "node:http";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { parseConfig } from "../src/config.js";
import { buildSimulator } from "../src/simulator/simulator.js";
import { ensureBuilt, killAll, ROOT, runCli, startCli, stopCli, within } from "./support/cli.js";
import { HANG_MS } from "./support/patience.js";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
/** Another loopback address, to see --host honoured (every 127/8 address is loopback on Linux). */
const ALT_HOST = process.platform === "linux" ? "127.0.0.2" : "127.0.0.1";

const creds = (key: string, secret: string) => ({ "X-Api-Key": key, "X-Api-Secret": secret });
const ids = (seed: number, customers: number) =>
  buildSimulator(parseConfig({ seed, customers })).shop.store.data.customers.map((c) => c.id);

beforeAll(() => ensureBuilt());
// Tests run concurrently (support/cli.ts queues the starts by CPU), so each test kills its own
// children when it finishes, pass or fail; this is the safety net.
afterAll(killAll);

/** Starts the CLI for this test only: it is killed when the test finishes. */
async function start(ctx: TestContext, args: string[], env: Record<string, string> = {}) {
  const cli = await startCli(args, env);
  ctx.onTestFinished(() => stopCli(cli));
  return cli;
}

describe.concurrent("loyalty-sim on a real port", () => {
  it("prints the base URL, docs URL, credentials and seed, and serves the seeded shop", async (ctx) => {
    const cli = await start(ctx, ["--port", "0"]);
    const port = Number(/:(\d+)$/.exec(cli.origin)?.[1]);
    expect(port).toBeGreaterThan(0);
    expect(cli.origin).toBe(`http://127.0.0.1:${port}`);
    expect(cli.banner.split("\n")).toEqual([
      `loyalty-sim ${version} listening on ${cli.origin}`,
      `  API:         ${cli.origin}/rest_api/v1`,
      `  GraphQL:     ${cli.origin}/graphql (GraphiQL in a browser)`,
      `  Docs:        ${cli.origin}/doc`,
      `  Inspector:   ${cli.origin}/__sim/ui`,
      `  OpenAPI:     ${cli.origin}/openapi.json`,
      "  Credentials: X-Api-Key: sim_key  X-Api-Secret: sim_secret",
      "  Seed:        1 (50 customers)",
      "",
    ]);
    const first = ids(1, 50)[0]!;
    const res = await fetch(`${cli.origin}/rest_api/v1/customers/${first}`, { headers: creds("sim_key", "sim_secret") });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-limit")).toBe("1000");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("999");
    const body = (await res.json()) as { success: boolean; data: { id: string } };
    expect(body).toMatchObject({ success: true, data: { id: first } });
    const docs = await fetch(`${cli.origin}/doc`);
    expect(docs.status).toBe(200);
    expect(cli.stderr()).toBe("");
  });

  async function checkConfigured(origin: string) {
    const get = (key: string, secret: string) => fetch(`${origin}/rest_api/v1/customers?hasCount=true`, { headers: creds(key, secret) });
    const one = await get("k1", "s1");
    expect(one.status).toBe(200);
    const body = (await one.json()) as { data: { id: string }[]; meta: { pagination: { count: number } } };
    expect(body.meta.pagination.count).toBe(5);
    expect(body.data.map((c) => c.id)).toEqual(ids(7, 5));
    expect([one.headers.get("x-ratelimit-limit"), one.headers.get("x-ratelimit-remaining")]).toEqual(["2", "1"]);
    const old = await get("sim_key", "sim_secret");
    expect(old.status).toBe(401);
    expect(((await old.json()) as { error: { code: string } }).error.code).toBe("UNAUTHORIZED");
    expect((await get("k1", "s1")).status).toBe(200);
    const third = await get("k1", "s1");
    expect(third.status).toBe(429);
    expect(((await third.json()) as { error: { code: string } }).error.code).toBe("RATE_LIMITED");
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(third.headers.get("x-ratelimit-remaining")).toBe("0");
  }

  it("honours --seed --customers --api-key --api-secret --rate-limit", async (ctx) => {
    const cli = await start(ctx, ["--port", "0", "--seed", "7", "--customers", "5", "--api-key", "k1", "--api-secret", "s1", "--rate-limit", "2"]);
    expect(cli.banner).toContain("  Credentials: X-Api-Key: k1  X-Api-Secret: s1\n  Seed:        7 (5 customers)\n");
    await checkConfigured(cli.origin);
  });

  it("honours the same options as LOYALTY_SIM_* environment variables, host and port included", async (ctx) => {
    const cli = await start(ctx, [], {
      LOYALTY_SIM_SEED: "7",
      LOYALTY_SIM_CUSTOMERS: "5",
      LOYALTY_SIM_API_KEY: "k1",
      LOYALTY_SIM_API_SECRET: "s1",
      LOYALTY_SIM_RATE_LIMIT: "2",
      LOYALTY_SIM_PORT: "0",
      LOYALTY_SIM_HOST: ALT_HOST,
    });
    expect(cli.origin).toMatch(new RegExp(`^http://${ALT_HOST.replace(/\./g, "\\.")}:\\d+$`));
    expect(cli.origin).not.toBe("http://127.0.0.1:4747");
    expect(cli.banner).toContain("  Credentials: X-Api-Key: k1  X-Api-Secret: s1\n  Seed:        7 (5 customers)\n");
    await checkConfigured(cli.origin);
  });

  it("lets a flag beat its environment variable; --rate-limit off sends no X-RateLimit headers", async (ctx) => {
    const cli = await start(ctx, ["--port", "0", "--seed", "3", "--api-key", "flag_key", "--rate-limit", "off"], {
      LOYALTY_SIM_SEED: "7",
      LOYALTY_SIM_CUSTOMERS: "5",
      LOYALTY_SIM_API_KEY: "env_key",
      LOYALTY_SIM_RATE_LIMIT: "2",
      LOYALTY_SIM_PORT: "1",
    });
    expect(cli.origin).not.toMatch(/:1$/);
    expect(cli.banner).toContain("  Credentials: X-Api-Key: flag_key  X-Api-Secret: sim_secret\n  Seed:        3 (5 customers)\n");
    const url = `${cli.origin}/rest_api/v1/customers?limit=1000`;
    for (let i = 0; i < 3; i++) {
      const res = await fetch(url, { headers: creds("flag_key", "sim_secret") });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { id: string }[] }).data.map((c) => c.id)).toEqual(ids(3, 5));
      expect(res.headers.get("x-ratelimit-limit")).toBeNull();
      expect(res.headers.get("x-ratelimit-remaining")).toBeNull();
    }
    expect((await fetch(url, { headers: creds("env_key", "sim_secret") })).status).toBe(401);
  });

  it("exits 1 naming the address when the port is taken", async (ctx) => {
    const first = await start(ctx, ["--port", "0"]);
    const port = /:(\d+)$/.exec(first.origin)![1]!;
    const second = await runCli(["--port", port]);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`^loyalty-sim: cannot listen\\b.*\\b127\\.0\\.0\\.1:${port}\\b`));
  });

  it("limits bodies to 1 MiB whether their length is declared or chunked: 413, nothing changed", async (ctx) => {
    const cli = await start(ctx, ["--port", "0", "--customers", "3"]);
    const headers = { ...creds("sim_key", "sim_secret"), "Content-Type": "application/json" };
    const listed = ((await (await fetch(`${cli.origin}/rest_api/v1/customers?limit=3`, { headers })).json()) as { data: { id: string; state: string }[] }).data;
    const id = listed.find((c) => c.state === "active")!.id;
    const balance = async () => ((await (await fetch(`${cli.origin}/rest_api/v1/customers/${id}`, { headers })).json()) as { data: { stampBalance: number } }).data.stampBalance;
    const before = await balance();
    const big = JSON.stringify({ stamps: 1, comment: "x".repeat(1024 * 1024) });
    const send = (body: string, chunked: boolean) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const req = request(`${cli.origin}/rest_api/v1/customers/${id}/stamps/award`, { method: "POST", headers: chunked ? headers : { ...headers, "Content-Length": Buffer.byteLength(body) } }, (res) => {
          let text = "";
          res.setEncoding("utf8").on("data", (c: string) => (text += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        });
        req.on("error", reject);
        // Without Content-Length, node sends the body chunked, in pieces.
        if (chunked) for (let i = 0; i < body.length; i += 65_536) req.write(body.slice(i, i + 65_536));
        req.end(chunked ? undefined : body);
      });
    for (const chunked of [false, true]) {
      const res = await send(big, chunked);
      expect([chunked, res.status, res.body.error]).toEqual([chunked, 413, { message: "Request body is larger than 1048576 bytes", code: "PAYLOAD_TOO_LARGE", statusCode: 413 }]);
    }
    expect(await balance()).toBe(before);
    // A small body, both ways: accepted.
    const small = JSON.stringify({ stamps: 1 });
    for (const chunked of [false, true]) expect((await send(small, chunked)).status).toBe(200);
    expect(await balance()).toBe(before + 2);
  });

  it.for(["SIGTERM", "SIGINT"] as const)("exits 0 promptly on %s, even with an idle keep-alive connection and a half-sent request", async (signal, ctx) => {
    const cli = await start(ctx, ["--port", "0"]);
    const agent = new Agent({ keepAlive: true });
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${cli.origin}/rest_api/v1/shop`, { agent, headers: creds("sim_key", "sim_secret") }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(200);
    await new Promise((r) => setImmediate(r));
    expect(Object.values(agent.freeSockets).flat()).toHaveLength(1);
    // A client that sent half a request: its connection is busy, so only closing it ends the server.
    const { port, hostname } = new URL(cli.origin);
    const slow = connect(Number(port), hostname);
    slow.on("error", () => {});
    // A server that waited for this request would answer it at last with Node's 408 (its headers
    // timeout): prompt is an exit with nothing written to it.
    let answered = "";
    slow.setEncoding("utf8").on("data", (chunk: string) => (answered += chunk));
    await new Promise((r) => slow.once("connect", r));
    slow.write("GET /rest_api/v1/shop HTTP/1.1\r\nHost: sim\r\n");
    await new Promise((r) => setTimeout(r, 50));
    cli.child.kill(signal);
    const exit = await within(cli.exited, HANG_MS, "the simulator still runs");
    agent.destroy();
    slow.destroy();
    expect(exit).toEqual({ code: 0, signal: null });
    expect(answered).toBe("");
    expect(cli.stdout()).toContain(`loyalty-sim: ${signal}, shutting down`);
  });
});

describe.concurrent("loyalty-sim commands that end by themselves", () => {
  it("--help prints the usage with every option and exits 0", async () => {
    const run = await runCli(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Usage: loyalty-sim [options]");
    for (const flag of ["--port", "--host", "--seed", "--customers", "--fixtures", "--api-key", "--api-secret", "--rate-limit", "--exit-with-parent", "--no-inspector", "--help", "--version", "--max-shops", "--max-customers", "--max-scenarios", "--max-scenario-rules"]) {
      expect(run.stdout).toContain(flag);
    }
    expect(run.stdout).toContain("LOYALTY_SIM_RATE_LIMIT");
    expect(run.stdout).toContain("LOYALTY_SIM_MAX_SCENARIO_RULES");
    expect(run.stderr).toBe("");
  });

  it("--version prints the package.json version and exits 0", async () => {
    const run = await runCli(["--version"]);
    expect(run).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: "" });
  });

  // npx in a clone links the project's bin once; a rebuilt dist/cli/bin.js must stay executable
  // (tsc writes 0644), or the cached link answers "Permission denied".
  it("the built bin runs by itself, through its shebang", async () => {
    const run = await runCli(["--version"], {}, HANG_MS, { command: [join(ROOT, "dist/cli/bin.js")] });
    expect(run).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: "" });
  });

  it.each([
    [["--customers", "-1"], {}, "--customers"],
    [["--port", "abc"], {}, "--port (LOYALTY_SIM_PORT): "],
    [["--rate-limit", "0"], {}, "--rate-limit (LOYALTY_SIM_RATE_LIMIT): "],
    [["--bogus"], {}, "Unknown option '--bogus'"],
    [["--fixtures", "/nonexistent.json"], {}, "Fixture /nonexistent.json cannot be read"],
    [[], { LOYALTY_SIM_SEED: "seven" }, "--seed (LOYALTY_SIM_SEED): "],
  ])("%j %j exits 2 naming the problem on stderr", async (args, env, message) => {
    const run = await runCli(args, env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe("");
  });
});
