/**
 * The mount (src/http/mount.ts) registers each route once, as one handler around its input checks:
 * plain string path parameters (`pathParams`) are handed over as the router decoded them, any other
 * input is checked by its schema, and a required JSON body is read and checked in one step with the
 * outcomes of @hono/zod-openapi's own validators. Each route is documented once, from its config.
 */
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import fc from "fast-check";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../src/engine/clock.js";
import { DomainError } from "../../src/engine/errors.js";
import type { AppEnv } from "../../src/http/env.js";
import { answerError, sendError, validationError, writeEnvelope } from "../../src/http/errors.js";
import { Exchange } from "../../src/http/exchange.js";
import { bodyLimit } from "../../src/http/gates/index.js";
import { createGateway } from "../../src/http/gateway.js";
import { createMount } from "../../src/http/mount.js";
import { pathParams } from "../../src/http/params.js";

/** A mount whose gateway only sets the clock, reads the body (as the app's body limit does) and answers errors as the app does. */
function mount() {
  const gateway = createGateway({
    everyRequest: [(exchange) => void (exchange.clock = fixedClock(0))],
    api: [],
    graphql: { gates: [], writeError: writeEnvelope },
    other: [bodyLimit(() => 1024 * 1024)],
    recorder: { begin: () => undefined, waits: () => false, finish: () => undefined, finishLater: () => Promise.resolve() },
    onError: (error, exchange) => answerError(error, exchange),
  });
  return createMount({ side: gateway.other, base: "" });
}

/** `error` answered as the app answers it, on a request outside the gateway (the reference's). */
function refusal(c: Context<AppEnv>, error: DomainError): Response {
  const exchange = new Exchange(c, undefined, writeEnvelope);
  exchange.clock = fixedClock(0);
  return sendError(exchange, error);
}

const ok = { 200: { description: "ok" } };

function paramsApp() {
  return mount()()
    .route(createRoute({ method: "get", path: "/plain/{id}", operationId: "plain", request: { params: pathParams({ id: {} }) }, responses: ok }), (c) =>
      c.json({ id: c.req.valid("param").id }, 200),
    )
    .route(
      createRoute({ method: "get", path: "/digits/{id}", operationId: "digits", request: { params: z.object({ id: z.string().regex(/^\d+$/) }) }, responses: ok }),
      (c) => c.json({ id: c.req.valid("param").id }, 200),
    ).router;
}

describe("the mount's path parameters", () => {
  it("hands a plain string parameter to the handler, decoded as the router decodes it", async () => {
    const res = await paramsApp().request("/plain/a%20b");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: "a b" });
  });

  it("still checks a parameter with checks: a 422 naming the path field, else the value", async () => {
    const refused = await paramsApp().request("/digits/abc");
    expect(refused.status).toBe(422);
    const body = (await refused.json()) as { error: { code: string; details: { in: string; path: string }[] } };
    expect(body.error.code).toBe("VALIDATION_ERROR");
    expect(body.error.details).toEqual([expect.objectContaining({ in: "path", path: "id" })]);
    const res = await paramsApp().request("/digits/42");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: "42" });
  });

  it("documents both, each once, with its path parameter", () => {
    const doc = paramsApp().getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } });
    expect(Object.keys(doc.paths ?? {})).toEqual(["/plain/{id}", "/digits/{id}"]);
    for (const path of ["/plain/{id}", "/digits/{id}"]) {
      expect(doc.paths![path]!.get!.parameters).toEqual([expect.objectContaining({ name: "id", in: "path", required: true })]);
    }
    expect(doc.paths!["/digits/{id}"]!.get!.parameters![0]).toMatchObject({ schema: { type: "string", pattern: "^\\d+$" } });
  });

  it("registers each route once, as one handler", () => {
    expect(paramsApp().routes.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /plain/:id", "GET /digits/:id"]);
  });
});

describe("the mount's required JSON bodies", () => {
  const Body = z.object({ stamps: z.int().min(1), comment: z.string().max(5).optional() });
  const route = createRoute({
    method: "post",
    path: "/award",
    request: { body: { required: true, content: { "application/json": { schema: Body } } } },
    responses: { 200: { description: "ok" } },
  });
  const ours = mount()().route(route, (c) => c.json({ body: c.req.valid("json") }, 200)).router;
  // @hono/zod-openapi's own validators, their validation failures and HTTPExceptions answered as 422s.
  const reference = new OpenAPIHono<AppEnv>({
    defaultHook: (result, c: Context<AppEnv>) => (result.success ? undefined : refusal(c, validationError(result.error, "body"))),
  });
  reference.onError((error, c) => {
    if (!(error instanceof HTTPException)) throw error;
    const type = c.req.header("Content-Type");
    const notJson = [{ in: "header" as const, path: "Content-Type", message: `must be application/json (optionally with "; charset=utf-8"), got ${type ?? "none"}` }];
    const malformed = [{ in: "body" as const, path: "(root)", message: "is not valid JSON" }];
    if (error.status === 415) return refusal(c, new DomainError("VALIDATION_ERROR", "Request body must be JSON", notJson));
    return refusal(c, new DomainError("VALIDATION_ERROR", "Request body is not valid JSON", malformed));
  });
  reference.openapi(route, (c) => c.json({ body: c.req.valid("json") }, 200));

  const contentTypes = [
    undefined,
    "",
    "application/json",
    "application/json; charset=utf-8",
    "application/json;charset=UTF-8",
    "application/json ; charset=utf-8",
    "APPLICATION/JSON",
    "application/vnd.api+json",
    "application/json; charset",
    "application/jsonx",
    "application/json, text/plain",
    "text/plain",
    "text/json",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
  ];
  const bodies = fc.oneof(
    fc.constant(undefined),
    fc.constant(""),
    fc.constant("\uFEFF{\"stamps\":2}"),
    fc.json(),
    fc.string({ unit: "grapheme", maxLength: 20 }),
    fc
      .record(
        { stamps: fc.oneof(fc.integer({ min: -3, max: 3 }), fc.double(), fc.string({ maxLength: 3 })), comment: fc.string({ maxLength: 8 }), extra: fc.boolean() },
        { requiredKeys: [] },
      )
      .map((value) => JSON.stringify(value)),
  );
  const send = async (router: OpenAPIHono<AppEnv>, type: string | undefined, body: string | undefined) => {
    // Bytes, so that fetch adds no Content-Type of its own.
    const res = await router.request("/award", {
      method: "POST",
      headers: type === undefined ? {} : { "Content-Type": type },
      ...(body !== undefined && { body: new TextEncoder().encode(body) }),
    });
    return { status: res.status, body: await res.json() };
  };

  it("answers every Content-Type and body exactly as @hono/zod-openapi's validators do", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...contentTypes), bodies, async (type, body) => {
        expect(await send(ours, type, body)).toEqual(await send(reference, type, body));
      }),
      { numRuns: 400 },
    );
  });

  it("covers each outcome: parsed, refused by zod, not JSON, malformed, no body at all", async () => {
    const detailsOf = (answer: { body: unknown }) => (answer.body as { error: { details: unknown } }).error.details;
    expect(await send(ours, "application/json; charset=utf-8", '{"stamps":2,"extra":1}')).toEqual({ status: 200, body: { body: { stamps: 2 } } });
    const refused = await send(ours, "application/json", '{"stamps":0}');
    expect([refused.status, detailsOf(refused)]).toEqual([422, [{ in: "body", path: "stamps", message: expect.stringContaining(">=1") }]]);
    const notJson = (type: string) => [{ in: "header", path: "Content-Type", message: `must be application/json (optionally with "; charset=utf-8"), got ${type}` }];
    for (const [type, body] of [["text/plain", '{"stamps":2}'], ["application/json ; charset=utf-8", '{"stamps":2}'], [undefined, '{"stamps":2}']] as const) {
      const answer = await send(ours, type, body);
      expect([answer.status, detailsOf(answer)]).toEqual([422, notJson(type ?? "none")]);
    }
    for (const body of ["{", ""]) {
      const answer = await send(ours, "application/json", body);
      expect([answer.status, detailsOf(answer)]).toEqual([422, [{ in: "body", path: "(root)", message: "is not valid JSON" }]]);
    }
    const none = await send(ours, undefined, undefined);
    expect([none.status, detailsOf(none)]).toEqual([422, [{ in: "body", path: "stamps", message: "is required" }]]);
  });

  it("documents the body once, from its schema", () => {
    const doc = ours.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } });
    expect(Object.keys(doc.paths ?? {})).toEqual(["/award"]);
    expect(doc.paths!["/award"]!.post!.requestBody).toMatchObject({ required: true, content: { "application/json": { schema: { type: "object", required: ["stamps"] } } } });
  });
});
