/**
 * GraphQL over HTTP as `POST /graphql` of the app answers it: media types, parameters, statuses,
 * GraphQL's own request errors, the safety caps, forced decisions (acceptance checks 16, 36's
 * 405, 37, 40's caps; spec 2.5, 2.7, 4.2).
 * @module
 */
import { describe, expect, it, vi } from "vitest";
import { GRAPHQL_LIMITS, negotiate, refusalResponse, wantsGraphiQL } from "../../src/graphql/index.js";
import { AUTH } from "../support/sim.js";
import { expectRequestError, graphqlSim } from "./graphql-sim.js";

const sim = graphqlSim();
const C = sim.activeCustomer(20);
const GRJ = "application/graphql-response+json";
// Stamps that expired by now leave when their customer is first read, whatever the request.
for (const c of sim.shop.store.data.customers) sim.shop.getCustomer(c.id);
const state = () => JSON.stringify(sim.shop.store.data);

describe("media types and statuses (checks 16, 37)", () => {
  it.each([
    [undefined, "application/json"],
    ["*/*", "application/json"],
    ["application/json", "application/json"],
    [GRJ, GRJ],
    [`${GRJ}, application/json, multipart/mixed`, GRJ],
    [`application/json, ${GRJ}`, "application/json"],
    [`application/json;q=0.5, ${GRJ}`, GRJ],
    [`${GRJ};q=0, application/*`, "application/json"],
    ["text/html, application/xhtml+xml", undefined],
    ["text/plain", undefined],
  ])("Accept %s answers with %s", (accept, media) => {
    expect(negotiate(accept)).toBe(media);
  });

  it("an unknown argument is a request error: 200 for application/json, 400 for graphql-response+json (check 16)", async () => {
    const query = `{ customerActivities(customerId: "${C}", before: "x") { items { id } } }`;
    const message = 'Unknown argument "before" on field "Query.customerActivities".';
    const json = await sim.gql(query, undefined, { accept: "application/json" });
    expectRequestError(json, 200, [message]);
    expect(json.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const grj = await sim.gql(query, undefined, { accept: GRJ });
    expectRequestError(grj, 400, [message]);
    expect(grj.headers.get("content-type")).toBe(`${GRJ}; charset=utf-8`);
  });

  it("a field error is 200 whatever the Accept", async () => {
    const res = await sim.gql('{ customer(id: "0") { id } }', undefined, { accept: GRJ });
    expect(res.status).toBe(200);
    expect(res.body.data).toStrictEqual({ customer: null });
  });

  it.each([
    ["Accept: text/plain", { accept: "text/plain" }, 406, "Accept must allow application/graphql-response+json or application/json."],
    ["Content-Type: text/plain", { contentType: "text/plain" }, 415, "Content-Type must be application/json."],
    ["no Content-Type", { contentType: "" }, 415, "Content-Type must be application/json."],
    ['body {"query":', { rawBody: '{"query":' }, 400, "The body is not valid JSON."],
    ["an empty body", { rawBody: "" }, 400, "The body is empty: send a JSON object with the `query`."],
    ["a batch", { rawBody: '[{"query":"{shop{currency}}"}]' }, 400, "Batched operations (a JSON array) are not supported: send one JSON object per request."],
    ["a JSON string", { rawBody: '"{shop{currency}}"' }, 400, "The body must be a JSON object with the `query`."],
    ["no query", { rawBody: '{"notquery":"{shop{currency}}"}' }, 400, "`query` must be a string: the GraphQL document."],
    ["a numeric query", { rawBody: '{"query":0}' }, 400, "`query` must be a string: the GraphQL document."],
    ["variables as a string", { rawBody: '{"query":"{shop{currency}}","variables":"{}"}' }, 400, "`variables` must be an object or null."],
    ["variables as a list", { rawBody: '{"query":"{shop{currency}}","variables":[]}' }, 400, "`variables` must be an object or null."],
    ["operationName as an object", { rawBody: '{"query":"{shop{currency}}","operationName":{}}' }, 400, "`operationName` must be a string or null."],
    ["extensions as a number", { rawBody: '{"query":"{shop{currency}}","extensions":0}' }, 400, "`extensions` must be an object or null."],
    ["a body nested 65 deep", { rawBody: `{"query":"{shop{currency}}","variables":${"[".repeat(65)}${"]".repeat(65)}}` }, 400, "The body nests deeper than 64 levels."],
  ])("%s: %i (check 37)", async (_, init, status, message) => {
    expectRequestError(await sim.gql("", undefined, init), status, [message]);
  });

  it("charset and other Content-Type parameters are accepted; null parameters are absent ones", async () => {
    const res = await sim.gql("", undefined, { contentType: "application/json; charset=utf-8", rawBody: '{"query":"{shop{currency}}","variables":null,"operationName":null,"extensions":null}' });
    expect(res.body).toStrictEqual({ data: { shop: { currency: "USD" } } });
  });

  it("{\"query\":\"{\"} is a syntax error: 200 or 400 by Accept, with the graphql-js message and location (check 37)", async () => {
    const expected = [{ message: "Syntax Error: Expected Name, found <EOF>.", locations: [{ line: 1, column: 2 }] }];
    const json = await sim.gql("{");
    expect([json.status, json.body]).toStrictEqual([200, { errors: expected }]);
    const grj = await sim.gql("{", undefined, { accept: GRJ });
    expect([grj.status, grj.body]).toStrictEqual([400, { errors: expected }]);
  });

  const GET_HINT = " A client that sends queries as GET must be set to POST: urql's `preferGetMethod: false`, Apollo's `useGETForQueries: false`.";
  it("GET and HEAD (without text/html, which GraphiQL answers) are 405 with Allow: POST (check 36), other methods with Allow: GET, POST", async () => {
    for (const [method, allow] of [["GET", "POST"], ["HEAD", "POST"], ["PUT", "GET, POST"], ["DELETE", "GET, POST"], ["PATCH", "GET, POST"]]) {
      const res = await sim.gql("{ shop { currency } }", undefined, { method, accept: "application/json" });
      // A HEAD is answered as its GET, without the body (HTTP's rule).
      if (method === "HEAD") expect([res.status, res.body]).toEqual([405, ""]);
      else expectRequestError(res, 405, [`GraphQL operations are sent with POST (GET /graphql serves GraphiQL to a browser).${method === "GET" ? GET_HINT : ""}`]);
      expect([method, res.headers.get("allow")]).toEqual([method, allow]);
    }
  });
});

describe("GraphQL's own request errors (spec 2.5)", () => {
  it.each([
    ["a missing required argument", "{ customer { id } }", null, 'Field "customer" argument "id" of type "ID!" is required, but it was not provided.'],
    ["an unknown field", "{ shop { nope } }", null, 'Cannot query field "nope" on type "Shop".'],
    ["a Float for an Int", `mutation { awardStamps(customerId: "${C}", stamps: 1.5) { stampBalance } }`, null, "Int cannot represent non-integer value: 1.5"],
    ["a Float for an ID", "{ customer(id: 1.5) { id } }", null, "ID cannot represent a non-string and non-integer value: 1.5"],
    ["null for a non-null argument", "{ customer(id: null) { id } }", null, 'Expected value of type "ID!", found null.'],
    ["an unused variable", "query ($s: Int) { shop { currency } }", null, 'Variable "$s" is never used.'],
    ["two operations without a name", "query A { shop { currency } } query B { shop { currency } }", null, "Must provide operation name if query contains multiple operations."],
    ["an unknown operation name", "query A { shop { currency } }", "B", 'Unknown operation named "B".'],
    ["a subscription", "subscription { shop { currency } }", null, "Schema is not configured to execute subscription operation."],
  ])("%s", async (_, query, operationName, message) => {
    const before = state();
    const res = await sim.gql(query, undefined, { operationName, accept: GRJ });
    expectRequestError(res, 400, [message]);
    expect(state()).toBe(before);
  });

  it("what ran is recorded: each root field with its alias, REST twin, customer and the code it ended with", async () => {
    const res = await sim.gql(`query Look($skip: Boolean!) { c: customer(id: "${C}") { id } customer(id: "0") { id } __typename s: shop @skip(if: $skip) { currency } ...F } fragment F on Query { tiers { id } }`, { skip: true });
    expect(res.graphql).toStrictEqual({
      operationType: "query",
      operationName: "Look",
      fields: [
        { field: "customer", alias: "c", operation: "getCustomer", customerId: C, error: null },
        { field: "customer", alias: null, operation: "getCustomer", customerId: "0", error: "CUSTOMER_NOT_FOUND" },
        { field: "tiers", alias: null, operation: "listTiers", customerId: null, error: null },
      ],
    });
  });

  it("the named operation of several runs", async () => {
    const res = await sim.gql("query A { shop { currency } } query B { beacons { id } }", undefined, { operationName: "A" });
    expect(res.body).toStrictEqual({ data: { shop: { currency: "USD" } } });
    expect(res.graphql).toStrictEqual({ operationType: "query", operationName: "A", fields: [{ field: "shop", alias: null, operation: "getShop", customerId: null, error: null }] });
  });

  it.each([
    [{ s: 1.5 }, 'Variable "$s" got invalid value 1.5; Int cannot represent non-integer value: 1.5'],
    [{ s: "x" }, 'Variable "$s" got invalid value "x"; Int cannot represent non-integer value: "x"'],
    [{}, 'Variable "$s" of required type "Int!" was not provided.'],
    [{ s: 2 ** 31 }, 'Variable "$s" got invalid value 2147483648; Int cannot represent non 32-bit signed integer value: 2147483648'],
  ])("variables of the wrong type are request errors: %j", async (variables, message) => {
    const before = state();
    const res = await sim.gql(`mutation ($s: Int!) { awardStamps(customerId: "${C}", stamps: $s) { stampBalance } }`, variables);
    expectRequestError(res, 200, [message]);
    expect(state()).toBe(before);
  });

  it("huge variables: a 900 KB comment is VALIDATION_ERROR, an input of 60 000 fields is refused before coercion, one of 100 000 is over the body limit", async () => {
    const before = state();
    const long = await sim.gql(`mutation ($c: String) { awardStamps(customerId: "${C}", stamps: 1, comment: $c) { stampBalance } }`, { c: "x".repeat(900_000) });
    expect(long.body.errors[0].extensions.details).toStrictEqual([{ in: "argument", path: "comment", message: "Too big: expected string to have <=1000 characters" }]);
    const input = (fields: number) => Object.fromEntries(Array.from({ length: fields }, (_, i) => [`f${i}`, i]));
    // 60 000 fields take about 880 KB of JSON, under the 1 MiB body limit.
    const wide = await sim.gql(`mutation ($i: UpdateCustomerInput!) { updateCustomer(id: "${C}", input: $i) { id } }`, { i: input(60_000) });
    expectRequestError(wide, 200, ['Variable "$i" may hold at most 100 object fields and list items.']);
    const wider = await sim.gql(`mutation ($i: UpdateCustomerInput!) { updateCustomer(id: "${C}", input: $i) { id } }`, { i: input(100_000) });
    expectRequestError(wider, 413, ["PAYLOAD_TOO_LARGE"]);
    const unknown = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}`, i]));
    const many = await sim.gql(`mutation ($i: UpdateCustomerInput!) { updateCustomer(id: "${C}", input: $i) { id } }`, { i: unknown });
    expect(many.body.errors).toHaveLength(51);
    expect(many.body.errors[50].message).toBe("Too many errors processing variables, error limit reached. Execution aborted.");
    expect(state()).toBe(before);
  });
});

describe("safety caps: refused before validation and execution (check 40)", () => {
  const aliased = (count: number, field: string) => `mutation { ${Array.from({ length: count }, (_, i) => `a${i}: ${field}`).join(" ")} }`;

  it("1 MiB of aliased customers(limit: 1000) fields is refused at parsing", async () => {
    const fields = Array.from({ length: 25_000 }, (_, i) => `a${i}: customers(limit: 1000) { items { id } }`).join(" ");
    // The body, `{"query":"..."}`, as large as the body limit lets it be.
    const query = `{ ${fields} }`.slice(0, 1024 * 1024 - '{"query":""}'.length - 2) + " }";
    const res = await sim.gql(query, undefined, { accept: GRJ });
    expectRequestError(res, 400, [`Syntax Error: Document contains more that ${GRAPHQL_LIMITS.tokens} tokens. Parsing aborted.`]);
  });

  it("more than 50 root fields, counted through fragments, before any is validated or runs", async () => {
    const before = state();
    const res = await sim.gql(aliased(51, `awardStamps(customerId: "${C}", stamps: 1) { stampBalance nope }`));
    expectRequestError(res, 200, ["An operation may select at most 50 root fields (fragments expanded); this one selects 51."]);
    const spread = await sim.gql(`{ ...F ...G } fragment F on Query { ${"shop { currency } ".repeat(0)}${Array.from({ length: 26 }, (_, i) => `f${i}: shop { currency }`).join(" ")} } fragment G on Query { ${Array.from({ length: 25 }, (_, i) => `g${i}: beacons { id }`).join(" ")} }`);
    expectRequestError(spread, 200, ["An operation may select at most 50 root fields (fragments expanded); this one selects 51."]);
    expect(state()).toBe(before);
  });

  it("at most 50 list fields of 1000 items each would be 50 000 items: more than 10 000 in all is refused", async () => {
    const res = await sim.gql(`{ ${Array.from({ length: 11 }, (_, i) => `c${i}: customers(limit: 1000) { items { id } }`).join(" ")} }`);
    expectRequestError(res, 200, ["An operation may ask for at most 10000 list items in all (the sum of its limits, 1000 for each rewardCodes); this one asks for 11000."]);
    const negative = await sim.gql(`{ n: customers(limit: -100000) { items { id } } ${Array.from({ length: 11 }, (_, i) => `c${i}: customers(limit: 1000) { items { id } }`).join(" ")} }`);
    expectRequestError(negative, 200, ["An operation may ask for at most 10000 list items in all (the sum of its limits, 1000 for each rewardCodes); this one asks for 11000."]);
    const withVariables = await sim.gql("query ($n: Int) { a: customers(limit: $n) { items { id } } b: customers(limit: $n) { items { id } } }", { n: 6000 });
    expectRequestError(withVariables, 200, ["An operation may ask for at most 10000 list items in all (the sum of its limits, 1000 for each rewardCodes); this one asks for 12000."]);
  });

  it("more than 2000 fields, or fragments that expand to more, are refused at once", async () => {
    const wide = await sim.gql(`{ customers { items { ${"id ".repeat(2001)}} } }`);
    expectRequestError(wide, 200, ["An operation may select at most 2000 fields (fragments expanded); this one selects 2003."]);
    let doubling = "{ customers { items { ...F0 } } } ";
    for (let i = 0; i < 40; i++) doubling += `fragment F${i} on Customer { ...F${i + 1} ...F${i + 1} } `;
    const exploded = await sim.gql(`${doubling}fragment F40 on Customer { id }`);
    expectRequestError(exploded, 200, [`An operation may select at most 2000 fields (fragments expanded); this one selects ${2 + 2 ** 40}.`]);
  });

  it("fields nested more than 20 deep (introspection's own query takes 14) and brackets nested more than 64 deep", async () => {
    const deep = `{ __schema { types { ${"fields { type { ofType { ".repeat(6)}name${" } } }".repeat(6)} } } }`;
    expectRequestError(await sim.gql(deep), 200, ["An operation may nest fields at most 20 levels deep (fragments expanded); this one nests 21."]);
    const nested = `{ ${"a { ".repeat(3000)}b${" }".repeat(3000)} }`;
    expectRequestError(await sim.gql(nested), 200, ["A document may nest brackets at most 64 levels deep."]);
    const list = `{ customer(id: ${"[".repeat(3000)}1${"]".repeat(3000)}) { id } }`;
    expectRequestError(await sim.gql(list), 200, ["A document may nest brackets at most 64 levels deep."]);
  });
});

describe("decisions taken before execution (forced)", () => {
  it("a forced code fails only its field, with the reason given, and its resolver never runs", async () => {
    const before = state();
    const res = await sim.gql(`mutation Checkout { r: redeemReward(customerId: "${C}", rewardProductId: "101") { code } }`, undefined, { headers: { Prefer: "error=INSUFFICIENT_STAMPS" } });
    expect(res.body).toStrictEqual({
      data: null,
      errors: [{ message: "INSUFFICIENT_STAMPS", locations: [{ line: 1, column: 21 }], path: ["r"], extensions: { reason: "forced by the Prefer header" } }],
    });
    expect(res.graphql).toStrictEqual({
      operationType: "mutation",
      operationName: "Checkout",
      fields: [{ field: "redeemReward", alias: "r", operation: "redeemReward", customerId: C, error: "INSUFFICIENT_STAMPS" }],
    });
    expect(state()).toBe(before);
    // Each root field counts one match: the rule skips `r` and fails `s` (with a REST code: GraphQL's own TIER_UPDATE_FAILED is not forced).
    const rule = { match: { graphql: { field: "shop" } }, after: 1, times: 1, respond: { error: "VOID_FAILED" } };
    expect((await sim.call("POST", "/__sim/scenarios", { body: { name: "second-shop", rules: [rule] } })).status).toBe(201);
    const other = await sim.gql(`{ r: shop { currency } s: shop { currency } }`);
    expect((await sim.call("DELETE", "/__sim/scenarios/second-shop")).status).toBe(204);
    expect(other.body.data).toStrictEqual({ r: { currency: "USD" }, s: null });
    expect(other.body.errors[0]).toMatchObject({ message: "VOID_FAILED", extensions: { reason: 'forced by scenario "second-shop" rule 0' } });
  });
});

describe("a bug in a resolver", () => {
  it("is INTERNAL_ERROR at the field's path, told to onBug, its text kept out of the answer; HTTP stays 200", async () => {
    const { app, shop, bugs } = graphqlSim();
    vi.spyOn(shop, "getShop").mockImplementation(() => {
      throw new TypeError("secret detail");
    });
    const res = await app.request("/graphql", { method: "POST", headers: { ...AUTH, "Content-Type": "application/json" }, body: '{"query":"{ shop { currency } beacons { id } }"}' });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain("secret");
    const body = JSON.parse(text);
    expect(body.data.shop).toBeNull();
    expect(body.data.beacons).toHaveLength(2);
    expect(body.errors).toStrictEqual([{ message: "INTERNAL_ERROR", locations: [{ line: 1, column: 3 }], path: ["shop"], extensions: { reason: "Internal server error" } }]);
    expect(bugs).toHaveLength(1);
    expect((bugs[0] as Error).message).toBe("secret detail");
  });
});

describe("helpers for the gateway", () => {
  it("writes a gateway refusal in GraphQL's shape, with the REST status and the negotiated type", () => {
    expect(refusalResponse(401, GRJ, "UNAUTHORIZED", "Invalid API credentials")).toStrictEqual({
      status: 401,
      headers: { "Content-Type": `${GRJ}; charset=utf-8` },
      body: '{"errors":[{"message":"UNAUTHORIZED","extensions":{"reason":"Invalid API credentials"}}]}',
      graphql: null,
    });
    const prefer = refusalResponse(422, "text/plain", "VALIDATION_ERROR", "Request validation failed", [{ in: "header", path: "Prefer", message: "bogus=1: unknown preference" }]);
    expect(prefer.headers["Content-Type"]).toBe("application/json; charset=utf-8");
    expect(JSON.parse(prefer.body).errors[0].extensions.details).toStrictEqual([{ in: "header", path: "Prefer", message: "bogus=1: unknown preference" }]);
  });

  it.each([
    ["GET", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", true],
    ["GET", "TEXT/HTML", true],
    ["GET", "application/json", false],
    ["GET", "text/htmlx", false],
    ["GET", undefined, false],
    ["HEAD", "text/html", true],
    ["HEAD", "application/json", false],
    ["POST", "text/html", false],
  ])("%s with Accept %s wants GraphiQL: %s", (method, accept, expected) => {
    expect(wantsGraphiQL(method, accept)).toBe(expected);
  });
});
