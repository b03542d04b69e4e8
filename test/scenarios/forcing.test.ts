/**
 * Every documented error code forced three ways (its shipped scenario file, POST /__sim/scenarios,
 * the Prefer header), each answering the catalog status, message and envelope while the shop
 * stays untouched; and the Prefer header's other forms and its refusals.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ERROR_CODES, type ErrorCode } from "../../src/engine/errors.js";
import { ERROR_CATALOG } from "../../src/http/errors.js";
import { loadScenarioFile } from "../../src/scenarios/load.js";
import type { Scenario } from "../../src/scenarios/schema.js";
import { createTestSim, type CallResult, type TestSim } from "../support/sim.js";

const TS = "2026-11-23T12:00:00+00:00";
const kebab = (code: string) => code.toLowerCase().replace(/_/g, "-");
const fileOf = (code: string) => fileURLToPath(new URL(`../../scenarios/errors/${kebab(code)}.yaml`, import.meta.url));

type Req = [method: string, path: string, body?: object];
interface Target {
  id: string;
  codeId: number;
}

/** A request per operation that succeeds and (for mutations) changes the shop when not forced. */
const REQUESTS: Record<string, (t: Target) => Req> = {
  listCustomers: () => ["GET", "/customers"],
  getCustomer: (t) => ["GET", `/customers/${t.id}`],
  updateCustomer: (t) => ["PATCH", `/customers/${t.id}`, { birthday_month: 2, birthday_day: 9 }],
  setCustomerTier: (t) => ["POST", `/customers/${t.id}/tier`, { tier_id: 4 }],
  awardStamps: (t) => ["POST", `/customers/${t.id}/stamps/award`, { stamps: 5 }],
  adjustStamps: (t) => ["POST", `/customers/${t.id}/stamps/adjust`, { stamps: -2 }],
  processEarnRule: (t) => ["POST", `/customers/${t.id}/activities`, { earn_rule_id: 201 }],
  redeemReward: (t) => ["POST", `/customers/${t.id}/redemptions`, { reward_product_id: 101 }],
  useRewardCode: (t) => ["POST", `/customers/${t.id}/reward-codes/${t.codeId}/use`],
  voidRewardCode: (t) => ["POST", `/customers/${t.id}/reward-codes/${t.codeId}/void`],
  getShop: () => ["GET", "/shop"],
  listBeacons: () => ["GET", "/beacons"],
};
const MUTATIONS = ["updateCustomer", "setCustomerTier", "awardStamps", "adjustStamps", "processEarnRule", "redeemReward", "useRewardCode", "voidRewardCode"];

/** A customer given 30 stamps, with one unused reward code of theirs. */
function target(sim: TestSim): Target {
  const id = sim.activeCustomer();
  sim.shop.awardStamps(id, { stamps: 30 });
  sim.shop.redeemReward(id, 101);
  const code = sim.shop.store.codesOf(id).find((c) => !c.used && !c.voided)!;
  return { id, codeId: code.id };
}

const snapshot = (sim: TestSim, id: string) => ({
  data: JSON.stringify(sim.shop.store.data),
  balance: sim.shop.store.customer(id)!.balance,
  ledger: sim.shop.store.activitiesOf(id).length,
});

function send(sim: TestSim, [method, path, body]: Req, headers: Record<string, string> = {}): Promise<CallResult> {
  return sim.call(method, path, { ...(body && { body }), headers, unchecked: true });
}

function forcedBody(code: ErrorCode, why: string) {
  const { status, message } = ERROR_CATALOG[code];
  const details = code === "VALIDATION_ERROR" ? { details: [{ in: "body", path: "(root)", message: why }] } : {};
  return { success: false, error: { message, code, statusCode: status, ...details }, timestamp: TS };
}

function expectForced(res: CallResult, code: ErrorCode, why: string) {
  expect(res.status).toBe(ERROR_CATALOG[code].status);
  expect(res.body).toStrictEqual(forcedBody(code, why));
  expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
  if (code === "RATE_LIMITED") {
    expect([res.headers.get("Retry-After"), res.headers.get("X-RateLimit-Remaining")]).toEqual(["60", "0"]);
  } else {
    expect(res.headers.get("Retry-After")).toBeNull();
  }
}

const CASES = ERROR_CODES.map((code) => [code] as const);

it("every error code of the catalog has its shipped scenario file, each for one operation", () => {
  for (const code of ERROR_CODES) {
    expect(existsSync(fileOf(code)), fileOf(code)).toBe(true);
    const scenario = loadScenarioFile(fileOf(code));
    expect(scenario.name).toBe(`error-${kebab(code)}`);
    expect(scenario.rules).toHaveLength(1);
    expect(scenario.rules[0]!.respond).toStrictEqual({ error: code });
    expect(Object.keys(REQUESTS)).toContain(scenario.rules[0]!.match.operation);
  }
});

describe.each([
  ["its shipped file, loaded at start", "file"],
  ["POST /__sim/scenarios with a JSON body", "json"],
  ["POST /__sim/scenarios with a YAML body", "yaml"],
  ["the Prefer header", "prefer"],
] as const)("forced through %s", (_, way) => {
  it.each(CASES)("%s: the catalog status, message and envelope; the shop untouched", async (code) => {
    const scenario: Scenario = loadScenarioFile(fileOf(code));
    const sim = createTestSim(way === "file" ? { scenarios: [scenario] } : {});
    const t = target(sim);
    const req = REQUESTS[scenario.rules[0]!.match.operation!]!(t);
    if (way === "json" || way === "yaml") {
      const added = await sim.call("POST", "/__sim/scenarios", {
        ...(way === "json" ? { body: scenario } : { rawBody: readFileSync(fileOf(code), "utf8"), headers: { "Content-Type": "application/yaml" } }),
      });
      expect(added.status).toBe(201);
      expect(added.body).toStrictEqual({
        name: scenario.name,
        description: scenario.description,
        owner: "this shop",
        rules: [{ index: 0, match: scenario.rules[0]!.match, respond: { error: code }, hits: 0, matches: 0, remaining: null, spent: false }],
      });
    }
    const before = snapshot(sim, t.id);
    const res = await send(sim, req, way === "prefer" ? { Prefer: `error=${code}` } : {});
    const why = way === "prefer" ? "forced by the Prefer header" : `forced by scenario "${scenario.name}" rule 0`;
    expectForced(res, code, why);
    expect(snapshot(sim, t.id)).toStrictEqual(before);

    const [entry] = (await sim.call("GET", "/__sim/requests?limit=1")).body.requests;
    expect(entry).toMatchObject({ method: req[0], status: ERROR_CATALOG[code].status, operation: scenario.rules[0]!.match.operation });
    expect(entry.scenario).toStrictEqual(way === "prefer" ? null : { scenario: scenario.name, rule: 0 });
    const listed = (await sim.call("GET", "/__sim/scenarios")).body.scenarios;
    expect(listed.map((s: { rules: { hits: number }[] }) => s.rules[0]!.hits)).toEqual(way === "prefer" ? [] : [1]);
  });
});

it.each(MUTATIONS)("unforced, the same %s request succeeds and changes the shop (so the checks above can fail)", async (operation) => {
  const sim = createTestSim();
  const t = target(sim);
  const before = snapshot(sim, t.id);
  const res = await send(sim, REQUESTS[operation]!(t));
  expect(res.status).toBe(200);
  expect(JSON.stringify(sim.shop.store.data)).not.toBe(before.data);
});

describe("Prefer", () => {
  const award = (sim: TestSim, headers: Record<string, string> = {}) =>
    send(sim, ["POST", `/customers/${sim.activeCustomer()}/stamps/award`, { stamps: 5 }], headers);

  it.each([503, 201, 418])("status=%i answers that status with an empty body and runs nothing", async (status) => {
    const sim = createTestSim();
    const id = sim.activeCustomer();
    const before = snapshot(sim, id);
    const res = await award(sim, { Prefer: `status=${status}` });
    expect([res.status, res.body]).toEqual([status, ""]);
    expect(snapshot(sim, id)).toStrictEqual(before);
  });

  it("delay combines with error: the error comes after the delay", async () => {
    const sim = createTestSim();
    const id = sim.activeCustomer();
    const started = performance.now();
    const res = await send(sim, ["POST", `/customers/${id}/redemptions`, { reward_product_id: 101 }], { Prefer: "delay=80, error=INSUFFICIENT_STAMPS" });
    expect(performance.now() - started).toBeGreaterThanOrEqual(79);
    expectForced(res, "INSUFFICIENT_STAMPS", "forced by the Prefer header");
  });

  it("delay alone runs the real handler after the delay", async () => {
    const sim = createTestSim();
    const id = sim.activeCustomer();
    const balance = (await sim.call("GET", `/customers/${id}`)).body.data.stampBalance;
    const started = performance.now();
    const res = await award(sim, { Prefer: "delay=60" });
    expect(performance.now() - started).toBeGreaterThanOrEqual(59);
    expect([res.status, res.body.data.stampBalance]).toEqual([200, balance + 5]);
  });

  it.each([
    ["Error=VOID_FAILED"],
    ['error="VOID_FAILED"'],
    [" error = VOID_FAILED , delay=0 "],
  ])("%j: names are case-insensitive, values may be quoted, spaces are ignored", async (prefer) => {
    const sim = createTestSim();
    expectForced(await award(sim, { Prefer: prefer }), "VOID_FAILED", "forced by the Prefer header");
  });

  it("wins over scenarios: no rule is consulted while it is present", async () => {
    const sim = createTestSim({ scenarios: [loadScenarioFile(fileOf("VALIDATION_ERROR"))] });
    expect((await award(sim, { Prefer: "delay=0" })).status).toBe(200);
    expectForced(await award(sim, { Prefer: "error=TIER_NOT_FOUND" }), "TIER_NOT_FOUND", "forced by the Prefer header");
    const [rule] = (await sim.call("GET", "/__sim/scenarios")).body.scenarios[0].rules;
    expect([rule.hits, rule.matches]).toEqual([0, 0]);
    expectForced(await award(sim), "VALIDATION_ERROR", 'forced by scenario "error-validation-error" rule 0');
  });

  it("comes after credentials, the rate limit and the shop's access checks", async () => {
    const sim = createTestSim({ access: { rateLimit: 1 } });
    const prefer = { Prefer: "error=VOID_FAILED" };
    const unauth = await sim.call("GET", "/shop", { auth: false, headers: prefer, unchecked: true });
    expect([unauth.status, unauth.body.error.code]).toEqual([401, "UNAUTHORIZED"]);
    const first = await sim.call("GET", "/shop", { headers: prefer, unchecked: true });
    expect([first.status, first.headers.get("X-RateLimit-Remaining")]).toEqual([422, "0"]);
    const second = await sim.call("GET", "/shop", { headers: prefer, unchecked: true });
    expect([second.status, second.body.error.code]).toEqual([429, "RATE_LIMITED"]);
    const free = createTestSim({ access: { plan: "free" } });
    const res = await free.call("GET", "/shop", { headers: prefer, unchecked: true });
    expect([res.status, res.body.error.code]).toEqual([403, "PLAN_UPGRADE_REQUIRED"]);
  });

  const UNKNOWN = "unknown preference; loyalty-sim takes error=CODE, status=NNN and delay=MS";
  it.each([
    ["error=NOPE", `error=NOPE: unknown error code; use one of ${ERROR_CODES.join(", ")}`],
    ["error", `error: unknown error code; use one of ${ERROR_CODES.join(", ")}`],
    ["status=abc", "status=abc: must be an HTTP status from 200 to 599 (a 1xx status is not a final answer)"],
    ["status=99", "status=99: must be an HTTP status from 200 to 599 (a 1xx status is not a final answer)"],
    ["status=600", "status=600: must be an HTTP status from 200 to 599 (a 1xx status is not a final answer)"],
    ["delay=-1", "delay=-1: must be milliseconds from 0 to 120000"],
    ["delay=1.5", "delay=1.5: must be milliseconds from 0 to 120000"],
    ["delay=120001", "delay=120001: must be milliseconds from 0 to 120000"],
    ["bogus=1", `bogus=1: ${UNKNOWN}`],
    ["return=minimal", `return=minimal: ${UNKNOWN}`],
    ["error=NOT_FOUND,,", `(empty): ${UNKNOWN}`],
    ["error=NOT_FOUND, error=VOID_FAILED", "error=VOID_FAILED: is given twice"],
    ["delay=1,delay=2", "delay=2: is given twice"],
    ["status=503, status=504", "status=504: is given twice"],
    ["error=NOT_FOUND, status=503", "takes error or status, not both"],
  ])("%j is 422 VALIDATION_ERROR with its detail on the Prefer header, changing nothing", async (prefer, message) => {
    const sim = createTestSim();
    const id = sim.activeCustomer();
    const before = snapshot(sim, id);
    const res = await award(sim, { Prefer: prefer });
    expect(res.status).toBe(422);
    expect(res.body).toStrictEqual({
      success: false,
      error: { message: "Request validation failed", code: "VALIDATION_ERROR", statusCode: 422, details: [{ in: "header", path: "Prefer", message }] },
      timestamp: TS,
    });
    expect(snapshot(sim, id)).toStrictEqual(before);
  });
});
