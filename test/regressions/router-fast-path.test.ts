/**
 * Every route stays within what hono's RegExpRouter takes: no path that two routes both match (a
 * static `/__sim/requests/count` beside `/__sim/requests/{id}` did). Otherwise hono's SmartRouter
 * falls back to its TrieRouter for every request, API included (measured: about 6.6k more
 * instructions a `GET /customers/{id}`).
 */
import { readFileSync } from "node:fs";
import { RegExpRouter } from "hono/router/reg-exp-router";
import { expect, it } from "vitest";

const document = JSON.parse(readFileSync(new URL("../../openapi/openapi.json", import.meta.url), "utf8")) as { paths: Record<string, Record<string, unknown>> };

it("the documented routes, as hono writes them, all fit one RegExpRouter", () => {
  const router = new RegExpRouter<string>();
  const routes = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => [method.toUpperCase(), path.replace(/\{([^}]+)\}/g, ":$1")] as const));
  expect(routes.length).toBeGreaterThan(30);
  for (const [method, path] of routes) router.add(method, path, `${method} ${path}`);
  // The router is built on its first match: a path it cannot take throws there.
  expect(router.match("GET", "/__sim/requests/7")[0].map(([name]) => name)).toEqual(["GET /__sim/requests/:id"]);
  expect(router.match("GET", "/rest_api/v1/customers/42")[0].map(([name]) => name)).toEqual(["GET /rest_api/v1/customers/:id"]);
});
