/**
 * The journal through the control API: what decided each answer, the headers each way (secrets
 * redacted), the filters and count of `GET /__sim/requests` and one entry by id, each shop seeing
 * only its own.
 */
import { describe, expect, it } from "vitest";
import { OPERATION_IDS } from "../../src/contract/index.js";
import { parseScenario } from "../../src/scenarios/load.js";
import { createTestSim, type CallResult } from "../support/sim.js";

const journal = async (sim: ReturnType<typeof createTestSim>, query = "", headers: Record<string, string> = {}) =>
  (await sim.call("GET", `/__sim/requests${query}`, { headers })).body.requests as Record<string, any>[];
const invalid = (res: CallResult) => {
  expect([res.status, res.body.error.code]).toEqual([422, "VALIDATION_ERROR"]);
  return res.body.error.details.map((d: { in: string; path: string; message: string }) => `${d.in} ${d.path}: ${d.message}`);
};

describe("decidedBy", () => {
  it.each<[string, string, (sim: ReturnType<typeof createTestSim>, id: string) => Promise<unknown>, number | null]>([
    ["the handler's answer", "handler", (sim, id) => sim.call("GET", `/customers/${id}`), 200],
    ["the handler's domain error", "handler", (sim) => sim.call("GET", "/customers/999"), 404],
    ["a path no route has", "handler", (sim) => sim.call("GET", "/nowhere", { unchecked: true }), 404],
    ["a scenario's error", "scenario", (sim) => sim.call("GET", "/tiers", { unchecked: true }), 500],
    ["a scenario's limiter refusing", "scenario", async (sim) => { await sim.call("GET", "/beacons"); return sim.call("GET", "/beacons"); }, 429],
    ["a scenario's fault", "scenario", (sim) => sim.call("GET", "/rewards", { unchecked: true }), null],
    ["a Prefer header", "prefer", (sim) => sim.call("GET", "/shop", { headers: { Prefer: "status=503" }, unchecked: true }), 503],
    ["a malformed Prefer header", "validation", (sim) => sim.call("GET", "/shop", { headers: { Prefer: "status=99" } }), 422],
    ["a body against the schema", "validation", (sim, id) => sim.call("POST", `/customers/${id}/stamps/award`, { body: { stamps: "two" } }), 422],
    ["a body that is not JSON", "validation", (sim, id) => sim.call("POST", `/customers/${id}/stamps/award`, { rawBody: "{", headers: { "Content-Type": "application/json" } }), 422],
    ["a body of another type", "validation", (sim, id) => sim.call("POST", `/customers/${id}/stamps/award`, { rawBody: "stamps=2", headers: { "Content-Type": "text/plain" } }), 422],
    ["a body nested too deeply", "validation", (sim, id) => sim.call("POST", `/customers/${id}/stamps/award`, { rawBody: `${"[".repeat(70)}${"]".repeat(70)}`, headers: { "Content-Type": "application/json" } }), 422],
    ["a body over the limit", "bodyLimit", (sim, id) => sim.call("POST", `/customers/${id}/stamps/award`, { rawBody: `{"comment":"${"x".repeat(1024 * 1024)}"}`, headers: { "Content-Type": "application/json" } }), 413],
    ["wrong credentials", "credentials", (sim) => sim.call("GET", "/shop", { headers: { "X-Api-Secret": "nope" } }), 401],
    ["the quota", "quota", async (sim) => { for (let i = 0; i < 5; i++) await sim.call("GET", "/program", { unchecked: true }); return sim.call("GET", "/shop"); }, 429],
  ])("%s: %s", async (_, decidedBy, send, status) => {
    const sim = createTestSim({
      customers: 3,
      access: { rateLimit: 5 },
      scenarios: [
        parseScenario(
          {
            name: "s",
            rules: [
              { match: { operation: "listTiers" }, respond: { error: "INTERNAL_ERROR" } },
              { name: "limit", match: { operation: "listBeacons" }, respond: { rateLimit: { limit: 1, windowSeconds: 60 } } },
              { match: { operation: "listRewards" }, respond: { fault: "empty_response" } },
            ],
          },
          "t",
        ),
      ],
    });
    await send(sim, sim.activeCustomer());
    const [entry] = await journal(sim, "?limit=1");
    expect([entry!.decidedBy, entry!.status]).toEqual([decidedBy, status]);
  });

  it("the free plan and disabled API access are the credentials' answers", async () => {
    for (const access of [{ plan: "free" as const }, { apiAccess: false }]) {
      const sim = createTestSim({ customers: 0, access });
      await sim.call("GET", "/shop");
      expect((await journal(sim)).map((e) => [e.status, e.decidedBy])).toEqual([[403, "credentials"]]);
    }
  });

  it("a rule that only delays leaves the answer to the handler, and names the rule", async () => {
    const sim = createTestSim({ customers: 0, scenarios: [parseScenario({ name: "slow", rules: [{ name: "a bit", respond: { delayMs: 1 } }] }, "t")] });
    await sim.call("GET", "/shop");
    expect((await journal(sim)).map((e) => [e.status, e.decidedBy, e.scenario])).toEqual([[200, "handler", { scenario: "slow", rule: 0, ruleName: "a bit" }]]);
  });
});

describe("headers", () => {
  it("keeps the request's, credentials redacted, and the response's the client got (Retry-After of the quota)", async () => {
    const sim = createTestSim({ customers: 0, access: { rateLimit: 1 } });
    const sent = { "Idempotency-Key": "award-77", Prefer: "delay=0", Authorization: "Bearer t0ken", Cookie: "sid=abc", "X-Request-Id": "mine-1" };
    await sim.call("GET", "/shop", { headers: sent });
    const limited = await sim.call("GET", "/shop", { headers: { "X-Request-Id": "mine-2" } });
    const [second, first] = await journal(sim);
    expect(first!.requestHeaders).toStrictEqual({
      authorization: "***",
      cookie: "***",
      "idempotency-key": "award-77",
      prefer: "delay=0",
      "x-api-key": "sim_key",
      "x-api-secret": "***",
      "x-request-id": "mine-1",
    });
    expect(first!.responseHeaders).toStrictEqual({
      "x-request-id": "mine-1",
      "idempotency-key": "award-77",
      "x-ratelimit-limit": "1",
      "x-ratelimit-remaining": "0",
      "content-type": "application/json",
    });
    expect(second!.responseHeaders).toStrictEqual({
      "x-request-id": "mine-2",
      "x-ratelimit-limit": "1",
      "x-ratelimit-remaining": "0",
      "retry-after": "3600",
      "content-type": "application/json",
    });
    expect(Object.fromEntries([...limited.headers].filter(([name]) => name !== "content-length"))).toStrictEqual(second!.responseHeaders);
    expect(JSON.stringify(await journal(sim))).not.toMatch(/sim_secret|t0ken|sid=abc/);
  });

  it("a scenario's raw answer keeps its own headers; a fault's entry has none", async () => {
    const rules = [
      { match: { operation: "listTiers" }, respond: { status: 503, headers: { "Retry-After": "120" } } },
      { match: { operation: "listBeacons" }, respond: { fault: "connection_reset" as const } },
    ];
    const sim = createTestSim({ customers: 0, scenarios: [parseScenario({ name: "raw", rules }, "t")] });
    await sim.call("GET", "/tiers", { unchecked: true });
    await sim.call("GET", "/beacons", { unchecked: true });
    expect((await journal(sim)).map((e) => [e.status, e.fault, e.responseHeaders])).toEqual([
      [null, "connection_reset", null],
      [503, null, { "retry-after": "120", "x-request-id": "req_000001", "x-ratelimit-limit": "1000", "x-ratelimit-remaining": "999" }],
    ]);
  });
});

describe("filters, count and one entry by id", () => {
  async function filled() {
    const sim = createTestSim({ customers: 5 });
    const [a, b] = sim.shop.store.data.customers.filter((c) => !c.excluded && !c.mergedIntoCustomerId).map((c) => c.id) as [string, string];
    const other = (await sim.call("POST", "/__sim/shops", { body: { customers: 0 } })).body;
    await sim.call("POST", `/customers/${a}/stamps/award`, { body: { stamps: 1, comment: "Morning coffee" } }); // 1
    await sim.call("POST", `/customers/${a}/stamps/award`, { body: { stamps: 2 }, headers: { "Idempotency-Key": "k-2" } }); // 2
    await sim.call("GET", `/customers/${b}`); // 3
    await sim.call("GET", "/shop", { headers: { "X-Api-Key": other.apiKey, "X-Api-Secret": other.apiSecret } }); // 4: the other shop's
    await sim.call("POST", `/customers/${b}/stamps/award`, { body: { stamps: 3 } }); // 5
    await sim.call("GET", "/customers/999?x=needle"); // 6
    await sim.call("GET", "/tiers", { auth: false }); // 7: unidentified
    return { sim, a, b, other };
  }
  const ids = async (sim: ReturnType<typeof createTestSim>, query: string, headers: Record<string, string> = {}) => (await journal(sim, `?${query}`, headers)).map((e) => e.id);
  const count = async (sim: ReturnType<typeof createTestSim>, query: string) => (await sim.call("GET", `/__sim/requests?${query}&limit=0`)).body;

  it("each filter, alone and together, in the list and its count", async () => {
    const { sim, a, b } = await filled();
    const cases: [string, number[]][] = [
      ["", [7, 6, 5, 3, 2, 1]],
      ["operation=awardStamps", [5, 2, 1]],
      [`operation=awardStamps&customerId=${a}`, [2, 1]],
      [`customerId=${b}`, [5, 3]],
      ["status=404", [6]],
      ["status=401", [7]],
      ["method=post", [5, 2, 1]],
      ["path=/customers/*", [6, 3]],
      ["after=2", [7, 6, 5, 3]],
      ["after=2&operation=awardStamps", [5]],
      ["after=7", []],
      ["q=MORNING%20COFFEE", [1]],
      ["q=k-2", [2]],
      ["q=needle", [6]],
      ["q=req_000006", [5]],
      ["q=nowhere%20at%20all", []],
    ];
    for (const [query, expected] of cases) {
      expect([query, await ids(sim, query)]).toEqual([query, expected]);
      expect([query, await count(sim, query)]).toEqual([query, { requests: [], count: expected.length }]);
    }
    const limited = (await sim.call("GET", "/__sim/requests?limit=2&operation=awardStamps")).body;
    expect([limited.requests.map((e: { id: number }) => e.id), limited.count]).toEqual([[5, 2], 3]);
  });

  it("another shop counts and reads only its own", async () => {
    const { sim, other } = await filled();
    expect(await ids(sim, "", { "X-Api-Key": other.apiKey })).toEqual([4]);
    expect((await sim.call("GET", "/__sim/requests?operation=getShop&limit=0", { headers: { "X-Api-Key": other.apiKey } })).body).toStrictEqual({ requests: [], count: 1 });
    expect((await sim.call("GET", "/__sim/requests?operation=getShop&limit=0")).body).toStrictEqual({ requests: [], count: 0 });
  });

  it("GET /__sim/requests/{id}: the entry as listed; 404 for another shop's or one gone; 422 for no id", async () => {
    const { sim, other } = await filled();
    const listed = await journal(sim);
    expect((await sim.call("GET", "/__sim/requests/2")).body).toStrictEqual(listed.find((e) => e.id === 2));
    expect((await sim.call("GET", "/__sim/requests/7")).body.decidedBy).toBe("credentials");
    expect((await sim.call("GET", "/__sim/requests/4", { headers: { "X-Api-Key": other.apiKey } })).body.shopId).toBe(other.id);
    const notFound = (res: CallResult) => [res.status, res.body.error.code, res.body.error.message];
    expect(notFound(await sim.call("GET", "/__sim/requests/4"))).toEqual([404, "NOT_FOUND", "No journal entry 4 for this shop (pushed out of the journal, cleared, or another shop's)"]);
    expect(notFound(await sim.call("GET", "/__sim/requests/2", { headers: { "X-Api-Key": other.apiKey } }))[0]).toBe(404);
    expect(notFound(await sim.call("GET", "/__sim/requests/8"))[0]).toBe(404);
    await sim.call("DELETE", "/__sim/requests");
    expect(notFound(await sim.call("GET", "/__sim/requests/2"))[0]).toBe(404);
    expect(invalid(await sim.call("GET", "/__sim/requests/two"))).toEqual(["path id: must be a whole number (digits only)"]);
  });

  it("refuses an unknown operation, a bad `after` and an empty `q`, naming each", async () => {
    const sim = createTestSim({ customers: 0 });
    expect(invalid(await sim.call("GET", "/__sim/requests?operation=awardStamp&after=-1&q="))).toEqual([
      `query operation: Invalid option: expected one of ${OPERATION_IDS.map((id) => `"${id}"`).join("|")}`,
      "query after: must be a whole number (digits only)",
      "query q: Too small: expected string to have >=1 characters",
    ]);
    expect(invalid(await sim.call("GET", "/__sim/requests?status=abc&limit=1.5"))).toEqual(["query status: must be a whole number (digits only)", "query limit: must be a whole number (digits only)"]);
    // Digits only, as the document's `integer` says: `1e3`, `0x10` and an empty value are not read as numbers.
    for (const limit of ["1e3", "0x10", "", "%207"]) expect(invalid(await sim.call("GET", `/__sim/requests?limit=${limit}`))).toEqual(["query limit: must be a whole number (digits only)"]);
  });
});
