/**
 * Issue 31: a client whose default sends queries as GET (urql's, with `preferGetMethod`) got a 405
 * from `/graphql` on every query, without the quota headers the README promises on every GraphQL
 * answer, and with nothing said of how to switch it to POST. Now the 405 (its `Allow: POST` from
 * issue 26) carries the shop's X-RateLimit-* when the credentials name one (the 405 is not an
 * operation: it uses none of the quota, as it is not journaled), and its message says how urql and
 * Apollo are set to POST. A browser's GET still gets GraphiQL.
 */
import { describe, expect, it } from "vitest";
import { AUTH, createTestSim } from "../support/sim.js";

const HINT =
  "GraphQL operations are sent with POST (GET /graphql serves GraphiQL to a browser). A client that sends queries as GET must be set to POST: urql's `preferGetMethod: false`, Apollo's `useGETForQueries: false`.";
// What urql sends for a query when it prefers GET.
const URQL_GET = "/graphql?query=%7Bshop%7Bcurrency%7D%7D&variables=%7B%7D";
const URQL_ACCEPT = "application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed";

describe("issue 31: the 405 of a GET /graphql operation carries the quota headers and says how to switch to POST", () => {
  it.each(["GET", "HEAD"])("%s with credentials: Allow POST, the quota left, the hint", async (method) => {
    const sim = createTestSim({ customers: 1, access: { rateLimit: 1000 } });
    const post = await sim.app.request("/graphql", { method: "POST", headers: { ...AUTH, "Content-Type": "application/json" }, body: '{"query":"{shop{currency}}"}' });
    expect([post.status, post.headers.get("x-ratelimit-remaining")]).toEqual([200, "999"]);
    for (let i = 0; i < 2; i++) {
      const res = await sim.app.request(URQL_GET, { method, headers: { ...AUTH, Accept: URQL_ACCEPT } });
      expect([res.status, res.headers.get("allow"), res.headers.get("x-ratelimit-limit"), res.headers.get("x-ratelimit-remaining")]).toEqual([405, "POST", "1000", "999"]);
      const text = await res.text();
      expect(text === "" ? undefined : JSON.parse(text)).toEqual(method === "HEAD" ? undefined : { errors: [{ message: HINT }] });
    }
  });

  it("without credentials, no quota headers (as a 401 has none)", async () => {
    const sim = createTestSim({ customers: 1 });
    const res = await sim.app.request(URQL_GET, { headers: { Accept: URQL_ACCEPT } });
    expect([res.status, res.headers.get("allow"), res.headers.get("x-ratelimit-limit"), ((await res.json()) as { errors: { message: string }[] }).errors[0]!.message]).toEqual([405, "POST", null, HINT]);
  });

  it("a browser's GET still gets GraphiQL", async () => {
    const sim = createTestSim({ customers: 1 });
    const res = await sim.app.request("/graphql", { headers: { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
    expect([res.status, res.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
  });
});
