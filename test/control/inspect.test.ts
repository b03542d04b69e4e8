/**
 * The control API's reads for the inspector: customers without the shop's secret (outside the
 * quota and the journal), the shop's upcoming time-based events, and the journal as HAR 1.2.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { createTestSim, NOW } from "../support/sim.js";

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, "+00:00");

async function setUp(rateLimit = 10) {
  const sim = createTestSim({ customers: 0, access: { rateLimit } });
  for (const [id, first, balance] of [["5550001", "Ada", 30], ["5550002", "Grace", 3], ["5550003", "Alan", 0]] as const) {
    const res = await sim.call("POST", "/__sim/customers", { body: { id, firstName: first, lastName: "Tester", email: `${first.toLowerCase()}@example.com`, stampBalance: balance } });
    expect(res.status).toBe(201);
  }
  return sim;
}

describe("customers without credentials", () => {
  it("a search by name, email or id, paged with nextAfter; outside the quota and the journal", async () => {
    const sim = await setUp();
    const page = await sim.call("GET", "/__sim/customers?q=a&limit=1", { auth: false });
    expect(page.status).toBe(200);
    expect([page.body.customers.map((c: { id: string }) => c.id), page.body.nextAfter]).toEqual([["5550001"], "5550001"]);
    const rest = await sim.call("GET", "/__sim/customers?q=a&after=5550001", { auth: false });
    expect([rest.body.customers.map((c: { id: string }) => c.id), rest.body.nextAfter]).toEqual([["5550002", "5550003"], null]);
    const byEmail = await sim.call("GET", "/__sim/customers?q=GRACE@", { auth: false });
    expect(byEmail.body.customers).toEqual([
      { id: "5550002", firstName: "Grace", lastName: "Tester", email: "grace@example.com", stampBalance: 3, cards: 0, stampsToNextReward: 2, stampsExpireAt: iso(NOW + 365 * DAY), state: "active" },
    ]);
    expect((await sim.call("GET", "/__sim/requests?limit=0")).body.count).toBe(0);
    // The quota's window opens with the first API request: the reads took nothing from it.
    expect((await sim.call("GET", "/shop")).headers.get("X-RateLimit-Remaining")).toBe("9");
  });

  it("one customer: codes grouped, a ledger page newest first, and what happens next", async () => {
    const sim = await setUp();
    for (let i = 0; i < 3; i++) expect((await sim.call("POST", "/customers/5550001/redemptions", { body: { reward_product_id: 101 } })).status).toBe(200);
    const codes = (await sim.call("GET", "/customers/5550001/reward-codes")).body.data as { id: string }[];
    await sim.call("POST", `/customers/5550001/reward-codes/${codes[0]!.id}/use`);
    await sim.call("POST", `/customers/5550001/reward-codes/${codes[1]!.id}/void`);
    await sim.call("POST", "/customers/5550001/activities", { body: { earn_rule_id: 203 } });
    const res = await sim.call("GET", "/__sim/customers/5550001?ledgerLimit=2", { auth: false });
    expect(res.status).toBe(200);
    const d = res.body;
    expect([d.customer.stampBalance, d.codeCount]).toEqual([30 - 15 + 5 + 1, 3]);
    expect([d.codes.available, d.codes.used, d.codes.voided].map((g: { id: string; cost: number }[]) => g.map((c) => [c.id, c.cost]))).toEqual([
      [[codes[2]!.id, 5]],
      [[codes[0]!.id, 5]],
      [[codes[1]!.id, 5]],
    ]);
    expect(d.ledger.items.map((a: { stampChange: number }) => a.stampChange)).toEqual([1, 5]);
    expect([d.ledger.pagination.count, d.ledger.pagination.hasNext]).toEqual([6, true]);
    const next = await sim.call("GET", `/__sim/customers/5550001?ledgerLimit=2&ledgerAfter=${encodeURIComponent(d.ledger.pagination.nextCursor)}`, { auth: false });
    expect(next.body.ledger.items.map((a: { stampChange: number }) => a.stampChange)).toEqual([-5, -5]);
    expect(d.upcoming).toEqual([
      { kind: "earnRuleReopens", at: iso(NOW + 7 * DAY), customerId: "5550001", earnRuleId: "203", detail: "earn rule 203 (Share us on Facebook) may award again (limit 1 per week)" },
      { kind: "expiry", at: iso(NOW + 365 * DAY), customerId: "5550001", stamps: 21, detail: "21 stamps of customer 5550001 expire" },
    ]);
  });

  it("an unknown customer is 404; a shop named by ?shop= by id or API key, and an unknown one is 422", async () => {
    const sim = await setUp();
    const missing = await sim.call("GET", "/__sim/customers/999", { auth: false });
    expect([missing.status, missing.body.error.code]).toEqual([404, "CUSTOMER_NOT_FOUND"]);
    const other = (await sim.call("POST", "/__sim/shops", { body: { customers: 2, seed: 5 } })).body;
    for (const shop of [other.id, other.apiKey]) expect((await sim.call("GET", `/__sim/customers?shop=${shop}`, { auth: false })).body.customers).toHaveLength(2);
    const bad = await sim.call("GET", "/__sim/customers?shop=nope", { auth: false });
    expect([bad.status, bad.body.error.details]).toEqual([422, [{ in: "query", path: "shop", message: "names no shop of this simulator by id or API key (see GET /__sim/shops)" }]]);
  });
});

describe("upcoming time-based events", () => {
  it("expiries, an earn-rule window reopening and the quota window's end, soonest first", async () => {
    const sim = await setUp();
    await sim.call("POST", "/customers/5550002/activities", { body: { earn_rule_id: 203 } });
    sim.clock.advance(DAY);
    const res = await sim.call("GET", "/__sim/clock/upcoming?limit=10", { auth: false });
    expect(res.body).toEqual({
      now: iso(NOW + DAY),
      frozen: true,
      events: [
        { kind: "earnRuleReopens", at: iso(NOW + 7 * DAY), customerId: "5550002", earnRuleId: "203", detail: "earn rule 203 (Share us on Facebook) may award again (limit 1 per week)" },
        { kind: "expiry", at: iso(NOW + 365 * DAY), customerId: "5550001", stamps: 30, detail: "30 stamps of customer 5550001 expire" },
        { kind: "expiry", at: iso(NOW + 365 * DAY), customerId: "5550002", stamps: 4, detail: "4 stamps of customer 5550002 expire" },
      ],
    });
    sim.clock.set(NOW + 1000);
    const soon = await sim.call("GET", "/__sim/clock/upcoming?limit=1", { auth: false });
    expect(soon.body.events).toEqual([{ kind: "quotaWindowEnds", at: iso(NOW + 3_600_000), detail: "the hourly quota of 10 requests starts again" }]);
  });
});

/** The HAR 1.2 spec's required fields (http://www.softwareishard.com/blog/har-12-spec/). */
const nameValue = { type: "object", required: ["name", "value"], properties: { name: { type: "string" }, value: { type: "string" } } };
const HAR_SCHEMA = {
  type: "object",
  required: ["log"],
  properties: {
    log: {
      type: "object",
      required: ["version", "creator", "entries"],
      properties: {
        version: { const: "1.2" },
        creator: { type: "object", required: ["name", "version"] },
        entries: {
          type: "array",
          items: {
            type: "object",
            required: ["startedDateTime", "time", "request", "response", "cache", "timings"],
            properties: {
              startedDateTime: { type: "string", format: "date-time" },
              time: { type: "number" },
              request: {
                type: "object",
                required: ["method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize"],
                properties: { headers: { type: "array", items: nameValue }, queryString: { type: "array", items: nameValue }, postData: { type: "object", required: ["mimeType", "text"] } },
              },
              response: {
                type: "object",
                required: ["status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL", "headersSize", "bodySize"],
                properties: { status: { type: "integer" }, headers: { type: "array", items: nameValue }, content: { type: "object", required: ["size", "mimeType"] } },
              },
              timings: { type: "object", required: ["send", "wait", "receive"], properties: { send: { type: "number" }, wait: { type: "number" }, receive: { type: "number" } } },
            },
          },
        },
      },
    },
  },
};

describe("HAR 1.2 export", () => {
  it("the filtered journal, oldest first, with bodies, headers and the simulator's own fields", async () => {
    const sim = await setUp();
    await sim.call("POST", "/customers/5550002/stamps/award", { body: { stamps: 2 } });
    await sim.call("GET", "/customers/5550002?x=1");
    await sim.call("GET", "/shop", { headers: { Prefer: "status=503" }, unchecked: true });
    const res = await sim.call("GET", "/__sim/requests.har?customerId=5550002", { auth: false });
    expect(res.status).toBe(200);
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    expect(ajv.validate(HAR_SCHEMA, res.body), ajv.errorsText()).toBe(true);
    const { log } = res.body;
    expect(log.creator.name).toBe("loyalty-sim");
    expect(log.entries.map((e: any) => [e.request.method, e.request.url, e.response.status, e._decidedBy])).toEqual([
      ["POST", "http://localhost/rest_api/v1/customers/5550002/stamps/award", 200, "handler"],
      ["GET", "http://localhost/rest_api/v1/customers/5550002?x=1", 200, "handler"],
    ]);
    const [award] = log.entries;
    expect(award.request.postData).toEqual({ mimeType: "application/json", text: '{"stamps":2}' });
    expect(award.request.headers).toContainEqual({ name: "x-api-secret", value: "***" });
    expect(JSON.parse(award.response.content.text).data).toEqual({ customerId: "5550002", stampChange: 2, stampBalance: 5 });
    expect(award.response.headers).toContainEqual({ name: "x-ratelimit-remaining", value: "9" });
  });
});

describe("the control client", () => {
  it("why, customers, upcoming and HAR through createSimulator's control", async () => {
    const { createSimulator } = await import("../../src/simulator/in-process.js");
    const sim = createSimulator({ customers: 0 });
    await sim.control.createCustomer({ id: "5550009", firstName: "Ada", lastName: "Tester", email: "ada@example.com", stampBalance: 7 });
    const res = await sim.fetch(`${sim.baseUrl}/customers/5550009/redemptions`, {
      method: "POST",
      headers: { "X-Api-Key": sim.apiKey, "X-Api-Secret": sim.apiSecret, "Content-Type": "application/json" },
      body: JSON.stringify({ reward_product_id: 103 }),
    });
    expect(res.status).toBe(422);
    const [entry] = await sim.control.requests({ limit: 1 });
    expect((await sim.control.why(entry!.id)).reason).toEqual({ kind: "insufficientStamps", customerId: "5550009", balance: 7, price: 10, rewardId: "103" });
    expect((await sim.control.findCustomers({ q: "ada" })).customers.map((c) => c.id)).toEqual(["5550009"]);
    expect((await sim.control.customer("5550009", { limit: 1 })).ledger.items.map((a) => a.stampChange)).toEqual([7]);
    expect((await sim.control.upcoming(5)).events.map((e) => e.kind)).toEqual(["quotaWindowEnds", "expiry"]);
    expect(((await sim.control.har()).log.entries as unknown[]).length).toBe(1);
  });
});
