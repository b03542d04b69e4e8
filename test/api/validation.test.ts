import { describe, expect, it } from "vitest";
import { MAX_STAMPS } from "../../src/engine/index.js";
import { AUTH, createTestSim, type TestSim } from "../support/sim.js";

const TS = "2026-11-23T12:00:00+00:00";
const b64 = (text: string) => encodeURIComponent(Buffer.from(text, "utf8").toString("base64"));
const NOT_A_CURSOR = "is not a cursor returned by this API (expected base64 of 'id:<id>')";
const STAMPS_RULE = "the most stamps a balance may hold (production's GraphQL API types stamp counts as 32-bit integers)";
const ONE_OF = /^Invalid option: expected one of "0"\|"1"\|"true"\|"false"$/;

type Detail = [where: "body" | "query" | "path" | "header", path: string, message: string | RegExp];
interface Ctx { id: string; otherActivity: string }
interface Row {
  name: string;
  method: string;
  path: (c: Ctx) => string;
  body?: unknown;
  raw?: { text: string; type: string };
  details: Detail[];
  /** Top-level message when it is not the usual one. */
  message?: string;
}

const award = (c: Ctx) => `/customers/${c.id}/stamps/award`;
const adjust = (c: Ctx) => `/customers/${c.id}/stamps/adjust`;
const patch = (c: Ctx) => `/customers/${c.id}`;
const tier = (c: Ctx) => `/customers/${c.id}/tier`;
const redeem = (c: Ctx) => `/customers/${c.id}/redemptions`;
const grant = (c: Ctx) => `/customers/${c.id}/reward-grants`;
const earn = (c: Ctx) => `/customers/${c.id}/activities`;
const get = (path: string | ((c: Ctx) => string)): Pick<Row, "method" | "path"> => ({ method: "GET", path: typeof path === "string" ? () => path : path });

const rows: Row[] = [
  { name: "award without stamps", method: "POST", path: award, body: {}, details: [["body", "stamps", "is required"]] },
  { name: "award with no body at all", method: "POST", path: award, details: [["body", "stamps", "is required"]] },
  { name: 'stamps "5"', method: "POST", path: award, body: { stamps: "5" }, details: [["body", "stamps", /expected number, received string/]] },
  { name: "stamps 1.5", method: "POST", path: award, body: { stamps: 1.5 }, details: [["body", "stamps", /expected int, received number/]] },
  { name: "stamps 0 on award", method: "POST", path: award, body: { stamps: 0 }, details: [["body", "stamps", /^Too small: .*>=1$/]] },
  { name: "stamps -3 on award", method: "POST", path: award, body: { stamps: -3 }, details: [["body", "stamps", /^Too small: .*>=1$/]] },
  { name: "stamps 0 on adjust", method: "POST", path: adjust, body: { stamps: 0 }, details: [["body", "stamps", "must not be 0"]] },
  { name: "stamps 2**31 on award", method: "POST", path: award, body: { stamps: 2 ** 31 }, details: [["body", "stamps", `must be at most ${MAX_STAMPS}, ${STAMPS_RULE}`]] },
  { name: "stamps 2**53 on award", method: "POST", path: award, body: { stamps: 2 ** 53 }, details: [["body", "stamps", `must be at most ${MAX_STAMPS}, ${STAMPS_RULE}`]] },
  { name: "stamps -(2**31) on adjust", method: "POST", path: adjust, body: { stamps: -(2 ** 31) }, details: [["body", "stamps", `must be at least -${MAX_STAMPS}, ${STAMPS_RULE}`]] },
  { name: "stamps -(2**53) on adjust", method: "POST", path: adjust, body: { stamps: -(2 ** 53) }, details: [["body", "stamps", `must be at least -${MAX_STAMPS}, ${STAMPS_RULE}`]] },
  { name: "stamps 1e300 on adjust", method: "POST", path: adjust, body: { stamps: 1e300 }, details: [["body", "stamps", `must be at most ${MAX_STAMPS}, ${STAMPS_RULE}`]] },
  { name: "comment as a number", method: "POST", path: award, body: { stamps: 1, comment: 5 }, details: [["body", "comment", /expected string, received number/]] },
  { name: "comment over 1000 chars", method: "POST", path: adjust, body: { stamps: 1, comment: "x".repeat(1001) }, details: [["body", "comment", /<=1000 characters/]] },
  { name: "internal_comment over 1000 chars", method: "POST", path: award, body: { stamps: 1, internal_comment: "x".repeat(1001) }, details: [["body", "internal_comment", /<=1000 characters/]] },
  {
    name: "two bad fields at once",
    method: "POST",
    path: award,
    body: { stamps: "x", comment: [] },
    details: [["body", "stamps", /expected number/], ["body", "comment", /expected string, received array/]],
  },
  { name: "birthday_month 13", method: "PATCH", path: patch, body: { birthday_month: 13, birthday_day: 1 }, details: [["body", "birthday_month", /^Too big: .*<=12$/]] },
  { name: "birthday_month 0", method: "PATCH", path: patch, body: { birthday_month: 0, birthday_day: 1 }, details: [["body", "birthday_month", /^Too small: .*>=1$/]] },
  { name: "birthday_day 0", method: "PATCH", path: patch, body: { birthday_month: 1, birthday_day: 0 }, details: [["body", "birthday_day", /^Too small: .*>=1$/]] },
  { name: "birthday_day 32", method: "PATCH", path: patch, body: { birthday_month: 1, birthday_day: 32 }, details: [["body", "birthday_day", /^Too big: .*<=31$/]] },
  { name: "birthday_day 1.5", method: "PATCH", path: patch, body: { birthday_month: 1, birthday_day: 1.5 }, details: [["body", "birthday_day", /expected int/]] },
  { name: "birthday_month without birthday_day", method: "PATCH", path: patch, body: { birthday_month: 5 }, details: [["body", "birthday_day", "is required when birthday_month is sent"]] },
  { name: "birthday_day without birthday_month", method: "PATCH", path: patch, body: { birthday_day: 5 }, details: [["body", "birthday_month", "is required when birthday_day is sent"]] },
  { name: 'excluded "true"', method: "PATCH", path: patch, body: { excluded: "true" }, details: [["body", "excluded", /expected boolean, received string/]] },
  { name: "firstName in PATCH", method: "PATCH", path: patch, body: { firstName: "Eve" }, details: [["body", "firstName", "is owned by the commerce platform and cannot be changed here"]] },
  { name: "tier_id missing", method: "POST", path: tier, body: { trigger_rewards: true }, details: [["body", "tier_id", "is required"]] },
  { name: 'tier_id "2"', method: "POST", path: tier, body: { tier_id: "2" }, details: [["body", "tier_id", /expected number, received string/]] },
  { name: 'trigger_rewards "yes"', method: "POST", path: tier, body: { tier_id: 2, trigger_rewards: "yes" }, details: [["body", "trigger_rewards", /expected boolean/]] },
  { name: "reward_product_id 1.2", method: "POST", path: redeem, body: { reward_product_id: 1.2 }, details: [["body", "reward_product_id", /expected int, received number/]] },
  { name: 'reward_product_id "101"', method: "POST", path: grant, body: { reward_product_id: "101" }, details: [["body", "reward_product_id", /expected number, received string/]] },
  { name: "grant without reward_product_id", method: "POST", path: grant, body: {}, details: [["body", "reward_product_id", "is required"]] },
  { name: "tier_id 2**53", method: "POST", path: tier, body: { tier_id: 2 ** 53 }, details: [["body", "tier_id", "Too big: expected number to be <=9007199254740991"]] },
  { name: "tier_id 0", method: "POST", path: tier, body: { tier_id: 0 }, details: [["body", "tier_id", "Too small: expected number to be >=1"]] },
  { name: "reward_product_id -1", method: "POST", path: grant, body: { reward_product_id: -1 }, details: [["body", "reward_product_id", "Too small: expected number to be >=1"]] },
  { name: "earn_rule_id 1e300", method: "POST", path: earn, body: { earn_rule_id: 1e300 }, details: [["body", "earn_rule_id", "Too big: expected number to be <=9007199254740991"]] },
  { name: "variable_amount 2**31", method: "POST", path: redeem, body: { reward_product_id: 106, variable_amount: 2 ** 31 }, details: [["body", "variable_amount", `must be at most ${MAX_STAMPS}, ${STAMPS_RULE}`]] },
  { name: "birthday_month 2**53", method: "PATCH", path: patch, body: { birthday_month: 2 ** 53, birthday_day: 1 }, details: [["body", "birthday_month", "Too big: expected number to be <=12"]] },
  { name: "variable_amount 0", method: "POST", path: redeem, body: { reward_product_id: 106, variable_amount: 0 }, details: [["body", "variable_amount", /^Too small: .*>=1$/]] },
  { name: "earn_rule_id null", method: "POST", path: earn, body: { earn_rule_id: null }, details: [["body", "earn_rule_id", /expected number, received null/]] },
  { name: "customers limit=0", ...get("/customers?limit=0"), details: [["query", "limit", /^Too small: .*>=1$/]] },
  { name: "customers limit=1001", ...get("/customers?limit=1001"), details: [["query", "limit", /^Too big: .*<=1000$/]] },
  { name: "customers limit=abc", ...get("/customers?limit=abc"), details: [["query", "limit", "must be a whole number (digits only)"]] },
  ...["1e3", "0x10", "%207", "1.5", "-1", ""].map((limit) => ({ name: `customers limit=${limit}`, ...get(`/customers?limit=${limit}`), details: [["query", "limit", "must be a whole number (digits only)"]] as Detail[] })),
  { name: "activities limit=0", ...get((c) => `/customers/${c.id}/activities?limit=0`), details: [["query", "limit", /^Too small: .*>=1$/]] },
  { name: "activities limit=1001", ...get((c) => `/customers/${c.id}/activities?limit=1001`), details: [["query", "limit", /^Too big: .*<=1000$/]] },
  { name: "activities limit=abc", ...get((c) => `/customers/${c.id}/activities?limit=abc`), details: [["query", "limit", "must be a whole number (digits only)"]] },
  { name: "after not base64", ...get("/customers?after=%21%21%21"), details: [["query", "after", NOT_A_CURSOR]] },
  { name: 'after = base64("foo")', ...get(`/customers?after=${b64("foo")}`), details: [["query", "after", NOT_A_CURSOR]] },
  { name: 'before = base64("id:abc")', ...get(`/customers?before=${b64("id:abc")}`), details: [["query", "before", NOT_A_CURSOR]] },
  { name: "after = cursor of an unknown id", ...get(`/customers?after=${b64("id:123")}`), details: [["query", "after", "points at no record of this list"]] },
  {
    name: "activities after = cursor of another customer's activity",
    ...get((c) => `/customers/${c.id}/activities?after=${b64(`id:${c.otherActivity}`)}`),
    details: [["query", "after", "points at no record of this list"]],
  },
  { name: "after and before together", ...get(`/customers?after=${b64("id:1")}&before=${b64("id:2")}`), details: [["query", "before", "cannot be combined with 'after'; send one cursor"]] },
  { name: "hasCount=maybe", ...get("/customers?hasCount=maybe"), details: [["query", "hasCount", ONE_OF]] },
  { name: "activities hasCount=yes", ...get((c) => `/customers/${c.id}/activities?hasCount=yes`), details: [["query", "hasCount", ONE_OF]] },
  { name: "available=yes", ...get((c) => `/customers/${c.id}/reward-codes?available=yes`), details: [["query", "available", ONE_OF]] },
  {
    name: "malformed JSON",
    method: "POST",
    path: award,
    raw: { text: '{"stamps": 5', type: "application/json" },
    message: "Request body is not valid JSON",
    details: [["body", "(root)", "is not valid JSON"]],
  },
  {
    name: "malformed JSON on PATCH",
    method: "PATCH",
    path: patch,
    raw: { text: "{excluded: true}", type: "application/json; charset=utf-8" },
    message: "Request body is not valid JSON",
    details: [["body", "(root)", "is not valid JSON"]],
  },
  {
    name: "a text/plain body",
    method: "POST",
    path: award,
    raw: { text: '{"stamps": 5}', type: "text/plain" },
    message: "Request body must be JSON",
    details: [["header", "Content-Type", 'must be application/json (optionally with "; charset=utf-8"), got text/plain']],
  },
  {
    name: "a form body",
    method: "PATCH",
    path: patch,
    raw: { text: "excluded=true", type: "application/x-www-form-urlencoded" },
    message: "Request body must be JSON",
    details: [["header", "Content-Type", 'must be application/json (optionally with "; charset=utf-8"), got application/x-www-form-urlencoded']],
  },
  // Not JSON by the one rule, whether the body is empty or not (once a 500).
  ...(
    [
      ["award", award, "", "text/plain"],
      ["PATCH", patch, "", "application/x-www-form-urlencoded"],
      ["award", award, '{"stamps": 5}', "application/json;"],
      ["award", award, '{"stamps": 5}', "application/json ; charset=utf-8"],
      ["PATCH", patch, '{"excluded": true}', "application/vnd_x+json"],
    ] as const
  ).map(([what, path, text, type]): Row => ({
    name: `${what} with ${text ? "a JSON" : "an empty"} body as ${type}`,
    method: what === "PATCH" ? "PATCH" : "POST",
    path,
    raw: { text, type },
    message: "Request body must be JSON",
    details: [["header", "Content-Type", `must be application/json (optionally with "; charset=utf-8"), got ${type}`]],
  })),
  { name: "a JSON array body", method: "POST", path: award, body: [{ stamps: 5 }], details: [["body", "(root)", /expected object, received array/]] },
  { name: "a JSON null body", method: "POST", path: earn, raw: { text: "null", type: "application/json" }, details: [["body", "(root)", /expected object, received null/]] },
];

/** Everything a failed request must leave untouched. */
function state(sim: TestSim, id: string) {
  const c = sim.shop.store.customer(id)!;
  return {
    balance: c.balance,
    earned: c.earned,
    tier: c.vipTierId,
    dob: c.dateOfBirth,
    excluded: c.excluded,
    ledger: sim.shop.store.activitiesOf(id).length,
    codes: sim.shop.store.codesOf(id).map((k) => [k.id, k.used]),
    allActivities: sim.shop.store.data.activities.length,
  };
}

describe("422 VALIDATION_ERROR: every invalid input names its field and changes nothing", () => {
  const sim = createTestSim({ customers: 50 });
  const records = sim.shop.store.data.customers;
  const id = records.find((c) => c.balance >= 20 && c.dateOfBirth !== undefined && !c.excluded && c.mergedIntoCustomerId === undefined)!.id;
  const other = records.find((c) => c.id !== id)!.id;
  const ctx: Ctx = { id, otherActivity: String(sim.shop.store.activitiesOf(other)[0]!.id) };

  it.each(rows)("$name", async (row) => {
    const before = state(sim, id);
    const init = row.raw ? { rawBody: row.raw.text, headers: { "Content-Type": row.raw.type } } : { body: row.body };
    const res = await sim.call(row.method, row.path(ctx), init);
    expect(res.status).toBe(422);
    expect(res.body).toStrictEqual({
      success: false,
      error: {
        message: row.message ?? "Request validation failed",
        code: "VALIDATION_ERROR",
        statusCode: 422,
        details: row.details.map(([where, path, message]) => ({ in: where, path, message: typeof message === "string" ? message : expect.stringMatching(message) })),
      },
      timestamp: TS,
    });
    expect(res.headers.get("X-RateLimit-Limit")).toBe("1000");
    expect(state(sim, id)).toStrictEqual(before);
  });

  it("the boundaries just inside are accepted", async () => {
    const before = state(sim, id);
    const ok = [
      await sim.call("POST", award({ ...ctx }), { body: { stamps: 1, comment: "x".repeat(1000), internal_comment: "y".repeat(1000) } }),
      await sim.call("POST", adjust(ctx), { body: { stamps: -1 } }),
      await sim.call("GET", "/customers?limit=1000&hasCount=false"),
      await sim.call("GET", "/customers?limit=1"),
      await sim.call("PATCH", patch(ctx), { body: { birthday_month: 12, birthday_day: 31 } }),
      await sim.call("PATCH", patch(ctx), { rawBody: JSON.stringify({ birthday_month: 1, birthday_day: 1 }), headers: { "Content-Type": "application/json; charset=utf-8" } }),
    ];
    expect(ok.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(state(sim, id)).toMatchObject({ balance: before.balance, ledger: before.ledger + 2, dob: "01-01" });
  });
});

describe("413 PAYLOAD_TOO_LARGE", () => {
  it("a body over 1 MiB is refused before it is read, changing nothing", async () => {
    const sim = createTestSim();
    const id = sim.activeCustomer();
    const before = state(sim, id);
    const rawBody = JSON.stringify({ stamps: 5, comment: "x".repeat(1024 * 1024) });
    const res = await sim.call("POST", `/customers/${id}/stamps/award`, { rawBody, headers: { "Content-Type": "application/json" } });
    expect(res.status).toBe(413);
    expect(res.body).toStrictEqual({
      success: false,
      error: { message: "Request body is larger than 1048576 bytes", code: "PAYLOAD_TOO_LARGE", statusCode: 413 },
      timestamp: TS,
    });
    expect(state(sim, id)).toStrictEqual(before);
  });

  // An in-process Request carries no Content-Length: its body is read up to the limit, in chunks.
  const streamed = (chunks: Uint8Array[]) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
  const post = (sim: TestSim, id: string, body: ReadableStream<Uint8Array>) =>
    sim.app.request(`/rest_api/v1/customers/${id}/stamps/award`, {
      method: "POST",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);

  it("a streamed body is read whole, a character split between chunks kept", async () => {
    const sim = createTestSim();
    const id = sim.activeCustomer();
    const before = state(sim, id);
    const bytes = new TextEncoder().encode(JSON.stringify({ stamps: 2, comment: "café ☕" }));
    const split = bytes.indexOf(0xc3) + 1; // between the two bytes of "é"
    const res = await post(sim, id, streamed([bytes.subarray(0, split), bytes.subarray(split)]));
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown }).data).toStrictEqual({ customerId: id, stampChange: 2, stampBalance: before.balance + 2 });
    expect(sim.shop.store.activitiesOf(id).at(-1)!.label).toBe("café ☕");
  });

  it("a streamed body is refused once it passes 1 MiB, changing nothing", async () => {
    const sim = createTestSim();
    const id = sim.activeCustomer();
    const before = state(sim, id);
    const chunk = new TextEncoder().encode(" ".repeat(256 * 1024));
    const head = new TextEncoder().encode('{"stamps":1,"comment":"x"');
    const res = await post(sim, id, streamed([head, chunk, chunk, chunk, chunk, new TextEncoder().encode("}")]));
    expect(res.status).toBe(413);
    expect(await res.json()).toStrictEqual({
      success: false,
      error: { message: "Request body is larger than 1048576 bytes", code: "PAYLOAD_TOO_LARGE", statusCode: 413 },
      timestamp: TS,
    });
    expect(state(sim, id)).toStrictEqual(before);
  });
});
