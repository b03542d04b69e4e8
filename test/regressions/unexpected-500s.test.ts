/**
 * Issue 26, case 10. Was: `/doc/assets/{constructor,__proto__,toString,...}` answered 500 (the
 * asset lookup found the names every object inherits), and the inspector answered 500 for a
 * `?shop=` (or a shop's API key in a path) holding `€`, NUL or a newline: the value went into the
 * X-Api-Key header of its in-process control call, which no header can carry. Now the first are
 * the 404 of any unknown route, the second a 422 naming the parameter, and nothing changes.
 */
import { describe, expect, it } from "vitest";
import { createTestSim, NOW_ISO } from "../support/sim.js";

const INHERITED = ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf", "propertyIsEnumerable", "toLocaleString"];

describe("issue 26, case 10: 500s for inherited names and values no header carries", () => {
  it.each(INHERITED)("GET /doc/assets/%s is the 404 of an unknown route", async (name) => {
    const sim = createTestSim({ customers: 1 });
    const res = await sim.app.request(`/doc/assets/${name}`);
    expect([res.status, await res.json()]).toEqual([404, { success: false, error: { message: `No route for GET /doc/assets/${name}`, code: "NOT_FOUND", statusCode: 404 }, timestamp: NOW_ISO }]);
  });

  it.each(INHERITED)("GET /graphql/assets/%s and the inspector's asset of that name are 404 too", async (name) => {
    const sim = createTestSim({ customers: 1 });
    for (const path of [`/graphql/assets/${name}`, `/__sim/ui/assets/${name}`]) {
      const res = await sim.app.request(path);
      expect([res.status, ((await res.json()) as { error: { code: string } }).error.code]).toEqual([404, "NOT_FOUND"]);
    }
  });

  // Values no HTTP header carries: beyond U+00FF, and control characters.
  const BAD = [
    ["€", "%E2%82%AC"],
    ["NUL", "%00"],
    ["a newline", "a%0Ab"],
    ["a carriage return", "a%0Db"],
  ] as const;
  const NO_SHOP = "names no shop of this simulator by id or API key (see GET /__sim/shops): it holds a character no HTTP header can carry";
  const refusal = (where: "query" | "path", path: string) => ({
    success: false,
    error: { message: "Request validation failed", code: "VALIDATION_ERROR", statusCode: 422, details: [{ in: where, path, message: NO_SHOP }] },
    timestamp: NOW_ISO,
  });

  const GETS = ["", "/requests", "/requests/rows", "/requests/1", "/errors", "/scenarios", "/scenarios/panel", "/clock", "/clock/panel", "/shops", "/customers", "/customers/1"];
  const POSTS = ["/clock", "/shops", "/shops/reset", "/shops/sim_key/reset", "/scenarios", "/scenarios/load", "/scenarios/x/delete"];

  it.each(BAD)("?shop= holding %s: every inspector page is 422 naming the query's shop", async (_, encoded) => {
    const sim = createTestSim({ customers: 1 });
    for (const path of GETS) {
      const res = await sim.app.request(`/__sim/ui${path}?shop=${encoded}`);
      expect([path, res.status, await res.json()]).toEqual([path, 422, refusal("query", "shop")]);
    }
  });

  it.each(BAD)("?shop= holding %s: every inspector form is 422 and changes nothing", async (_, encoded) => {
    const sim = createTestSim({ customers: 1 });
    const before = await state(sim);
    for (const path of POSTS) {
      const res = await sim.app.request(`/__sim/ui${path}?shop=${encoded}`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "advanceSeconds=60&customers=1&yaml=name%3A%20x" });
      expect([path, res.status, await res.json()]).toEqual([path, 422, refusal("query", "shop")]);
    }
    expect(await state(sim)).toStrictEqual(before);
  });

  it.each(BAD)("a shop's API key in the path holding %s: reset is 422 naming it, and changes nothing", async (_, encoded) => {
    const sim = createTestSim({ customers: 1 });
    expect((await sim.call("POST", "/__sim/customers", { body: { id: "5550001", firstName: "Ada", lastName: "L", email: "a@example.com" } })).status).toBe(201);
    const before = await state(sim);
    const res = await sim.app.request(`/__sim/ui/shops/${encoded}/reset`, { method: "POST" });
    expect([res.status, await res.json()]).toEqual([422, refusal("path", "id")]);
    expect(await state(sim)).toStrictEqual(before);
  });

  it("a page or path value a header can carry still works: Latin-1 names no shop, shown on the page", async () => {
    const sim = createTestSim({ customers: 1 });
    const page = await sim.app.request("/__sim/ui/customers?shop=caf%C3%A9");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<li><code>query shop</code>: names no shop of this simulator by id or API key (see GET /__sim/shops)</li>");
    const reset = await sim.app.request("/__sim/ui/shops/caf%C3%A9/reset", { method: "POST", headers: { "HX-Request": "true" } });
    expect(reset.status).toBe(200);
    expect(await reset.text()).toContain("<li><code>header X-Api-Key</code>: names no shop of this simulator (see GET /__sim/shops)</li>");
  });
});

/** What a refused form must leave as it was. */
async function state(sim: ReturnType<typeof createTestSim>) {
  const get = async (path: string) => (await sim.app.request(path)).json();
  return { clock: await get("/__sim/clock"), shops: await get("/__sim/shops"), scenarios: await get("/__sim/scenarios"), customers: await get("/__sim/customers?limit=100") };
}
