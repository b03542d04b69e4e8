/**
 * Scenario rules: what they match, which one decides, times/after/probability, each kind of
 * respond, and how invalid scenarios are refused.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { serializeScenarioSchema } from "../../src/simulator/openapi-document.js";
import { loadScenarioFile, parseScenario, ScenarioError } from "../../src/scenarios/load.js";
import type { ScenarioInput } from "../../src/scenarios/schema.js";
import { AUTH, createTestSim, type TestSim, type TestSimOptions } from "../support/sim.js";

const SCENARIOS_DIR = fileURLToPath(new URL("../../scenarios/", import.meta.url));
type Rule = ScenarioInput["rules"][number];

/** A sim whose start-up scenario has these rules. */
const simWith = (rules: Rule[], options: TestSimOptions = {}) =>
  createTestSim({ ...options, scenarios: [parseScenario({ name: "t", rules }, "test")] });
const send = (sim: TestSim, method: string, path: string, init: { body?: object; headers?: Record<string, string> } = {}) =>
  sim.call(method, path, { ...init, unchecked: true });
const teapot = { status: 418 };
const rulesOf = async (sim: TestSim, headers: Record<string, string> = {}) =>
  (await sim.call("GET", "/__sim/scenarios", { headers })).body.scenarios.flatMap((s: { rules: unknown[] }) => s.rules);

describe("matching", () => {
  const [A, B] = createTestSim().shop.store.data.customers.filter((c) => !c.excluded && !c.mergedIntoCustomerId).map((c) => c.id) as [string, string];
  type Probe = [method: string, path: string, init?: { body?: object; headers?: Record<string, string> }];
  it.each<[string, Rule["match"], Probe, Probe]>([
    ["operation", { operation: "getCustomer" }, ["GET", `/customers/${A}`], ["GET", "/customers"]],
    ["method + path template", { method: "POST", path: "/customers/{id}/stamps/award" }, ["POST", `/customers/${A}/stamps/award`, { body: { stamps: 1 } }], ["POST", `/customers/${A}/stamps/adjust`, { body: { stamps: 1 } }]],
    ["method in lower case", { method: "get", path: "/shop" }, ["GET", "/shop"], ["GET", "/tiers"]],
    ["a path with the API base", { path: "/rest_api/v1/tiers/{id}" }, ["GET", "/tiers/2"], ["GET", "/tiers"]],
    ["the method when given", { method: "PATCH", path: "/customers/{id}" }, ["PATCH", `/customers/${A}`, { body: { birthday_month: 1, birthday_day: 2 } }], ["GET", `/customers/${A}`]],
    ["* within one segment", { path: "/customers/*" }, ["GET", `/customers/${A}`], ["GET", `/customers/${A}/activities`]],
    ["* inside a segment", { path: "/earn-*" }, ["GET", "/earn-rules"], ["GET", "/tiers"]],
    ["** across segments", { path: "/customers/**" }, ["GET", `/customers/${A}/reward-codes`], ["GET", "/rewards"]],
    ["customerId", { customerId: A }, ["GET", `/customers/${A}/activities`], ["GET", `/customers/${B}`]],
    ["headers, names in any case", { headers: { "X-CLIENT": "pos" } }, ["GET", "/shop", { headers: { "x-client": "pos" } }], ["GET", "/shop", { headers: { "X-Client": "web" } }]],
    ["a partial deep body", { body: { earn_rule_id: 203 } }, ["POST", `/customers/${A}/activities`, { body: { earn_rule_id: 203 } }], ["POST", `/customers/${A}/activities`, { body: { earn_rule_id: 201 } }]],
    ["a nested partial body", { body: { meta: { tag: "x" } } }, ["PATCH", `/customers/${A}`, { body: { birthday_month: 1, birthday_day: 2, meta: { tag: "x", n: 1 } } }], ["PATCH", `/customers/${A}`, { body: { birthday_month: 1, birthday_day: 2, meta: { tag: "y" } } }]],
    ["query", { query: { available: "true" } }, ["GET", `/customers/${A}/reward-codes?available=true`], ["GET", `/customers/${A}/reward-codes?available=false`]],
    ["all fields at once", { operation: "getCustomer", customerId: A }, ["GET", `/customers/${A}`], ["GET", `/customers/${B}`]],
    ["the default shop's apiKey", { apiKey: "sim_key" }, ["GET", "/shop"], ["GET", "/shop", { headers: { "X-Api-Key": "k2", "X-Api-Secret": "s2" } }]],
  ])("%s", async (_, match, [m1, p1, i1], [m2, p2, i2]) => {
    const sim = simWith([{ match, respond: teapot }]);
    sim.engine.addShop({ ...sim.engine.spec("1")!, id: "2", access: { ...sim.shop.access, apiKey: "k2", apiSecret: "s2" } });
    expect((await send(sim, m1, p1, i1)).status).toBe(418);
    const miss = await send(sim, m2, p2, i2);
    expect([miss.status, miss.body.success]).toEqual([200, true]);
    expect((await rulesOf(sim))[0]).toMatchObject({ hits: 1, matches: 1 });
  });

  it("a rule added for one shop's key never hits another shop (created through POST /__sim/shops)", async () => {
    const sim = createTestSim();
    const b = (await sim.call("POST", "/__sim/shops", { body: {} })).body;
    const credsB = { "X-Api-Key": b.apiKey, "X-Api-Secret": b.apiSecret };
    await sim.call("POST", "/__sim/scenarios", { headers: { "X-Api-Key": b.apiKey }, body: { name: "b-only", rules: [{ respond: teapot }] } });
    expect((await send(sim, "GET", "/shop", { headers: credsB })).status).toBe(418);
    expect((await send(sim, "GET", "/shop")).status).toBe(200);
    expect(await rulesOf(sim)).toEqual([]);
    expect((await rulesOf(sim, { "X-Api-Key": b.apiKey }))[0]).toMatchObject({ hits: 1, matches: 1 });
    // A start-up rule naming shop B's key by apiKey hits B only.
    const sim2 = simWith([{ match: { apiKey: "sim_key_2" }, respond: teapot }]);
    const b2 = (await sim2.call("POST", "/__sim/shops", { body: {} })).body;
    expect((await send(sim2, "GET", "/shop", { headers: { "X-Api-Key": b2.apiKey, "X-Api-Secret": b2.apiSecret } })).status).toBe(418);
    expect((await send(sim2, "GET", "/shop")).status).toBe(200);
  });
});

describe("which rule decides", () => {
  it("the first matching rule of a scenario wins", async () => {
    const sim = simWith([{ match: { operation: "getShop" }, respond: teapot }, { respond: { status: 409 } }]);
    expect([(await send(sim, "GET", "/shop")).status, (await send(sim, "GET", "/tiers")).status]).toEqual([418, 409]);
    expect((await rulesOf(sim)).map((r: { hits: number; matches: number }) => [r.hits, r.matches])).toEqual([[1, 1], [1, 1]]);
  });

  it("runtime scenarios come first, newest first; re-adding a name moves it to the front", async () => {
    const sim = simWith([{ respond: { status: 409 } }]);
    const add = (name: string, status: number) =>
      sim.call("POST", "/__sim/scenarios", { body: { name, rules: [{ match: { operation: "getShop" }, respond: { status } }] } });
    expect((await send(sim, "GET", "/shop")).status).toBe(409);
    await add("one", 410);
    await add("two", 411);
    expect([(await send(sim, "GET", "/shop")).status, (await send(sim, "GET", "/tiers")).status]).toEqual([411, 409]);
    await add("one", 412);
    expect((await send(sim, "GET", "/shop")).status).toBe(412);
    const names = (await sim.call("GET", "/__sim/scenarios")).body.scenarios.map((s: { name: string; owner: string }) => `${s.name}/${s.owner}`);
    expect(names).toEqual(["one/this shop", "two/this shop", "t/all shops"]);
  });
});

describe("times, after, probability", () => {
  const statuses = async (sim: TestSim, n: number) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await send(sim, "GET", "/shop")).status);
    return out;
  };
  it.each<[string, Partial<Rule>, number[], object]>([
    ["times 3", { times: 3 }, [418, 418, 418, 200, 200], { hits: 3, matches: 3, remaining: 0, spent: true }],
    ["after 2", { after: 2 }, [200, 200, 418, 418, 418], { hits: 3, matches: 5, remaining: null, spent: false }],
    ["after 1, times 2", { after: 1, times: 2 }, [200, 418, 418, 200, 200], { hits: 2, matches: 3, remaining: 0, spent: true }],
    ["probability 0", { probability: 0 }, [200, 200, 200, 200, 200], { hits: 0, matches: 5 }],
    ["probability 1", { probability: 1 }, [418, 418, 418, 418, 418], { hits: 5, matches: 5 }],
  ])("%s", async (_, when, expected, counters) => {
    const sim = simWith([{ match: { operation: "getShop" }, ...when, respond: teapot }]);
    expect(await statuses(sim, 5)).toEqual(expected);
    expect((await rulesOf(sim))[0]).toMatchObject(counters);
  });

  it("probability draws from the seeded source: same seed same hits, another seed others, reset repeats", async () => {
    const rule: Rule = { match: { operation: "getShop" }, probability: 0.5, respond: teapot };
    const run = async (sim: TestSim) => (await statuses(sim, 40)).map((s) => (s === 418 ? 1 : 0)).join("");
    const a = simWith([rule], { seed: 7 });
    const first = await run(a);
    expect(await run(simWith([rule], { seed: 7 }))).toBe(first);
    expect(await run(simWith([rule], { seed: 8 }))).not.toBe(first);
    const hits = [...first].filter((c) => c === "1").length;
    expect(hits).toBeGreaterThan(5);
    expect(hits).toBeLessThan(35);
    expect((await rulesOf(a))[0]).toMatchObject({ hits, matches: 40 });
    await a.call("POST", "/__sim/reset");
    expect((await rulesOf(a))[0]).toMatchObject({ hits: 0, matches: 0 });
    expect(await run(a)).toBe(first);
  });
});

describe("respond", () => {
  it("rateLimit: its own quota headers, then 429 with Retry-After, reopening when the clock moves", async () => {
    const sim = simWith([{ match: { operation: "getShop" }, respond: { rateLimit: { limit: 2, windowSeconds: 60 } } }]);
    const view = async () => {
      const res = await send(sim, "GET", "/shop");
      return [res.status, res.headers.get("X-RateLimit-Limit"), res.headers.get("X-RateLimit-Remaining"), res.headers.get("Retry-After")];
    };
    expect(await view()).toEqual([200, "2", "1", null]);
    expect(await view()).toEqual([200, "2", "0", null]);
    expect(await view()).toEqual([429, "2", "0", "60"]);
    const limited = await send(sim, "GET", "/shop");
    expect(limited.body.error).toStrictEqual({ code: "RATE_LIMITED", statusCode: 429, message: "Rate limit of 2 requests exceeded; retry in 60 s" });
    // Other operations keep the shop's own quota.
    expect((await send(sim, "GET", "/tiers")).headers.get("X-RateLimit-Limit")).toBe("1000");
    await sim.call("POST", "/__sim/clock", { body: { advanceSeconds: 45 } });
    expect(await view()).toEqual([429, "2", "0", "15"]);
    await sim.call("POST", "/__sim/clock", { body: { advanceSeconds: 15 } });
    expect(await view()).toEqual([200, "2", "1", null]);
  });

  it("status with body and headers: a raw response, the handler not run", async () => {
    const sim = simWith([{ match: { operation: "awardStamps" }, respond: { status: 503, body: { maintenance: true }, headers: { "Retry-After": "120" } } }]);
    const id = sim.activeCustomer();
    const balance = sim.shop.store.customer(id)!.balance;
    const res = await send(sim, "POST", `/customers/${id}/stamps/award`, { body: { stamps: 5 } });
    expect([res.status, res.body, res.headers.get("Retry-After"), res.headers.get("Content-Type")]).toEqual([503, { maintenance: true }, "120", "application/json"]);
    expect(sim.shop.store.customer(id)!.balance).toBe(balance);
  });

  it("a rule's headers replace the simulator's own whatever their case: each header is sent once", async () => {
    const headers = { "x-ratelimit-remaining": "5", "content-type": "application/problem+json", "x-request-id": "forced" };
    const sim = simWith([{ match: { operation: "getShop" }, respond: { status: 200, body: { ok: true }, headers } }]);
    const res = await send(sim, "GET", "/shop");
    // Headers.get joins repeated names with ", ": one value each means no duplicate was sent.
    expect([res.headers.get("X-RateLimit-Remaining"), res.headers.get("Content-Type"), res.headers.get("X-Request-Id"), res.headers.get("X-RateLimit-Limit")]).toEqual(["5", "application/problem+json", "forced", "1000"]);
  });

  it.each<[string, Rule["respond"], number]>([
    ["delayMs alone", { delayMs: 60 }, 60],
    ["delayMs [min, max]", { delayMs: [40, 70] }, 40],
  ])("%s delays, then the real handler runs", async (_, respond, atLeast) => {
    const sim = simWith([{ match: { operation: "awardStamps" }, respond }]);
    const id = sim.activeCustomer();
    const balance = (await sim.call("GET", `/customers/${id}`)).body.data.stampBalance;
    const started = performance.now();
    const res = await send(sim, "POST", `/customers/${id}/stamps/award`, { body: { stamps: 5 } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(atLeast - 1);
    expect([res.status, res.body.data.stampBalance]).toEqual([200, balance + 5]);
  });

  it("delayMs with an error: the error after the delay", async () => {
    const sim = simWith([{ match: { operation: "getShop" }, respond: { error: "NOT_FOUND", message: "Gone", delayMs: 50 } }]);
    const started = performance.now();
    const res = await send(sim, "GET", "/shop");
    expect(performance.now() - started).toBeGreaterThanOrEqual(49);
    expect([res.status, res.body.error]).toEqual([404, { code: "NOT_FOUND", statusCode: 404, message: "Gone" }]);
  });

  // No socket to break: a 599 marking the fault (what `inProcessFetch` turns into a fetch error).
  it.each<[string, number, string]>([
    ["connection_reset", 599, ""],
    ["empty_response", 599, ""],
    ["timeout", 599, ""],
    ["malformed_json", 200, '{"success":true,"data":{"id":"6677889900","firstName":"Ali'],
  ])("fault %s through app.request (no socket): the marker response, journaled", async (fault, status, text) => {
    const sim = simWith([{ match: { operation: "getShop" }, respond: { fault: fault as "timeout" } }]);
    const client = new AbortController();
    let answered = false;
    const pending = Promise.resolve(sim.app.request("/rest_api/v1/shop", { headers: AUTH, signal: client.signal })).then((res) => ((answered = true), res));
    // Only the timeout waits for the client to give up: the others answer with the signal untouched.
    for (let turn = 0; turn < 20 && !answered; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(fault !== "timeout");
    client.abort();
    const res = await pending;
    expect([res.status, res.headers.get("x-loyalty-sim-fault"), await res.text()]).toEqual([status, fault === "malformed_json" ? null : fault, text]);
    const [entry] = (await sim.call("GET", "/__sim/requests")).body.requests;
    expect(entry).toMatchObject({ status: fault === "malformed_json" ? 200 : null, fault, responseBody: text || null, scenario: { scenario: "t", rule: 0 } });
  });
});

describe("validation", () => {
  it.each<[string, unknown, string, string]>([
    ["an unknown error code", { name: "n", rules: [{ respond: { status: 200 } }, { respond: { error: "NOPE" } }] }, "rules[1].respond.error", "Invalid option"],
    ["an empty respond", { name: "n", rules: [{ respond: {} }] }, "rules[0].respond", "needs one of error, status, rateLimit, fault or delayMs"],
    ["two kinds", { name: "n", rules: [{ respond: { error: "NOT_FOUND", fault: "timeout" } }] }, "rules[0].respond", "takes one of error, status, rateLimit or fault, not error and fault"],
    ["message without error", { name: "n", rules: [{ respond: { status: 200, message: "x" } }] }, "rules[0].respond.message", "goes with error"],
    ["headers without status", { name: "n", rules: [{ respond: { error: "NOT_FOUND", headers: {} } }] }, "rules[0].respond.headers", "goes with status"],
    ["delay range upside down", { name: "n", rules: [{ respond: { delayMs: [50, 10] } }] }, "rules[0].respond.delayMs", "must be [min, max] with min <= max"],
    ["probability above 1", { name: "n", rules: [{ probability: 1.5, respond: teapot }] }, "rules[0].probability", "Too big"],
    ["times 0", { name: "n", rules: [{ times: 0, respond: teapot }] }, "rules[0].times", "Too small"],
    ["an unknown operation", { name: "n", rules: [{ match: { operation: "nope" }, respond: teapot }] }, "rules[0].match.operation", "Invalid option"],
    ["a bad method", { name: "n", rules: [{ match: { method: "FETCH" }, respond: teapot }] }, "rules[0].match.method", "must be GET, POST, PATCH, PUT or DELETE"],
    ["a relative path", { name: "n", rules: [{ match: { path: "shop" }, respond: teapot }] }, "rules[0].match.path", "must start with /"],
    ["an unknown match key", { name: "n", rules: [{ match: { operaton: "getShop" }, respond: teapot }] }, "rules[0].match", 'Unrecognized key: "operaton"'],
    ["no rules", { name: "n", rules: [] }, "rules", "Too small"],
    ["a name with /", { name: "a/b", rules: [{ respond: teapot }] }, "name", "must not contain /"],
  ])("%s: the file, rule index and field are named, in files and in POST bodies", async (_, data, path, message) => {
    const dir = mkdtempSync(join(tmpdir(), "loyalty-sim-"));
    const file = join(dir, "bad.json");
    writeFileSync(file, JSON.stringify(data));
    let error: unknown;
    try {
      loadScenarioFile(file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ScenarioError);
    expect((error as ScenarioError).message).toMatch(new RegExp(`^Scenario ${file.replace(/[.\\/]/g, "\\$&")} is not valid:\n`));
    expect((error as ScenarioError).message).toContain(`  - ${path}: ${message}`);
    const res = await createTestSim({ customers: 0 }).call("POST", "/__sim/scenarios", { body: data });
    expect([res.status, res.body.error.code, res.body.error.message]).toEqual([422, "VALIDATION_ERROR", "Request validation failed"]);
    expect(res.body.error.details).toContainEqual({ in: "body", path, message: expect.stringContaining(message) });
  });

  it("YAML files and bodies: syntax errors, and the same field paths", async () => {
    const dir = mkdtempSync(join(tmpdir(), "loyalty-sim-"));
    writeFileSync(join(dir, "bad.yaml"), "name: n\nrules:\n  - respond: { status: 200 }\n  - respond: { error: NOPE }\n");
    expect(() => loadScenarioFile(join(dir, "bad.yaml"))).toThrow(/^Scenario .*bad\.yaml is not valid:\n {2}- rules\[1\]\.respond\.error: Invalid option/);
    writeFileSync(join(dir, "syntax.yaml"), "name: [\n");
    expect(() => loadScenarioFile(join(dir, "syntax.yaml"))).toThrow(/ - \(root\): is not valid YAML: /);
    expect(() => loadScenarioFile(join(dir, "missing.yaml"))).toThrow(/ - \(file\): cannot be read: ENOENT/);
    const sim = createTestSim({ customers: 0 });
    const yaml = (text: string) => sim.call("POST", "/__sim/scenarios", { rawBody: text, headers: { "Content-Type": "application/yaml" } });
    const bad = await yaml(readFileSync(join(dir, "bad.yaml"), "utf8"));
    expect([bad.status, bad.body.error.message, bad.body.error.details.map((d: { path: string }) => d.path)]).toEqual([422, "Request validation failed", ["rules[1].respond.error"]]);
    const syntax = await yaml("name: [\n");
    expect([syntax.status, syntax.body.error.details[0].path]).toEqual([422, "(root)"]);
    expect(syntax.body.error.details[0].message).toMatch(/^is not valid YAML: /);
    const none = await sim.call("POST", "/__sim/scenarios");
    expect(none.body.error.details).toStrictEqual([{ in: "header", path: "Content-Type", message: "must be application/json or application/yaml, got none" }]);
  });

  it("the committed JSON Schema is the generated one, and every shipped scenario passes both it and zod", () => {
    expect(readFileSync(join(SCENARIOS_DIR, "scenario.schema.json"), "utf8")).toBe(serializeScenarioSchema());
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(JSON.parse(serializeScenarioSchema()));
    const files = readdirSync(SCENARIOS_DIR, { recursive: true, encoding: "utf8" }).filter((f) => /\.(ya?ml|json)$/.test(f) && !f.endsWith("scenario.schema.json"));
    expect(files.length).toBe(16 + 5 + 2);
    for (const file of files) {
      const scenario = loadScenarioFile(join(SCENARIOS_DIR, file));
      const raw: unknown = parseYaml(readFileSync(join(SCENARIOS_DIR, file), "utf8"));
      expect(scenario.name).toBe((raw as { name: string }).name);
      expect(validate(raw), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    expect(validate({ name: "n", rules: [{ respond: { error: "NOPE" } }] })).toBe(false);
  });
});
