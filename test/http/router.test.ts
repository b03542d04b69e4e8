/**
 * createRouter (src/http/router.ts) skips zod's param validator for path parameters that are plain
 * strings (no segment can fail them) and hands the handler the router's own parameters; a
 * parameter with checks is still validated. Both are documented from their schemas. A required
 * JSON body is parsed in one step, with the outcomes of @hono/zod-openapi's own validators.
 */
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import fc from "fast-check";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../src/engine/clock.js";
import type { AppEnv } from "../../src/http/env.js";
import { sendError, validationError } from "../../src/http/errors.js";
import { createRouter } from "../../src/http/router.js";

function app() {
  const router = createRouter();
  router.use(async (c, next) => {
    c.set("clock", fixedClock(0));
    await next();
  });
  const ok = { 200: { description: "ok" } };
  return router
    .openapi(
      createRoute({ method: "get", path: "/plain/{id}", operationId: "plain", request: { params: z.object({ id: z.string() }) }, responses: ok }),
      (c) => c.json({ id: c.req.valid("param").id }, 200),
    )
    .openapi(
      createRoute({ method: "get", path: "/digits/{id}", operationId: "digits", request: { params: z.object({ id: z.string().regex(/^\d+$/) }) }, responses: ok }),
      (c) => c.json({ id: c.req.valid("param").id }, 200),
    );
}

describe("createRouter's path parameters", () => {
  it("hands a plain string parameter to the handler, decoded as the router decodes it", async () => {
    const res = await app().request("/plain/a%20b");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: "a b" });
  });

  it("still validates a parameter with checks: a 422 naming the path field, else the value", async () => {
    const refused = await app().request("/digits/abc");
    expect(refused.status).toBe(422);
    const body = (await refused.json()) as { error: { code: string; details: { in: string; path: string }[] } };
    expect(body.error.code).toBe("VALIDATION_ERROR");
    expect(body.error.details).toEqual([expect.objectContaining({ in: "path", path: "id" })]);
    const res = await app().request("/digits/42");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: "42" });
  });

  it("documents both, each once, with its path parameter", () => {
    const doc = app().getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } });
    expect(Object.keys(doc.paths ?? {})).toEqual(["/plain/{id}", "/digits/{id}"]);
    for (const path of ["/plain/{id}", "/digits/{id}"]) {
      expect(doc.paths![path]!.get!.parameters).toEqual([expect.objectContaining({ name: "id", in: "path", required: true })]);
    }
    expect(doc.paths!["/digits/{id}"]!.get!.parameters![0]).toMatchObject({ schema: { type: "string", pattern: "^\\d+$" } });
  });
});

describe("createRouter's required JSON bodies", () => {
  const Body = z.object({ stamps: z.int().min(1), comment: z.string().max(5).optional() });
  const route = createRoute({
    method: "post",
    path: "/award",
    request: { body: { required: true, content: { "application/json": { schema: Body } } } },
    responses: { 200: { description: "ok" } },
  });
  /** Both routers answer alike: the parsed body, a validation failure's details, or the status hono threw. */
  const answering = <R extends OpenAPIHono<AppEnv>>(router: R) => {
    router.use(async (c, next) => {
      c.set("clock", fixedClock(0));
      await next();
    });
    router.onError((error, c) => c.json({ thrown: error instanceof HTTPException ? error.status : String(error) }, 500));
    return router.openapi(route, (c) => c.json({ body: c.req.valid("json") }, 200));
  };
  const ours = answering(createRouter());
  // @hono/zod-openapi's own validators, with the hook createRouter gives every route.
  const reference = answering(
    new OpenAPIHono<AppEnv>({
      defaultHook: (result, c: Context<AppEnv>) => (result.success ? undefined : sendError(c, validationError(result.error, "body"))),
    }),
  );

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

  it("covers each outcome: parsed, refused by zod, not JSON (415), malformed (400), no body at all", async () => {
    expect(await send(ours, "application/json; charset=utf-8", '{"stamps":2,"extra":1}')).toEqual({ status: 200, body: { body: { stamps: 2 } } });
    const refused = await send(ours, "application/json", '{"stamps":0}');
    expect(refused.status).toBe(422);
    expect((refused.body as { error: { details: unknown } }).error.details).toEqual([{ in: "body", path: "stamps", message: expect.stringContaining(">=1") }]);
    expect(await send(ours, "text/plain", '{"stamps":2}')).toEqual({ status: 500, body: { thrown: 415 } });
    expect(await send(ours, "application/json ; charset=utf-8", '{"stamps":2}')).toEqual({ status: 500, body: { thrown: 415 } });
    expect(await send(ours, undefined, '{"stamps":2}')).toEqual({ status: 500, body: { thrown: 415 } });
    expect(await send(ours, "application/json", "{")).toEqual({ status: 500, body: { thrown: 400 } });
    expect(await send(ours, "application/json", "")).toEqual({ status: 500, body: { thrown: 400 } });
    const none = await send(ours, undefined, undefined);
    expect(none.status).toBe(422);
    expect((none.body as { error: { details: unknown } }).error.details).toEqual([{ in: "body", path: "stamps", message: "is required" }]);
  });

  it("documents the body once, from its schema", () => {
    const doc = ours.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } });
    expect(Object.keys(doc.paths ?? {})).toEqual(["/award"]);
    expect(doc.paths!["/award"]!.post!.requestBody).toMatchObject({ required: true, content: { "application/json": { schema: { type: "object", required: ["stamps"] } } } });
  });
});
