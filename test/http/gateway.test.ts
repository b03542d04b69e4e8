/**
 * The gateway runs the checks in front of API handlers as plain functions (src/http/gateway.ts),
 * each given the request's record: in order, the first answer wins, a thrown error is answered
 * like a handler's, and every API request is recorded with the response it got, whoever wrote it.
 * Routes are mounted through it as one handler each, so a request that nothing makes wait is
 * answered without a promise.
 */
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../src/http/env.js";
import { writeEnvelope } from "../../src/http/errors.js";
import { createGateway, type Step } from "../../src/http/gateway.js";
import { createMount } from "../../src/http/mount.js";

/** A gate that notes it ran, and answers with `status` when given one. */
type GateMaker = (name: string, status?: number) => Step;

function harness(gates: (gate: GateMaker, later: GateMaker) => { api: Step[]; everyRequest?: Step[] }) {
  const seen: string[] = [];
  const recorded: { path: string; status: number; operation?: string }[] = [];
  const gate: GateMaker = (name, status) => ({ c }) => {
    seen.push(name);
    if (status === undefined) return undefined;
    return status === 204 ? c.body(null, 204) : c.json({ by: name }, status as 200);
  };
  const later: GateMaker = (name, status) => async (exchange) => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    return gate(name, status)(exchange);
  };
  const { api, everyRequest = [] } = gates(gate, later);
  const gateway = createGateway({
    everyRequest: [({ headers }) => void (headers["X-Request-Id"] = "req_1"), ...everyRequest],
    recorder: {
      begin: (exchange) => void (exchange.arrival = { started: 0, at: 0 }),
      waits: () => false,
      finish: (exchange, res) => {
        const operation = exchange.route?.operationId;
        recorded.push({ path: exchange.c.req.path, status: res.status, ...(operation && { operation: `${operation} ${JSON.stringify(exchange.params)}` }) });
      },
      finishLater: () => Promise.reject(new Error("nothing is left to read")),
    },
    api,
    graphql: { gates: [], writeError: writeEnvelope },
    other: [],
    onError: (error, { c }) => c.json({ error: String(error) }, 500),
  });
  const hidden = (path: string) => createRoute({ method: "get", path, hide: true, responses: { 200: { description: "" } } });
  const apiRouter = createMount({ side: gateway.api, base: "/api" })()
    .route(hidden("/thing"), (c) => {
      seen.push("handler");
      return c.json({ ok: true });
    })
    .route(hidden("/boom"), () => {
      seen.push("boom");
      throw new Error("handler broke");
    })
    // A documented route whose input is checked in front of its handler.
    .route(
      createRoute({
        method: "get",
        path: "/things/{id}",
        operationId: "getThing",
        request: { params: z.object({ id: z.string() }), query: z.object({ n: z.string().regex(/^\d+$/) }) },
        responses: { 200: { description: "a thing" } },
      }),
      (c) => {
        seen.push("getThing");
        return c.json({ id: c.req.valid("param").id, n: Number(c.req.valid("query").n) }, 200);
      },
    ).router;
  const docs = createMount({ side: gateway.other, base: "" })().route(hidden("/docs"), (c) => {
    seen.push("docs");
    return c.text("docs");
  }).router;
  const app = new OpenAPIHono<AppEnv>();
  app.route("/api", apiRouter);
  app.route("/", docs);
  app.notFound(gateway.other.handler(undefined, [({ c }) => c.json({ notFound: true }, 404)]));
  return { app, seen, recorded };
}

describe("the gateway", () => {
  it("runs the gates in order, sync and async, then the handler, and records the answer", async () => {
    const t = harness((gate, later) => ({ api: [gate("a"), later("b"), gate("c")] }));
    const res = await t.app.request("/api/thing");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(res.headers.get("X-Request-Id")).toBe("req_1");
    expect(t.seen).toEqual(["a", "b", "c", "handler"]);
    expect(t.recorded).toEqual([{ path: "/api/thing", status: 200 }]);
  });

  it("stops at the first gate that answers: later gates and the handler never run", async () => {
    const t = harness((gate, later) => ({ api: [gate("a"), later("b", 429), gate("c", 401)] }));
    const res = await t.app.request("/api/thing");
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ by: "b" });
    expect(res.headers.get("X-Request-Id")).toBe("req_1");
    expect(t.seen).toEqual(["a", "b"]);
    expect(t.recorded).toEqual([{ path: "/api/thing", status: 429 }]);
  });

  it.each([
    [
      "a gate that throws",
      (): Step => () => {
        throw new Error("boom");
      },
    ],
    ["a gate whose promise rejects", (): Step => () => Promise.reject(new Error("boom"))],
  ])("answers %s with the error handler, and records that answer", async (_, failing) => {
    const t = harness((gate) => ({ api: [gate("before"), failing(), gate("after")] }));
    const res = await t.app.request("/api/thing");
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "Error: boom" });
    expect(t.seen).toEqual(["before"]);
    expect(t.recorded).toEqual([{ path: "/api/thing", status: 500 }]);
  });

  it("leaves requests outside the API base unchecked and unrecorded ('/apix' is outside '/api')", async () => {
    const t = harness((gate) => ({ api: [gate("api", 401)] }));
    const res = await t.app.request("/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Request-Id")).toBe("req_1");
    expect((await t.app.request("/apix")).status).toBe(404);
    expect(t.seen).toEqual(["docs"]);
    expect(t.recorded).toEqual([]);
  });

  it("an every-request gate that answers (a CORS preflight) ends the request before the API's", async () => {
    const t = harness((gate) => ({ api: [gate("api")], everyRequest: [gate("preflight", 204)] }));
    const res = await t.app.request("/api/thing");
    expect(res.status).toBe(204);
    expect(res.headers.get("X-Request-Id")).toBe("req_1");
    expect(t.seen).toEqual(["preflight"]);
    expect(t.recorded).toEqual([]);
  });

  it("answers a request that no gate or handler makes wait without a promise; one that waits, with one", async () => {
    const now = harness((gate) => ({ api: [gate("a")] }));
    const res = now.app.fetch(new Request("http://sim.test/api/thing"));
    expect(res).not.toBeInstanceOf(Promise);
    expect((res as Response).status).toBe(200);
    expect(now.recorded).toEqual([{ path: "/api/thing", status: 200 }]);

    const waits = harness((_, later) => ({ api: [later("a")] }));
    const pending = waits.app.fetch(new Request("http://sim.test/api/thing"));
    expect(pending).toBeInstanceOf(Promise);
    expect((await pending).status).toBe(200);
  });

  it("answers a handler that throws with the error handler, and records that answer", async () => {
    const t = harness((gate) => ({ api: [gate("a")] }));
    const res = await t.app.request("/api/boom");
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "Error: handler broke" });
    expect(res.headers.get("X-Request-Id")).toBe("req_1");
    expect(t.seen).toEqual(["a", "boom"]);
    expect(t.recorded).toEqual([{ path: "/api/boom", status: 500 }]);
  });

  it("checks a route's input after the gates: its refusal ends the request and is recorded with the operation", async () => {
    const t = harness((gate) => ({ api: [gate("a")] }));
    const refused = await t.app.request("/api/things/x%20y?n=seven");
    expect(refused.status).toBe(500);
    expect(await refused.json()).toEqual({ error: expect.stringMatching(/^DomainError: Request validation failed/) });
    expect(refused.headers.get("X-Request-Id")).toBe("req_1");
    const res = await t.app.request("/api/things/x%20y?n=7");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: "x y", n: 7 });
    expect(t.seen).toEqual(["a", "a", "getThing"]);
    expect(t.recorded).toEqual([
      { path: "/api/things/x y", status: 500, operation: 'getThing {"id":"x y"}' },
      { path: "/api/things/x y", status: 200, operation: 'getThing {"id":"x y"}' },
    ]);
  });

  it("a gate's early answer keeps the route's input checks and handler from running", async () => {
    const t = harness((gate) => ({ api: [gate("auth", 401)] }));
    const res = await t.app.request("/api/things/1?n=seven");
    expect(res.status).toBe(401);
    expect(t.seen).toEqual(["auth"]);
    expect(t.recorded).toEqual([{ path: "/api/things/1", status: 401, operation: 'getThing {"id":"1"}' }]);
  });
});
