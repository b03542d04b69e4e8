/**
 * Scenario rules, `Prefer` and the journal on GraphQL requests over the real route (spec 5.3, 5.4):
 * a rule for a REST operation matches the root field that does the same; `api` and `graphql` target
 * GraphQL; domain errors fail one field, faults and raw statuses the request. Checks 33, 34, 35.
 * @module
 */
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/cli/logger.js";
import type { RequestLogLine } from "../../src/http/journal/recorder.js";
import { graphqlOverHttp } from "./http-sim.js";

const REDEEM = 'mutation Checkout($c: ID!) { redeemReward(customerId: $c, rewardProductId: "102") { code stampBalance } }';
const FAULT_HEADER = "x-loyalty-sim-fault";

function setup() {
  const t = graphqlOverHttp();
  const c = t.activeCustomer(40);
  const scenario = (name: string, rules: object[]) => t.call("POST", "/__sim/scenarios", { body: { name, rules } });
  const restRedeem = () => t.call("POST", `/customers/${c}/redemptions`, { body: { reward_product_id: 102 }, unchecked: true });
  return { t, c, scenario, restRedeem };
}

const errorsOf = (body: any) => body.errors.map((e: { message: string; path?: string[]; extensions?: { reason: string } }) => [e.message, e.path, e.extensions?.reason]);

describe("Prefer (check 33)", () => {
  it("error=INSUFFICIENT_STAMPS fails the field, nothing changes; status=503 empty; error=UNAUTHORIZED 401; bogus=1 422", async () => {
    const { t, c } = setup();
    const before = await t.balance(c);
    const forced = await t.post(REDEEM, { c }, { headers: { Prefer: "error=INSUFFICIENT_STAMPS" } });
    expect([forced.status, forced.body.data]).toEqual([200, null]);
    expect(errorsOf(forced.body)).toEqual([["INSUFFICIENT_STAMPS", ["redeemReward"], "forced by the Prefer header"]]);
    expect(await t.balance(c)).toBe(before);

    const raw = await t.post(REDEEM, { c }, { headers: { Prefer: "status=503" } });
    expect([raw.status, raw.body]).toEqual([503, ""]);
    const refused = await t.post(REDEEM, { c }, { headers: { Prefer: "error=UNAUTHORIZED" } });
    expect([refused.status, refused.body]).toEqual([401, { errors: [{ message: "UNAUTHORIZED", extensions: { reason: "Invalid API credentials" } }] }]);
    const bad = await t.post(REDEEM, { c }, { headers: { Prefer: "bogus=1" } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].message).toBe("VALIDATION_ERROR");
    expect(bad.body.errors[0].extensions.details).toEqual([{ in: "header", path: "Prefer", message: "bogus=1: unknown preference; loyalty-sim takes error=CODE, status=NNN and delay=MS" }]);
    expect(await t.balance(c)).toBe(before);
  });

  it("a field-level code fails every root field but introspection; a document that does not validate is answered first", async () => {
    const { t } = setup();
    const res = await t.post('{ __typename shop { programName } x: reward(id: "102") { id } }', undefined, { headers: { Prefer: "error=VOID_FAILED" } });
    expect(res.body.data).toStrictEqual({ __typename: "Query", shop: null, x: null });
    expect(errorsOf(res.body).map(([code, path]: string[]) => [code, path])).toEqual([["VOID_FAILED", ["shop"]], ["VOID_FAILED", ["x"]]]);
    const invalid = await t.post("{ nope }", undefined, { headers: { Prefer: "error=VOID_FAILED" } });
    expect(invalid.body.errors.map((e: { message: string }) => e.message)).toEqual(['Cannot query field "nope" on type "Query".']);
  });
});

describe("scenario rules (check 34)", () => {
  it("a rule for the REST operation, times 1: the next GraphQL redeemReward fails, the one after succeeds", async () => {
    const { t, c, scenario } = setup();
    await scenario("once", [{ match: { operation: "redeemReward" }, times: 1, respond: { error: "INSUFFICIENT_STAMPS" } }]);
    const before = await t.balance(c);
    const first = await t.post(REDEEM, { c });
    expect(errorsOf(first.body)).toEqual([["INSUFFICIENT_STAMPS", ["redeemReward"], 'forced by scenario "once" rule 0']]);
    expect(await t.balance(c)).toBe(before);
    const second = await t.post(REDEEM, { c });
    expect(second.body.data.redeemReward.stampBalance).toBe(before - 10);
  });

  it("api: graphql with operationName Checkout: only that operation gets the reset; REST redeems and other names are untouched", async () => {
    const { t, c, scenario, restRedeem } = setup();
    await scenario("checkout", [{ match: { api: "graphql", graphql: { operationName: "Checkout" } }, respond: { fault: "connection_reset" } }]);
    const before = await t.balance(c);
    const reset = await t.post(REDEEM, { c });
    expect([reset.status, reset.headers.get(FAULT_HEADER)]).toEqual([599, "connection_reset"]);
    expect(await t.balance(c)).toBe(before);
    const other = await t.post(REDEEM.replace("Checkout", "Basket"), { c });
    expect(other.body.data.redeemReward.stampBalance).toBe(before - 10);
    expect((await restRedeem()).status).toBe(200);
    expect(await t.balance(c)).toBe(before - 20);
  });

  it("graphql.field and customerId: one field of one customer fails, the others run; aliases count one match each", async () => {
    const { t, c, scenario } = setup();
    const d = t.activeCustomer(0) === c ? t.shop.store.data.customers.find((x) => x.id !== c && !x.excluded)!.id : t.activeCustomer(0);
    await scenario("one", [{ match: { graphql: { field: "customer" }, customerId: c }, times: 2, respond: { error: "CUSTOMER_NOT_FOUND", message: "gone" } }]);
    const res = await t.post(`{ a: customer(id: "${c}") { id } b: customer(id: "${d}") { id } e: customer(id: "${c}") { id } f: customer(id: "${c}") { id } }`);
    expect(res.body.data).toStrictEqual({ a: null, b: { id: d }, e: null, f: { id: c } });
    expect(errorsOf(res.body)).toEqual([["CUSTOMER_NOT_FOUND", ["a"], "gone"], ["CUSTOMER_NOT_FOUND", ["e"], "gone"]]);
    const listed = (await t.call("GET", "/__sim/scenarios")).body.scenarios[0].rules[0];
    expect([listed.hits, listed.matches, listed.spent]).toEqual([2, 2, true]);
  });

  it("api: rest never holds for GraphQL; path /graphql holds for every root field; a raw status answers the request", async () => {
    const { t, c, scenario, restRedeem } = setup();
    await scenario("rest-only", [{ match: { api: "rest", operation: "redeemReward" }, respond: { error: "REWARD_NOT_FOUND" } }]);
    expect((await t.post(REDEEM, { c })).body.errors).toBeUndefined();
    expect((await restRedeem()).body.error.code).toBe("REWARD_NOT_FOUND");
    await scenario("all-graphql", [{ match: { path: "/graphql" }, respond: { status: 502, body: { down: true } } }]);
    const raw = await t.post("{ shop { programName } }");
    expect([raw.status, raw.body]).toEqual([502, { down: true }]);
    expect((await t.call("GET", "/shop")).status).toBe(200);
  });

  it("a rule on the twin's body and method: adjustStamps below zero by REST names", async () => {
    const { t, c, scenario } = setup();
    await scenario("body", [{ match: { method: "POST", path: "/customers/*/stamps/adjust", body: { stamps: -1 } }, respond: { error: "INSUFFICIENT_STAMPS" } }]);
    const q = `mutation { a: adjustStamps(customerId: "${c}", stamps: -2) { stampChange } }`;
    expect((await t.post(q)).body.data).toStrictEqual({ a: { stampChange: -2 } });
    expect(errorsOf((await t.post(q.replace("-2", "-1"))).body)[0].slice(0, 2)).toEqual(["INSUFFICIENT_STAMPS", ["a"]]);
  });
});

describe("the journal and the log (check 35)", () => {
  it("a GraphQL mutation's entry: path, api, operation, customer, query, root fields; filters by api and by twin", async () => {
    const { t, c, scenario } = setup();
    await scenario("once", [{ match: { operation: "redeemReward" }, times: 1, respond: { error: "INSUFFICIENT_STAMPS" } }]);
    await t.post(REDEEM, { c });
    await t.call("GET", "/shop");
    const [entry] = (await t.call("GET", "/__sim/requests?limit=1&api=graphql")).body.requests;
    expect(entry).toMatchObject({
      method: "POST",
      path: "/graphql",
      api: "graphql",
      operation: "redeemReward",
      customerId: c,
      requestBody: { query: REDEEM, variables: { c } },
      status: 200,
      decidedBy: "scenario",
      scenario: { scenario: "once", rule: 0 },
      graphql: {
        operationType: "mutation",
        operationName: "Checkout",
        fields: [{ field: "redeemReward", alias: null, operation: "redeemReward", customerId: c, error: "INSUFFICIENT_STAMPS" }],
      },
    });
    const ids = async (query: string) => (await t.call("GET", `/__sim/requests?${query}`)).body.requests.map((e: { path: string }) => e.path);
    expect(await ids("operation=redeemReward")).toEqual(["/graphql"]);
    expect(await ids("api=rest")).toEqual(["/rest_api/v1/shop"]);
    expect(await ids(`customerId=${c}`)).toEqual(["/graphql"]);
    await t.post("{ shop { programName } }", undefined, { auth: false });
    expect((await t.call("GET", "/__sim/requests?limit=1")).body.requests[0]).toMatchObject({ api: "graphql", status: 401, operation: null, graphql: null });
  });

  it("the request log names the operation and each root field's code", () => {
    const lines: string[] = [];
    const out = { isTTY: false, write: (text: string) => lines.push(text) } as unknown as NodeJS.WriteStream;
    const log = createLogger({ logLevel: "info", logFormat: "pretty", quiet: false }, out, out);
    const line: RequestLogLine = {
      method: "POST", path: "/graphql", status: 200, fault: null, ms: 2.34, scenario: null, requestId: "req_1",
      graphql: { operationType: "mutation", operationName: "Checkout", fields: [{ field: "redeemReward", alias: null, operation: "redeemReward", customerId: "1", error: "INSUFFICIENT_STAMPS" }, { field: "shop", alias: "s", operation: "getShop", customerId: null, error: null }] },
    };
    log.request(line);
    expect(lines).toEqual(["POST   /graphql 200 2.3ms mutation Checkout [redeemReward: INSUFFICIENT_STAMPS, s]\n"]);
  });
});
