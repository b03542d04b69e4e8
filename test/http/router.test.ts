/**
 * createRouter (src/http/router.ts) skips zod's param validator for path parameters that are plain
 * strings (no segment can fail them) and hands the handler the router's own parameters; a
 * parameter with checks is still validated. Both are documented from their schemas.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../src/engine/clock.js";
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
