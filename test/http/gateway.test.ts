/**
 * The gateway runs the checks in front of API handlers as plain functions (src/http/gateway.ts):
 * in order, the first answer wins, a thrown error is answered like a handler's, and every API
 * request is recorded with the response it got, whoever wrote it.
 */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../src/http/env.js";
import { gateway, type Gate } from "../../src/http/gateway.js";
import { setHeader } from "../../src/http/respond.js";

/** A gate that notes it ran, and answers with `status` when given one. */
type GateMaker = (name: string, status?: number) => Gate;

function harness(gates: (gate: GateMaker, later: GateMaker) => { api: Gate[]; everyRequest?: Gate[] }) {
  const seen: string[] = [];
  const recorded: { path: string; status: number }[] = [];
  const gate: GateMaker = (name, status) => (c) => {
    seen.push(name);
    if (status === undefined) return undefined;
    return status === 204 ? c.body(null, 204) : c.json({ by: name }, status as 200);
  };
  const later: GateMaker = (name, status) => async (c) => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    return gate(name, status)(c);
  };
  const { api, everyRequest = [] } = gates(gate, later);
  const app = new Hono<AppEnv>();
  app.use(
    "*",
    gateway({
      everyRequest: [(c) => void setHeader(c, "X-Request-Id", "req_1"), ...everyRequest],
      apiBase: "/api",
      recorder: {
        begin: () => ({ started: 0, at: 0 }),
        finish: (c) => void recorded.push({ path: c.req.path, status: c.res.status }),
      },
      apiGates: api,
      onError: (error, c) => c.json({ error: String(error) }, 500),
    }),
  );
  app.get("/api/thing", (c) => {
    seen.push("handler");
    return c.json({ ok: true });
  });
  app.get("/docs", (c) => {
    seen.push("docs");
    return c.text("docs");
  });
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
      (): Gate => () => {
        throw new Error("boom");
      },
    ],
    ["a gate whose promise rejects", (): Gate => () => Promise.reject(new Error("boom"))],
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
});
