/**
 * Issue 26, case 14. Was: the OpenAPI document admitted what the simulator refuses, so generated
 * clients and validators sent it: `stamps: 0` on adjust, integers past 2^53-1, half a birthday,
 * name, email and phone in PATCH, a `Prefer` header of any text (and none of the statuses it
 * forces), and a scenario `delayMs` of `[]` or `[1,2,3]`. Each input below is refused by the
 * document (Ajv, JSON Schema 2020-12) and by the server (the exact 422), and its valid neighbour is
 * admitted by both. What OAS 3.1 cannot say (`after` with `before`, a `[max, min]` pair, a
 * reward's own bounds) the server refuses and the document says in words.
 */
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { MAX_STAMPS } from "../../src/engine/index.js";
import { checkParameter, checkRequestBody, parametersOf } from "../support/openapi-check.js";
import { createTestSim, NOW_ISO, type TestSim } from "../support/sim.js";

const API = "/rest_api/v1";
const AT_MOST = `must be at most ${MAX_STAMPS}, the most stamps a balance may hold (production's GraphQL API types stamp counts as 32-bit integers)`;
const AT_LEAST = `must be at least -${MAX_STAMPS}, the most stamps a balance may hold (production's GraphQL API types stamp counts as 32-bit integers)`;
const PAST_SAFE = "Too big: expected number to be <=9007199254740991";
const OWNED = "is owned by the commerce platform and cannot be changed here";

/** A customer given 50 stamps, and the path of a `{id}` template for them. */
function setUp(): { sim: TestSim; path: (template: string) => string } {
  const sim = createTestSim({ customers: 5 });
  const id = sim.activeCustomer();
  sim.shop.awardStamps(id, { stamps: 50 });
  return { sim, path: (template) => template.replace("{id}", id) };
}

function expectRefused(res: { status: number; body: unknown }, where: string, path: string, message: string) {
  expect([res.status, res.body]).toEqual([
    422,
    {
      success: false,
      error: { message: "Request validation failed", code: "VALIDATION_ERROR", statusCode: 422, details: [{ in: where, path, message }] },
      timestamp: NOW_ISO,
    },
  ]);
}

type BodyCase = [name: string, method: string, template: string, body: object, field: string, message: string, neighbour: object];
const award = `${API}/customers/{id}/stamps/award`;
const adjust = `${API}/customers/{id}/stamps/adjust`;
const patch = `${API}/customers/{id}`;
const tier = `${API}/customers/{id}/tier`;
const redeem = `${API}/customers/{id}/redemptions`;
const grant = `${API}/customers/{id}/reward-grants`;
const earn = `${API}/customers/{id}/activities`;

const BODIES: BodyCase[] = [
  ["stamps 0 on adjust", "POST", adjust, { stamps: 0 }, "stamps", "must not be 0", { stamps: -1 }],
  ["stamps 2^53 on award", "POST", award, { stamps: 2 ** 53 }, "stamps", AT_MOST, { stamps: 1 }],
  ["stamps MAX_STAMPS + 1 on award", "POST", award, { stamps: MAX_STAMPS + 1 }, "stamps", AT_MOST, { stamps: 2 }],
  ["stamps 2^53 on adjust", "POST", adjust, { stamps: 2 ** 53 }, "stamps", AT_MOST, { stamps: 3 }],
  ["stamps -(MAX_STAMPS + 1) on adjust", "POST", adjust, { stamps: -(MAX_STAMPS + 1) }, "stamps", AT_LEAST, { stamps: -4 }],
  ["tier_id 2^53", "POST", tier, { tier_id: 2 ** 53 }, "tier_id", PAST_SAFE, { tier_id: 2 }],
  ["tier_id 0", "POST", tier, { tier_id: 0 }, "tier_id", "Too small: expected number to be >=1", { tier_id: 1 }],
  ["reward_product_id 2^53 on redeem", "POST", redeem, { reward_product_id: 2 ** 53 }, "reward_product_id", PAST_SAFE, { reward_product_id: 101 }],
  ["reward_product_id 2^53 on grant", "POST", grant, { reward_product_id: 2 ** 53 }, "reward_product_id", PAST_SAFE, { reward_product_id: 101 }],
  ["variable_amount MAX_STAMPS + 1", "POST", redeem, { reward_product_id: 106, variable_amount: MAX_STAMPS + 1 }, "variable_amount", AT_MOST, { reward_product_id: 106, variable_amount: 5 }],
  ["variable_amount 2^53 on grant", "POST", grant, { reward_product_id: 106, variable_amount: 2 ** 53 }, "variable_amount", AT_MOST, { reward_product_id: 106, variable_amount: 100 }],
  ["earn_rule_id 2^53", "POST", earn, { earn_rule_id: 2 ** 53 }, "earn_rule_id", PAST_SAFE, { earn_rule_id: 201 }],
  ["birthday_month alone", "PATCH", patch, { birthday_month: 5 }, "birthday_day", "is required when birthday_month is sent", { birthday_month: 5, birthday_day: 17 }],
  ["birthday_day alone", "PATCH", patch, { birthday_day: 17, excluded: false }, "birthday_month", "is required when birthday_day is sent", { birthday_day: 17, birthday_month: 5, excluded: false }],
  ["30 February", "PATCH", patch, { birthday_month: 2, birthday_day: 30 }, "birthday_day", "month 2 has at most 29 days", { birthday_month: 2, birthday_day: 29 }],
  ["31 April", "PATCH", patch, { birthday_month: 4, birthday_day: 31 }, "birthday_day", "month 4 has at most 30 days", { birthday_month: 4, birthday_day: 30 }],
  ...["firstName", "lastName", "email", "phone", "first_name", "last_name"].map(
    (field): BodyCase => [`${field} in PATCH`, "PATCH", patch, { [field]: "x", excluded: false }, field, OWNED, { nickname: "x", excluded: false }],
  ),
];

describe("issue 26, case 14: the OpenAPI document is looser than the server", () => {
  it.each(BODIES)("%s: the document and the server refuse it; its neighbour is admitted by both", async (_, method, template, body, field, message, neighbour) => {
    expect(checkRequestBody(method, template, body).valid, "the document admits it").toBe(false);
    expect(checkRequestBody(method, template, neighbour)).toEqual({ valid: true, errors: "" });
    const { sim, path } = setUp();
    const version = sim.shop.store.version;
    expectRefused(await sim.call(method, path(template), { body }), "body", field, message);
    expect(sim.shop.store.version, "a refused request changed the shop").toBe(version);
    expect((await sim.call(method, path(template), { body: neighbour })).status).toBe(200);
  });

  it("the stamp bounds themselves are admitted by both: MAX_STAMPS awarded to an empty balance, and adjusted away", async () => {
    const { sim, path } = setUp();
    const id = path("{id}");
    sim.shop.adjustStamps(id, { stamps: -sim.shop.store.customer(id)!.balance });
    for (const [template, stamps, balance] of [[award, MAX_STAMPS, MAX_STAMPS], [adjust, -MAX_STAMPS, 0]] as const) {
      expect(checkRequestBody("POST", template, { stamps }).valid).toBe(true);
      const res = await sim.call("POST", path(template), { body: { stamps } });
      expect([res.status, res.body.data.stampBalance]).toEqual([200, balance]);
    }
  });

  it("variable_amount within the global bounds but out of the reward's own: the document says so, the server refuses", async () => {
    const { sim, path } = setUp();
    expect(checkRequestBody("POST", redeem, { reward_product_id: 106, variable_amount: 101 }).valid).toBe(true);
    expectRefused(await sim.call("POST", path(redeem), { body: { reward_product_id: 106, variable_amount: 101 } }), "body", "variable_amount", "must be between 1 and 100 for reward 106");
    const doc = JSON.parse(readFileSync(new URL("../../openapi/openapi.json", import.meta.url), "utf8"));
    for (const name of ["RedemptionRequest", "GrantRequest"]) {
      expect(doc.components.schemas[name].properties.variable_amount.description).toMatch(/reward's own bounds/);
    }
  });

  it("after with before: each parameter is admitted alone and says the other is refused with it; the server refuses the pair", async () => {
    const { sim } = setUp();
    const [first, second] = (await sim.call("GET", `${API}/customers?limit=2`)).body.data.map((c: { id: string }) => Buffer.from(`id:${c.id}`).toString("base64"));
    for (const [name, other] of [["after", "before"], ["before", "after"]] as const) {
      expect(checkParameter("GET", `${API}/customers`, "query", name, first)).toBe(true);
      const { schema } = parametersOf("GET", `${API}/customers`).find((p) => p.name === name)!;
      expect(schema.description).toContain(`not with \`${other}\``);
    }
    expectRefused(await sim.call("GET", `${API}/customers?after=${first}&before=${second}`), "query", "before", "cannot be combined with 'after'; send one cursor");
    // What a cursor is can be said: the document refuses text that is no cursor, as the server does.
    expect(checkParameter("GET", `${API}/customers`, "query", "after", "Zm9v")).toBe(false);
    expectRefused(await sim.call("GET", `${API}/customers?after=Zm9v`), "query", "after", "is not a cursor returned by this API (expected base64 of 'id:<id>')");
  });

  it.each([
    ["/__sim/requests", "limit", "100001", "Too big: expected number to be <=100000", "0"],
    ["/__sim/requests", "after", "9007199254740993", PAST_SAFE, "9007199254740991"],
    ["/__sim/requests", "status", "600", "Too big: expected number to be <=599", "599"],
    ["/__sim/customers", "limit", "201", "Too big: expected number to be <=200", "200"],
  ])("GET %s?%s=%s (control API): refused by the document and the server; %s", async (template, name, value, message, neighbour) => {
    const { sim } = setUp();
    expect(checkParameter("GET", template, "query", name, value)).toBe(false);
    expect(checkParameter("GET", template, "query", name, neighbour)).toBe(true);
    expectRefused(await sim.call("GET", `${template}?${name}=${value}`), "query", name, message);
    expect((await sim.call("GET", `${template}?${name}=${neighbour}`)).status).toBe(200);
  });

  it.each([
    ["error=NOPE", /^error=NOPE: unknown error code/],
    ["status=600", /^status=600: must be an HTTP status from 200 to 599/],
    ["delay=120001", /^delay=120001: must be milliseconds from 0 to 120000$/],
    ["error=VOID_FAILED, status=503", /^takes error or status, not both$/],
    ["status=503, status=504", /^status=504: is given twice$/],
    ["return=minimal", /^return=minimal: unknown preference/],
  ])("Prefer: %j is refused by the document's Prefer parameter and by the server", async (prefer, message) => {
    expect(checkParameter("POST", award, "header", "Prefer", prefer)).toBe(false);
    const { sim, path } = setUp();
    const res = await sim.call("POST", path(award), { body: { stamps: 5 }, headers: { Prefer: prefer } });
    expect([res.status, res.body.error.code, res.body.error.details]).toEqual([422, "VALIDATION_ERROR", [{ in: "header", path: "Prefer", message: expect.stringMatching(message) }]]);
  });

  it.each([
    ["GET", `${API}/shop`, "error=NOT_FOUND", 404],
    ["GET", `${API}/shop`, "status=418", 418],
    ["GET", `${API}/beacons`, ' Status="204" ', 204],
    ["GET", `${API}/shop`, "status=200, delay=0", 200],
    ["POST", award, "error=VOID_FAILED, delay=1", 422],
    ["POST", award, "status=302", 302],
  ])("%s %s with Prefer %j: the document admits the header and declares the forced %i", async (method, template, prefer, status) => {
    expect(checkParameter(method, template, "header", "Prefer", prefer)).toBe(true);
    const { sim, path } = setUp();
    // `call` checks the answer against the document, here as a forced one.
    const res = await sim.call(method, path(template), { headers: { Prefer: prefer }, ...(method === "POST" && { body: { stamps: 5 } }) });
    expect(res.status).toBe(status);
  });

  describe("a scenario's delayMs", () => {
    const scenarioFile = JSON.parse(readFileSync(new URL("../../scenarios/scenario.schema.json", import.meta.url), "utf8"));
    const fileCheck = new Ajv2020({ strict: false }).compile(scenarioFile);
    const scenario = (delayMs: unknown) => ({ name: "d", rules: [{ match: { operation: "getShop" }, respond: { delayMs } }] });
    const SHAPE = "must be milliseconds from 0 to 120000, or a [min, max] pair of them";

    it.each([
      [[], SHAPE],
      [[1, 2, 3], SHAPE],
      [[1], SHAPE],
      [1.5, SHAPE],
    ])("%j: refused by the OpenAPI document, the scenario schema and the server", async (delayMs, message) => {
      expect(checkRequestBody("POST", "/__sim/scenarios", scenario(delayMs)).valid).toBe(false);
      expect(fileCheck(scenario(delayMs))).toBe(false);
      const { sim } = setUp();
      expectRefused(await sim.call("POST", "/__sim/scenarios", { body: scenario(delayMs) }), "body", "rules[0].respond.delayMs", message);
    });

    it("[5, 1]: JSON Schema cannot compare the two; the server refuses it with a clear 422, and [1, 5] is admitted by all three", async () => {
      const { sim } = setUp();
      expectRefused(await sim.call("POST", "/__sim/scenarios", { body: scenario([5, 1]) }), "body", "rules[0].respond.delayMs", "must be [min, max] with min <= max");
      expect(checkRequestBody("POST", "/__sim/scenarios", scenario([1, 5])).valid).toBe(true);
      expect(fileCheck(scenario([1, 5]))).toBe(true);
      expect((await sim.call("POST", "/__sim/scenarios", { body: scenario([1, 5]) })).status).toBe(201);
    });
  });
});
