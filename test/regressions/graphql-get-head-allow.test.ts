/**
 * Issue 26, case 13 (its GraphQL half). Was: `/graphql` answered a GET without `text/html` and
 * every HEAD with 405 while its `Allow` said `GET, POST`: the method refused was one it advertised,
 * and a HEAD from a browser (or a link checker) got a 405 for a page its GET serves. Now a HEAD
 * answers as its GET does, without a body; a GET or HEAD without `text/html` is 405 with
 * `Allow: POST` (spec, check 36), other methods 405 with `Allow: GET, POST` (spec 2.7); the answers
 * to GET and HEAD, which depend on `Accept`, say so with `Vary: Accept`.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type RunningSimulator } from "../../src/simulator/server.js";
import { AUTH, createTestSim } from "../support/sim.js";

const HTML = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const NOT_OVER_GET = { errors: [{ message: "GraphQL operations are sent with POST (GET /graphql serves GraphiQL to a browser)." }] };
// Issue 31 added to the GET's message how to switch a client to POST (graphql-405-quota-and-hint.test.ts).
const NOT_OVER_GET_HINT = {
  errors: [{ message: `${NOT_OVER_GET.errors[0]!.message} A client that sends queries as GET must be set to POST: urql's \`preferGetMethod: false\`, Apollo's \`useGETForQueries: false\`.` }],
};

describe("issue 26, case 13: /graphql answered GET and HEAD with 405 while sending Allow: GET, POST", () => {
  it("HEAD with text/html answers as GET does, without a body", async () => {
    const sim = createTestSim({ customers: 1 });
    const get = await sim.app.request("/graphql", { headers: { Accept: HTML } });
    const head = await sim.app.request("/graphql", { method: "HEAD", headers: { Accept: HTML } });
    expect([get.status, get.headers.get("content-type"), get.headers.get("vary")]).toEqual([200, "text/html; charset=utf-8", "Accept"]);
    expect([head.status, head.headers.get("content-type"), head.headers.get("vary"), head.headers.get("allow")]).toEqual([200, "text/html; charset=utf-8", "Accept", null]);
    expect(await head.text()).toBe("");
    expect(await get.text()).toContain('<script src="/graphql/init.js"></script>');
  });

  it.each(["GET", "HEAD"])("%s without text/html is 405 with Allow: POST, the method it refuses not advertised", async (method) => {
    const sim = createTestSim({ customers: 1 });
    for (const accept of ["application/json", "application/graphql-response+json", "*/*"]) {
      const res = await sim.app.request("/graphql?query={shop{currency}}", { method, headers: { ...AUTH, Accept: accept } });
      expect([accept, res.status, res.headers.get("allow"), res.headers.get("vary")]).toEqual([accept, 405, "POST", "Accept"]);
      const text = await res.text();
      expect(text === "" ? undefined : JSON.parse(text)).toEqual(method === "HEAD" ? undefined : NOT_OVER_GET_HINT);
    }
    // Neither is an API request: not journaled.
    expect(sim.journal.list()).toEqual([]);
  });

  it.each(["PUT", "PATCH", "DELETE"])("%s is 405 with Allow: GET, POST, both of which the route answers", async (method) => {
    const sim = createTestSim({ customers: 1 });
    const res = await sim.app.request("/graphql", { method, headers: { ...AUTH, "Content-Type": "application/json" }, body: '{"query":"{shop{currency}}"}' });
    expect([res.status, res.headers.get("allow"), await res.json()]).toEqual([405, "GET, POST", NOT_OVER_GET]);
  });
});

describe("issue 26, case 13: HEAD on a real socket", () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ customers: 1 });
  });
  afterAll(() => sim.close());

  it("HEAD /graphql answers the head of the page, and the next request on the connection is answered", async () => {
    const socket = connect(sim.port, "127.0.0.1");
    socket.on("error", () => {});
    let received = "";
    const answered = new Promise<void>((resolve) => {
      socket.on("data", (chunk: Buffer) => {
        received += chunk.toString("latin1");
        if (received.includes('"status":"ok"')) resolve();
      });
    });
    socket.write(`HEAD /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: ${HTML}\r\n\r\nGET /__sim/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await answered;
    socket.destroy();
    const [head, second] = received.split(/\r\n\r\n/);
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head).toMatch(/\r\ncontent-type: text\/html; charset=utf-8\r\n/i);
    expect(second).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  });
});
