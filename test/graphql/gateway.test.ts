/**
 * `POST /graphql` through the gateway REST goes through (spec 2.3, 2.7, 5.1, 5.2): credentials,
 * access, plan, the hourly quota shared with REST and its headers, the body limit, CORS, the
 * request id; refusals in GraphQL's shape with REST's status; media types; GET and other methods.
 * Checks 6, 7, 10, 16, 32, 36 (the 405), 37.
 * @module
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { newShop } from "../support/shops.js";
import { AUTH } from "../support/sim.js";
import { graphqlOverHttp, quotaOf } from "./http-sim.js";

const SHOP = "{ shop { programName } }";
const GRAPHQL_JSON = "application/graphql-response+json; charset=utf-8";
const JSON_TYPE = "application/json; charset=utf-8";

/** A request error: no `data`, these messages. */
const messages = (body: any) => {
  expect(Object.keys(body)).toEqual(["errors"]);
  return body.errors.map((e: { message: string }) => e.message);
};

describe("credentials, access, plan (checks 6, 7, 10)", () => {
  it("no X-Api-Secret: 401 UNAUTHORIZED, no data, no quota headers; introspection too", async () => {
    const t = graphqlOverHttp();
    for (const query of [SHOP, "{ __schema { queryType { name } } }"]) {
      const res = await t.post(query, undefined, { auth: { "X-Api-Key": AUTH["X-Api-Key"] } });
      expect(res.status).toBe(401);
      expect(res.headers.get("content-type")).toBe(JSON_TYPE);
      expect(res.body).toStrictEqual({ errors: [{ message: "UNAUTHORIZED", extensions: { reason: "Invalid API credentials" } }] });
      expect(quotaOf(res)).toEqual([null, null]);
    }
  });

  it("a shop without API access, and one on the free plan: 403 with the quota headers", async () => {
    const t = graphqlOverHttp();
    const closed = await newShop(t, { customers: 0, apiAccess: false, rateLimit: 50 });
    const free = await newShop(t, { customers: 0, plan: "free", rateLimit: 50 });
    const a = await t.post(SHOP, undefined, { auth: closed.auth });
    expect([a.status, messages(a.body), quotaOf(a)]).toEqual([403, ["API_ACCESS_DISABLED"], ["50", "49"]]);
    const b = await t.post(SHOP, undefined, { auth: free.auth, headers: { Accept: "application/graphql-response+json" } });
    expect([b.status, messages(b.body), quotaOf(b)]).toEqual([403, ["PLAN_UPGRADE_REQUIRED"], ["50", "49"]]);
    expect(b.headers.get("content-type")).toBe(GRAPHQL_JSON);
  });

  it("with credentials, every shop answers at the same URL, from its own data", async () => {
    const t = graphqlOverHttp();
    const other = await newShop(t, { customers: 0 });
    const res = await t.post("{ customers(limit: 1) { items { id } } }", undefined, { auth: other.auth });
    expect(res.body).toStrictEqual({ data: { customers: { items: [] } } });
  });
});

describe("the hourly quota, shared with REST (check 32)", () => {
  it("REST, GraphQL with 5 root fields, GraphQL: 2, 1, 0 left; then 429 RATE_LIMITED with Retry-After, no data", async () => {
    const t = graphqlOverHttp();
    const shop = await newShop(t, { customers: 2, rateLimit: 3 });
    const rest = await t.call("GET", "/shop", { headers: shop.auth });
    const five = await t.post("{ a: shop { programName } b: shop { programName } c: tiers { id } d: rewards { id } e: beacons { id } }", undefined, { auth: shop.auth });
    const one = await t.post("{ __typename }", undefined, { auth: shop.auth });
    expect([rest.headers.get("x-ratelimit-remaining"), quotaOf(five)[1], quotaOf(one)[1]]).toEqual(["2", "1", "0"]);
    expect(Object.keys(five.body.data)).toEqual(["a", "b", "c", "d", "e"]);
    const refused = await t.post(SHOP, undefined, { auth: shop.auth });
    expect(refused.status).toBe(429);
    expect(messages(refused.body)).toEqual(["RATE_LIMITED"]);
    expect(quotaOf(refused)).toEqual(["3", "0"]);
    expect(refused.headers.get("retry-after")).toBe("3600");
    // REST sees the same window.
    expect((await t.call("GET", "/shop", { headers: shop.auth })).status).toBe(429);
  });

  it("an invalid document counts one request too", async () => {
    const t = graphqlOverHttp();
    const shop = await newShop(t, { customers: 0, rateLimit: 5 });
    const res = await t.post("{", undefined, { auth: shop.auth });
    expect([res.status, quotaOf(res)]).toEqual([200, ["5", "4"]]);
  });
});

describe("body limit, CORS, request id", () => {
  it("a body over 1 MiB: 413 PAYLOAD_TOO_LARGE in GraphQL's shape, with the quota headers", async () => {
    const t = graphqlOverHttp();
    const query = `{ shop { programName } } # ${"x".repeat(1024 * 1024)}`;
    const res = await t.post(query);
    expect(res.status).toBe(413);
    expect(res.body).toStrictEqual({ errors: [{ message: "PAYLOAD_TOO_LARGE", extensions: { reason: "Request body is larger than 1048576 bytes" } }] });
    expect(quotaOf(res)).toEqual(["1000", "999"]);
  });

  it("a preflight is answered without credentials; an answer exposes the API's headers", async () => {
    const t = graphqlOverHttp();
    const preflight = await t.app.request("/graphql", {
      method: "OPTIONS",
      headers: { Origin: "http://app.test", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type,x-api-key,x-api-secret" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")).toBe("content-type,x-api-key,x-api-secret");
    expect(await t.journal.list()).toEqual([]);
    const res = await t.post(SHOP, undefined, { headers: { Origin: "http://app.test" } });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toContain("X-RateLimit-Remaining");
  });

  it("every answer carries a request id, the client's own kept; refusals too", async () => {
    const t = graphqlOverHttp();
    expect((await t.post(SHOP)).headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{6}$/);
    expect((await t.post(SHOP, undefined, { headers: { "X-Request-Id": "mine-1" } })).headers.get("x-request-id")).toBe("mine-1");
    expect((await t.post(SHOP, undefined, { auth: false, headers: { "X-Request-Id": "mine-2" } })).headers.get("x-request-id")).toBe("mine-2");
  });
});

describe("media types and methods (checks 16, 36, 37)", () => {
  it("a validation error: 200 for application/json, 400 for application/graphql-response+json", async () => {
    const t = graphqlOverHttp();
    const query = '{ customerActivities(customerId: "1", before: "x") { items { id } } }';
    const plain = await t.post(query);
    expect([plain.status, plain.headers.get("content-type")]).toEqual([200, JSON_TYPE]);
    expect(messages(plain.body)).toEqual(['Unknown argument "before" on field "Query.customerActivities".']);
    const strict = await t.post(query, undefined, { headers: { Accept: "application/graphql-response+json" } });
    expect([strict.status, strict.headers.get("content-type")]).toEqual([400, GRAPHQL_JSON]);
    expect(messages(strict.body)).toEqual(['Unknown argument "before" on field "Query.customerActivities".']);
  });

  it("Accept text/plain 406, Content-Type text/plain 415, broken JSON 400, a batch 400, a syntax error 200/400", async () => {
    const t = graphqlOverHttp();
    const status = async (init: Parameters<typeof t.post>[2]) => (await t.post(SHOP, undefined, init)).status;
    expect(await status({ headers: { Accept: "text/plain" } })).toBe(406);
    expect(await status({ headers: { "Content-Type": "text/plain" } })).toBe(415);
    expect(await status({ rawBody: '{"query":' })).toBe(400);
    expect(await status({ rawBody: '[{"query":"{shop{currency}}"}]' })).toBe(400);
    expect(await status({ rawBody: '{"query":"{"}' })).toBe(200);
    expect(await status({ rawBody: '{"query":"{"}', headers: { Accept: "application/graphql-response+json" } })).toBe(400);
    expect(await status({ rawBody: '{"variables":{}}' })).toBe(400);
  });

  it("GET without HTML: 405 with Allow; other methods 405; GET with HTML: GraphiQL, not journaled or counted", async () => {
    const t = graphqlOverHttp();
    const get = await t.app.request("/graphql?query={shop{currency}}", { headers: { ...AUTH, Accept: "application/json" } });
    expect([get.status, get.headers.get("allow")]).toEqual([405, "POST"]);
    expect(messages(await get.json())).toEqual([
      "GraphQL operations are sent with POST (GET /graphql serves GraphiQL to a browser). A client that sends queries as GET must be set to POST: urql's `preferGetMethod: false`, Apollo's `useGETForQueries: false`.",
    ]);
    const put = await t.app.request("/graphql", { method: "PUT", headers: { ...AUTH, "Content-Type": "application/json" }, body: "{}" });
    expect([put.status, put.headers.get("allow")]).toEqual([405, "GET, POST"]);
    const page = await t.app.request("/graphql", { headers: { Accept: "text/html,application/xhtml+xml" } });
    expect([page.status, page.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
    const html = await page.text();
    expect(html).toContain('<script src="/graphql/init.js"></script>');
    // In process, at localhost: the page carries the default shop's headers (init.js never does).
    expect(html).toContain('data-headers="{&quot;X-Api-Key&quot;:&quot;sim_key&quot;,&quot;X-Api-Secret&quot;:&quot;sim_secret&quot;}"');
    expect(await (await t.app.request("/graphql/init.js")).text()).not.toContain("sim_key");
    const schema = await t.app.request("/graphql/schema.graphql");
    expect([schema.status, await schema.text()]).toEqual([200, readFileSync(new URL("../../graphql/schema.graphql", import.meta.url), "utf8")]);
    expect((await t.app.request("/graphql/assets/nothing.js")).status).toBe(404);
    // Only the PUT was an API request.
    expect(t.journal.list().map((e) => [e.method, e.status])).toEqual([["PUT", 405]]);
  });
});

describe("bad input over HTTP: a clear GraphQL error, never a 5xx, nothing changed", () => {
  it("malformed JSON, no query, syntax, wrong variable types, too deep, too wide, huge variables", async () => {
    const t = graphqlOverHttp();
    const c = t.activeCustomer(1);
    const before = await t.call("GET", `/customers/${c}/activities?limit=1000`);
    const award = `mutation($s: Int!) { awardStamps(customerId: "${c}", stamps: $s) { stampBalance } }`;
    const deep = `{ __schema { types { ${"fields { type { ".repeat(12)}name${" } }".repeat(12)} } } }`;
    const wide = `mutation { ${Array.from({ length: 200 }, (_, i) => `a${i}: awardStamps(customerId: "${c}", stamps: 1) { stampBalance }`).join(" ")} }`;
    const cases: [string, Promise<{ status: number; body: any }>, number, RegExp][] = [
      ["malformed JSON", t.post("", undefined, { rawBody: '{"query": "{ shop {' }), 400, /^The body is not valid JSON\.$/],
      ["no query", t.post("", undefined, { rawBody: '{"variables": {"s": 1}}' }), 400, /^`query` must be a string/],
      ["syntax", t.post("mutation { awardStamps(", undefined), 200, /^Syntax Error: /],
      ["a string for Int", t.post(award, { s: "five" }), 200, /^Variable "\$s" got invalid value "five"; Int cannot represent non-integer value: "five"$/],
      ["a float for Int", t.post(award, { s: 1.5 }), 200, /^Variable "\$s" got invalid value 1.5; Int cannot represent non-integer value: 1.5$/],
      ["too deep", t.post(deep), 200, /^An operation may nest fields at most 20 levels deep \(fragments expanded\); this one nests 27\.$/],
      ["too wide", t.post(wide), 200, /^An operation may select at most 50 root fields \(fragments expanded\); this one selects 200\.$/],
      ["huge variables", t.post(award, { s: Array.from({ length: 100_000 }, (_, i) => i) }), 200, /^Variable "\$s" may hold at most \d+ object fields and list items\.$/],
    ];
    for (const [name, res, status, message] of cases) {
      const { status: got, body } = await res;
      expect([name, got, Object.keys(body)]).toEqual([name, status, ["errors"]]);
      expect(body.errors[0].message, name).toMatch(message);
    }
    expect(await t.call("GET", `/customers/${c}/activities?limit=1000`)).toEqual({ ...before, headers: expect.anything() });
  });
});
