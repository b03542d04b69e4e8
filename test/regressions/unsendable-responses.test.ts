/**
 * Issue 17, case 7. Was: a scenario response that no server can send (a header name that is not a
 * token, a CR, LF or NUL in a value, a 1xx status, a body with 204) was accepted and then answered
 * 500 on every match, and `Prefer: status=101` answered 500. They are refused when the scenario is
 * added, or the header read; every status the schema takes is one the server can answer.
 */
import { Agent, request } from "node:http";
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type RunningSimulator } from "../../src/index.js";
import { parseScenario, ScenarioError } from "../../src/scenarios/load.js";
import { AUTH, createTestSim, type TestSim } from "../support/sim.js";

const NO_BODY = [204, 205, 304];
const NAME = "is not a valid header name: only letters, digits and !#$%&'*+-.^_`|~ may appear";
const VALUE = "holds a character a header value cannot carry (a control character such as CR, LF or NUL, or one beyond U+00FF)";
const ONE_XX = "must be from 200 to 599: a 1xx status is not a final answer";
const withBody = (status: number) => `cannot go with status ${status}, which has no body; remove it or pick another status`;

const addRaw = (sim: TestSim, respond: object) =>
  sim.call("POST", "/__sim/scenarios", { body: { name: "r", rules: [{ match: { operation: "getShop" }, respond }] }, unchecked: true });

describe("refused when added", () => {
  it.each<[string, object, string, string]>([
    ["a header name with a space", { status: 200, headers: { "X B": "1" } }, "rules[0].respond.headers.X B", NAME],
    ["a header name with a colon", { status: 200, headers: { "X:Y": "1" } }, "rules[0].respond.headers.X:Y", NAME],
    ["an empty header name", { status: 200, headers: { "": "1" } }, "rules[0].respond.headers.", NAME],
    ["CR LF in a value (a header injected)", { status: 200, headers: { "X-A": "a\r\nSet-Cookie: x=1" } }, "rules[0].respond.headers.X-A", VALUE],
    ["a lone LF in a value", { status: 200, headers: { "X-A": "a\nb" } }, "rules[0].respond.headers.X-A", VALUE],
    ["NUL in a value", { status: 200, headers: { "X-A": "a\u0000b" } }, "rules[0].respond.headers.X-A", VALUE],
    ["a character beyond U+00FF in a value", { status: 200, headers: { "X-A": "5 €" } }, "rules[0].respond.headers.X-A", VALUE],
    ["status 100", { status: 100 }, "rules[0].respond.status", ONE_XX],
    ["status 101", { status: 101 }, "rules[0].respond.status", ONE_XX],
    ["status 199", { status: 199 }, "rules[0].respond.status", ONE_XX],
    ...NO_BODY.map((status): [string, object, string, string] => [`a body with ${status}`, { status, body: { a: 1 } }, "rules[0].respond.body", withBody(status)]),
    ["a null body with 204", { status: 204, body: null }, "rules[0].respond.body", withBody(204)],
  ])("%s: 422 naming the field; nothing is added", async (_, respond, path, message) => {
    const sim = createTestSim({ customers: 0 });
    const res = await addRaw(sim, respond);
    expect([res.status, res.body.error.code, res.body.error.details]).toEqual([422, "VALIDATION_ERROR", [{ in: "body", path, message }]]);
    expect((await sim.call("GET", "/__sim/scenarios")).body.scenarios).toEqual([]);
    expect((await sim.call("GET", "/shop")).status).toBe(200);
    // The same from a file (or any scenario read through the schema).
    expect(() => parseScenario({ name: "r", rules: [{ respond }] }, "f.json")).toThrow(ScenarioError);
  });

  it("a value may hold tabs, spaces and Latin-1 characters (what Node sends as they are)", async () => {
    const sim = createTestSim({ customers: 0 });
    const headers = { "X-Note": "caf\u00e9\tau lait", "X-Empty": "" };
    expect((await addRaw(sim, { status: 200, headers })).status).toBe(201);
    const res = await sim.call("GET", "/shop", { unchecked: true });
    expect([res.status, res.headers.get("X-Note"), res.headers.get("X-Empty")]).toEqual([200, "caf\u00e9\tau lait", ""]);
  });

  it.each(["100", "101", "199"])("Prefer: status=%s is a 422 naming the Prefer header", async (status) => {
    const sim = createTestSim({ customers: 0 });
    const res = await sim.call("GET", "/shop", { headers: { Prefer: `status=${status}` } });
    expect([res.status, res.body.error.details]).toEqual([
      422,
      [{ in: "header", path: "Prefer", message: `status=${status}: must be an HTTP status from 200 to 599 (a 1xx status is not a final answer)` }],
    ]);
    expect(sim.bugs).toEqual([]);
  });
});

describe("every status the schema takes is answered", () => {
  it("through app.request: of 100-599, a rule (with a body, and without) or Prefer takes exactly those it can answer, and answers them", async () => {
    const sim = createTestSim({ customers: 0, access: { rateLimit: null } });
    const taken: string[] = [];
    const expected: string[] = [];
    for (let status = 100; status <= 599; status++) {
      const body = { status };
      for (const respond of [{ status, body }, { status }]) {
        const final = status >= 200;
        if (final && !("body" in respond && NO_BODY.includes(status))) expected.push(`${status}${"body" in respond ? " with body" : ""}`);
        const added = await addRaw(sim, respond);
        if (added.status !== 201) {
          expect(added.status).toBe(422);
          continue;
        }
        taken.push(`${status}${"body" in respond ? " with body" : ""}`);
        const res = await sim.app.request("/rest_api/v1/shop", { headers: AUTH });
        expect([res.status, await res.text()]).toEqual([status, "body" in respond ? JSON.stringify(body) : ""]);
      }
      await sim.call("DELETE", "/__sim/scenarios");
      const preferred = await sim.app.request("/rest_api/v1/shop", { headers: { ...AUTH, Prefer: `status=${status}` } });
      expect([preferred.status, preferred.status === 422 ? "" : await preferred.text()]).toEqual([status >= 200 ? status : 422, ""]);
    }
    expect(taken).toEqual(expected);
    expect(sim.bugs).toEqual([]);
  });

  describe("over a real socket, one keep-alive connection for a sample", () => {
    let sim: RunningSimulator;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    beforeAll(async () => {
      sim = await startSimulator({ customers: 0, rateLimit: "off" });
    });
    afterAll(async () => {
      agent.destroy();
      await sim?.close();
    });

    /** One request on the agent's single connection: status, body text and the socket used. */
    const send = (method: string, path: string, body?: string) =>
      new Promise<{ status: number; text: string; socket: Socket }>((resolve, reject) => {
        const headers = { "X-Api-Key": sim.apiKey, "X-Api-Secret": sim.apiSecret, ...(body !== undefined && { "Content-Type": "application/json" }) };
        const req = request({ host: "127.0.0.1", port: sim.port, method, path, agent, headers }, (res) => {
          let text = "";
          res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode!, text, socket: req.socket! }));
        });
        req.on("error", reject);
        req.end(body);
      });

    it("200, 201, 204, 205, 206, 304, 400, 418, 429, 500, 503, 599, and HEAD with a body rule", async () => {
      const first = await send("GET", "/rest_api/v1/shop");
      for (const status of [200, 201, 204, 205, 206, 304, 400, 418, 429, 500, 503, 599]) {
        const body = NO_BODY.includes(status) ? undefined : { status };
        const added = await send("POST", "/__sim/scenarios", JSON.stringify({ name: "s", rules: [{ match: { operation: "getShop" }, respond: { status, ...(body && { body }) } }] }));
        expect(added.status).toBe(201);
        const res = await send("GET", "/rest_api/v1/shop");
        expect([res.status, res.text, res.socket]).toEqual([status, body ? JSON.stringify(body) : "", first.socket]);
      }
      // HEAD runs the GET route: the rule answers and Node sends no body. (Node's client opens a
      // new connection after any HEAD answer, which carries no Content-Length.)
      await send("POST", "/__sim/scenarios", JSON.stringify({ name: "s", rules: [{ match: { operation: "getShop" }, respond: { status: 200, body: { a: 1 } } }] }));
      const head = await send("HEAD", "/rest_api/v1/shop");
      const after = await send("GET", "/rest_api/v1/tiers");
      expect([head.status, head.text, after.status, JSON.parse(after.text).success]).toEqual([200, "", 200, true]);
    });
  });
});
