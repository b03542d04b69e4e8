/**
 * Operability: the request log of the CLI (pretty, JSON lines, levels, --quiet), CORS for
 * browser apps, X-Request-Id on every response and the echoed Idempotency-Key.
 */
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import { createSimulator } from "../src/index.js";
import { ensureBuilt, killAll, startCli, stopCli, type StartedCli } from "./support/cli.js";
import { until } from "./support/patience.js";

const creds = { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret" };
const json = { ...creds, "Content-Type": "application/json" };

beforeAll(() => ensureBuilt());
afterAll(killAll);

async function start(ctx: TestContext, args: readonly string[], env: Readonly<Record<string, string>> = {}) {
  const cli = await startCli(["--port", "0", "--customers", "3", ...args], { ...env });
  ctx.onTestFinished(() => stopCli(cli));
  return cli;
}

/** The log lines after the banner, once `count` of them are out (the pipe may lag the response). */
async function logLines(cli: StartedCli, count: number): Promise<string[]> {
  const lines = () => cli.stdout().slice(cli.banner.length).split("\n").filter((l) => l !== "" && !l.startsWith("  "));
  return until(`${count} log lines`, () => lines().length >= count && lines());
}

/** Requests of every kind: success, 404, 401, forced 500, a scenario-decided answer, a fault, and non-API paths. */
async function traffic(origin: string, id: string) {
  await fetch(`${origin}/rest_api/v1/shop`, { headers: creds });
  await fetch(`${origin}/rest_api/v1/customers/${id}/stamps/award`, { method: "POST", headers: json, body: '{"stamps":2}' });
  await fetch(`${origin}/rest_api/v1/customers/404404`, { headers: { ...creds, "X-Request-Id": "mine-1" } });
  await fetch(`${origin}/rest_api/v1/tiers`);
  await fetch(`${origin}/rest_api/v1/rewards`, { headers: { ...creds, Prefer: "error=INTERNAL_ERROR" } });
  await fetch(`${origin}/__sim/health`);
  await fetch(`${origin}/doc`);
  const scenario = {
    name: "logged",
    rules: [
      { match: { operation: "listBeacons" }, respond: { error: "PLAN_UPGRADE_REQUIRED" } },
      { match: { operation: "listEarnRules" }, respond: { fault: "connection_reset" } },
    ],
  };
  expect((await fetch(`${origin}/__sim/scenarios`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(scenario) })).status).toBe(201);
  await fetch(`${origin}/rest_api/v1/beacons`, { headers: creds });
  await fetch(`${origin}/rest_api/v1/earn-rules`, { headers: creds }).catch(() => undefined);
}

async function activeId(origin: string): Promise<string> {
  const body = (await (await fetch(`${origin}/rest_api/v1/customers`, { headers: creds })).json()) as { data: { id: string; state: string }[] };
  return body.data.find((c) => c.state === "active")!.id;
}

describe.concurrent("the request log", () => {
  it("pretty: one line per API request with method, path, status, ms and the scenario rule", async (ctx) => {
    const cli = await start(ctx, []);
    const id = await activeId(cli.origin);
    await traffic(cli.origin, id);
    const lines = await logLines(cli, 8);
    const ms = String.raw` \d+\.\dms`;
    const expected = [
      `GET    /rest_api/v1/customers 200${ms}`,
      `GET    /rest_api/v1/shop 200${ms}`,
      `POST   /rest_api/v1/customers/${id}/stamps/award 200${ms}`,
      `GET    /rest_api/v1/customers/404404 404${ms}`,
      `GET    /rest_api/v1/tiers 401${ms}`,
      `GET    /rest_api/v1/rewards 500${ms}`,
      `GET    /rest_api/v1/beacons 403${ms} \\[scenario logged#0\\]`,
      `GET    /rest_api/v1/earn-rules connection_reset${ms} \\[scenario logged#1\\]`,
    ];
    expect(lines).toHaveLength(expected.length);
    lines.forEach((line, i) => expect(line).toMatch(new RegExp(`^${expected[i]}$`)));
    expect(cli.stdout()).not.toContain("\x1b["); // no colours into a pipe
  });

  it("--log-format json: JSON lines with method, path, status, ms, scenario and request id", async (ctx) => {
    const cli = await start(ctx, ["--log-format", "json"]);
    const id = await activeId(cli.origin);
    await traffic(cli.origin, id);
    const entries = (await logLines(cli, 8)).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries).toHaveLength(8);
    for (const e of entries) {
      expect(Object.keys(e).sort()).toEqual(["fault", "level", "method", "ms", "msg", "path", "requestId", "scenario", "status", "time"]);
      expect(e.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(e.ms).toBeTypeOf("number");
      expect(e.msg).toBe("request");
    }
    expect(entries.map((e) => [e.level, e.method, e.path, e.status, e.fault, e.scenario])).toEqual([
      ["info", "GET", "/rest_api/v1/customers", 200, null, null],
      ["info", "GET", "/rest_api/v1/shop", 200, null, null],
      ["info", "POST", `/rest_api/v1/customers/${id}/stamps/award`, 200, null, null],
      ["info", "GET", "/rest_api/v1/customers/404404", 404, null, null],
      ["info", "GET", "/rest_api/v1/tiers", 401, null, null],
      ["warn", "GET", "/rest_api/v1/rewards", 500, null, null],
      ["info", "GET", "/rest_api/v1/beacons", 403, null, "logged#0"],
      ["warn", "GET", "/rest_api/v1/earn-rules", null, "connection_reset", "logged#1"],
    ]);
    expect(entries[3]!.requestId).toBe("mine-1");
    expect(entries[0]!.requestId).toMatch(/^req_[0-9a-z]{6}$/);
  });

  it.for([
    ["--log-level warn", ["--log-level", "warn"], {}],
    ["LOYALTY_SIM_LOG_LEVEL=warn", [], { LOYALTY_SIM_LOG_LEVEL: "warn" }],
  ] as const)("%s: only server errors and faults", async ([, args, env], ctx) => {
    const cli = await start(ctx, args, env);
    await traffic(cli.origin, await activeId(cli.origin));
    const lines = await logLines(cli, 2);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^GET {4}\/rest_api\/v1\/rewards 500 \d+\.\dms$/);
    expect(lines[1]).toMatch(/^GET {4}\/rest_api\/v1\/earn-rules connection_reset \d+\.\dms \[scenario logged#1\]$/);
  });

  it.for([
    ["--quiet", ["--quiet"], {}],
    ["LOYALTY_SIM_QUIET=true", [], { LOYALTY_SIM_QUIET: "true" }],
    ["--log-level error", ["--log-level", "error"], {}],
    ["--log-level silent", ["--log-level", "silent"], {}],
  ] as const)("%s: the banner and no request lines", async ([, args, env], ctx) => {
    const cli = await start(ctx, args, env);
    await traffic(cli.origin, await activeId(cli.origin));
    await new Promise((r) => setTimeout(r, 100));
    expect(cli.banner).toContain("listening on");
    expect(await logLines(cli, 0)).toEqual([]);
  });
});

describe("CORS", () => {
  const ORIGIN = "http://localhost:5173";
  /** No cookies are involved, so "*" and the caller's origin are both right. */
  const allowsOrigin = (res: Response) => expect(["*", ORIGIN]).toContain(res.headers.get("access-control-allow-origin"));
  const preflight = {
    Origin: ORIGIN,
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "X-Api-Key,X-Api-Secret,Content-Type",
  };

  it("answers a preflight on an API path without credentials", async () => {
    const sim = createSimulator({ customers: 1 });
    const res = await sim.fetch("/rest_api/v1/customers/1/stamps/award", { method: "OPTIONS", headers: preflight });
    expect(res.status).toBe(204);
    allowsOrigin(res);
    const allowed = res.headers.get("access-control-allow-headers")!.toLowerCase().split(",");
    expect(allowed).toEqual(expect.arrayContaining(["x-api-key", "x-api-secret", "content-type"]));
    expect(res.headers.get("access-control-allow-methods")!.split(",")).toEqual(expect.arrayContaining(["GET", "POST", "PATCH", "DELETE"]));
    expect(res.headers.get("access-control-max-age")).toBe("600");
    expect(res.headers.get("x-ratelimit-limit")).toBeNull(); // not counted against the shop
    expect(await sim.control.requests()).toEqual([]);
  });

  it("exposes the rate limit, request id and idempotency headers on answers, errors included", async () => {
    const sim = createSimulator({ customers: 1 });
    const answers = [
      await sim.fetch("/rest_api/v1/shop", { headers: { ...creds, Origin: ORIGIN } }),
      await sim.fetch("/rest_api/v1/shop", { headers: { Origin: ORIGIN } }),
      await sim.fetch("/rest_api/v1/customers/404404", { headers: { ...creds, Origin: ORIGIN } }),
      await sim.fetch("/openapi.json", { headers: { Origin: ORIGIN } }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 401, 404, 200]);
    for (const res of answers) {
      allowsOrigin(res);
      expect(res.headers.get("access-control-expose-headers")!.split(",")).toEqual(["X-RateLimit-Limit", "X-RateLimit-Remaining", "Retry-After", "X-Request-Id", "Idempotency-Key"]);
    }
  });

  it("adds no CORS headers to a request without an Origin (not a browser's cross-origin request)", async () => {
    const sim = createSimulator({ customers: 1 });
    const res = await sim.fetch("/rest_api/v1/shop", { headers: creds });
    expect(res.status).toBe(200);
    expect([...res.headers.keys()].filter((k) => k.startsWith("access-control-"))).toEqual([]);
    const options = await sim.fetch("/rest_api/v1/shop", { method: "OPTIONS", headers: { "Access-Control-Request-Method": "GET" } });
    expect(options.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("is off with createSimulator({ cors: false })", async () => {
    const sim = createSimulator({ customers: 1, cors: false });
    const pre = await sim.fetch("/rest_api/v1/shop", { method: "OPTIONS", headers: preflight });
    expect(pre.status).not.toBe(204);
    const res = await sim.fetch("/rest_api/v1/shop", { headers: { ...creds, Origin: ORIGIN } });
    expect(res.status).toBe(200);
    expect([...res.headers.keys()].filter((k) => k.startsWith("access-control-"))).toEqual([]);
  });

  it.for([
    ["--no-cors", ["--no-cors"], {}],
    ["LOYALTY_SIM_CORS=false", [], { LOYALTY_SIM_CORS: "false" }],
  ] as const)("is off with %s", async ([, args, env], ctx) => {
    const cli = await start(ctx, args, env);
    const pre = await fetch(`${cli.origin}/rest_api/v1/shop`, { method: "OPTIONS", headers: preflight });
    expect(pre.headers.get("access-control-allow-origin")).toBeNull();
    const res = await fetch(`${cli.origin}/rest_api/v1/shop`, { headers: { ...creds, Origin: ORIGIN } });
    expect(res.status).toBe(200);
    expect([...res.headers.keys()].filter((k) => k.startsWith("access-control-"))).toEqual([]);
  });
});

describe("X-Request-Id and Idempotency-Key", () => {
  it.each([
    ["an API answer", "GET", "/rest_api/v1/shop", creds, 200],
    ["an API error", "GET", "/rest_api/v1/customers/404404", creds, 404],
    ["a validation error", "POST", "/rest_api/v1/customers/404404/stamps/award", { ...json }, 422],
    ["a refused request", "GET", "/rest_api/v1/shop", {}, 401],
    ["a path outside the API", "GET", "/nowhere", {}, 404],
    ["the health check", "GET", "/__sim/health", {}, 200],
    ["the docs", "GET", "/doc", {}, 200],
    ["the OpenAPI document", "GET", "/openapi.json", {}, 200],
  ])("on %s", async (_, method, path, headers, status) => {
    const sim = createSimulator({ customers: 1 });
    const body = method === "POST" ? '{"stamps":0}' : undefined;
    const first = await sim.fetch(path, { method, headers, ...(body && { body }) });
    const second = await sim.fetch(path, { method, headers, ...(body && { body }) });
    expect(first.status).toBe(status);
    expect([first.headers.get("x-request-id"), second.headers.get("x-request-id")]).toEqual(["req_000001", "req_000002"]);
    const own = await sim.fetch(path, { method, headers: { ...headers, "X-Request-Id": "client-abc-123", "Idempotency-Key": "idem-42" }, ...(body && { body }) });
    expect([own.status, own.headers.get("x-request-id"), own.headers.get("idempotency-key")]).toEqual([status, "client-abc-123", "idem-42"]);
    expect(first.headers.get("idempotency-key")).toBeNull();
  });

  it("request ids keep counting in base 36 and an Idempotency-Key is echoed, not used to deduplicate", async () => {
    const sim = createSimulator({ customers: 2 });
    const id = sim.engine.defaultShop().store.data.customers.find((c) => !c.excluded && !c.mergedIntoCustomerId)!.id;
    const award = () =>
      sim.fetch(`${sim.baseUrl}/customers/${id}/stamps/award`, { method: "POST", headers: { ...json, "Idempotency-Key": "same" }, body: '{"stamps":1}' });
    const a = (await (await award()).json()) as { data: { stampBalance: number } };
    const b = await award();
    expect(b.headers.get("idempotency-key")).toBe("same");
    expect(((await b.json()) as { data: { stampBalance: number } }).data.stampBalance).toBe(a.data.stampBalance + 1);
    for (let i = 0; i < 32; i++) await sim.fetch("/__sim/health");
    expect((await sim.fetch("/__sim/health")).headers.get("x-request-id")).toBe("req_00000z");
    expect((await sim.fetch("/__sim/health")).headers.get("x-request-id")).toBe("req_000010");
  });
});
