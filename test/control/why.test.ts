/**
 * `GET /__sim/requests/{id}/why`: the chain that decided an answer, down to the engine's own
 * reason for a refusal, and each scenario rule's verdict.
 */
import { describe, expect, it } from "vitest";
import { parseScenario } from "../../src/scenarios/load.js";
import { createTestSim, NOW } from "../support/sim.js";

const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "+00:00").replace(/\.(\d{3})Z$/, ".$1+00:00");

async function newCustomer(sim: ReturnType<typeof createTestSim>, id: string, stampBalance: number) {
  const res = await sim.call("POST", "/__sim/customers", { body: { id, firstName: "Ada", lastName: "Lovelace", email: `${id}@example.com`, stampBalance } });
  expect(res.status).toBe(201);
}

async function lastWhy(sim: ReturnType<typeof createTestSim>) {
  const [entry] = (await sim.call("GET", "/__sim/requests?limit=1")).body.requests;
  const res = await sim.call("GET", `/__sim/requests/${entry.id}/why`);
  expect(res.status).toBe(200);
  return res.body;
}

describe("the engine's reason", () => {
  it("INSUFFICIENT_STAMPS names the balance and the price", async () => {
    const sim = createTestSim({ customers: 0, access: { rateLimit: 100 } });
    await newCustomer(sim, "5550001", 7);
    const res = await sim.call("POST", "/customers/5550001/redemptions", { body: { reward_product_id: 103 } });
    expect([res.status, res.body.error.code]).toEqual([422, "INSUFFICIENT_STAMPS"]);
    const why = await lastWhy(sim);
    expect(why.reason).toEqual({ kind: "insufficientStamps", customerId: "5550001", balance: 7, price: 10, rewardId: "103" });
    expect(why.summary).toBe("422: the handler refused with INSUFFICIENT_STAMPS (balance 7, price 10)");
    expect(why.credentials).toEqual({ outcome: "passed", shopId: "1", detail: "X-Api-Key and X-Api-Secret name shop 1" });
    // The window opened with this shop's first API request, at NOW.
    expect(why.quota).toEqual({ outcome: "passed", limit: 100, remaining: 99, windowEnd: iso(NOW + 3_600_000), detail: "99 of 100 left in the window after this request" });
    expect(why.prefer).toEqual({ outcome: "absent", header: null, forced: null, detail: "no Prefer header" });
    expect(why.handler).toEqual({ outcome: "refused", status: 422, code: "INSUFFICIENT_STAMPS", detail: "Customer 5550001 has 7 stamps; Free pastry costs 10" });
  });

  it("an earn rule's window: limit, period, last award and when it reopens", async () => {
    const sim = createTestSim({ customers: 0 });
    await newCustomer(sim, "5550002", 0);
    await sim.call("POST", "/customers/5550002/activities", { body: { earn_rule_id: 203 } });
    sim.clock.advance(3_600_000);
    const res = await sim.call("POST", "/customers/5550002/activities", { body: { earn_rule_id: 203 } });
    expect([res.status, res.body.error.code]).toEqual([422, "ACTIVITY_NOT_AWARDED"]);
    expect((await lastWhy(sim)).reason).toEqual({
      kind: "earnRuleLimit",
      customerId: "5550002",
      earnRuleId: "203",
      limit: 1,
      period: "week",
      awardsInWindow: 1,
      lastAwardAt: iso(NOW),
      nextAllowedAt: iso(NOW + 7 * 86_400_000),
    });
  });

  it("a merged customer's state, and a void of a used code", async () => {
    const sim = createTestSim({ customers: 0 });
    await newCustomer(sim, "5550003", 20);
    await newCustomer(sim, "5550004", 0);
    const redeemed = await sim.call("POST", "/customers/5550003/redemptions", { body: { reward_product_id: 103 } });
    expect(redeemed.status).toBe(200);
    const [code] = (await sim.call("GET", "/customers/5550003/reward-codes")).body.data;
    await sim.call("POST", `/customers/5550003/reward-codes/${code.id}/use`);
    await sim.call("POST", `/customers/5550003/reward-codes/${code.id}/void`);
    expect((await lastWhy(sim)).reason).toEqual({ kind: "codeNotVoidable", codeId: code.id, used: true, voided: false });
    await sim.call("POST", "/__sim/customers/5550003/merge", { body: { into: "5550004" } });
    await sim.call("POST", "/customers/5550003/stamps/award", { body: { stamps: 1 } });
    expect((await lastWhy(sim)).reason).toEqual({ kind: "customerMerged", customerId: "5550003", mergedIntoCustomerId: "5550004" });
  });
});

describe("scenario rules, in order", () => {
  it("names the first match field that ruled each rule out, the condition that skipped one, and the rule that answered", async () => {
    const sim = createTestSim({
      customers: 0,
      scenarios: [
        parseScenario(
          {
            name: "s",
            rules: [
              { name: "other op", match: { operation: "listTiers" }, respond: { error: "INTERNAL_ERROR" } },
              { name: "header", match: { operation: "getShop", headers: { "X-Test": "a" } }, respond: { status: 503 } },
              { name: "after one", match: { operation: "getShop" }, after: 1, respond: { status: 502 } },
              { name: "answers", match: { operation: "getShop" }, respond: { status: 500 } },
              { name: "later", match: { operation: "getShop" }, respond: { status: 504 } },
            ],
          },
          "t",
        ),
      ],
    });
    await sim.call("GET", "/shop", { headers: { "X-Test": "b" }, unchecked: true });
    const why = await lastWhy(sim);
    expect(why.scenarios.rules).toEqual([
      { scenario: "s", rule: 0, ruleName: "other op", outcome: "mismatch", field: "operation", detail: 'operation must be "listTiers"; the request\'s is "getShop"' },
      { scenario: "s", rule: 1, ruleName: "header", outcome: "mismatch", field: "headers", detail: 'headers.X-Test must be "a"; the request has "b"' },
      { scenario: "s", rule: 2, ruleName: "after one", outcome: "after", detail: "matched, but after: 1 skips the first 1 matches; this was match 1" },
      { scenario: "s", rule: 3, ruleName: "answers", outcome: "decided", detail: "matched and answered" },
      { scenario: "s", rule: 4, ruleName: "later", outcome: "notReached", detail: "an earlier rule applied" },
    ]);
    expect([why.decidedBy, why.status, why.summary]).toEqual(["scenario", 500, '500: scenario "s" rule 3 answered']);
    expect(why.handler.outcome).toBe("notReached");
  });

  it("a spent rule and a lost probability draw are named with their numbers", async () => {
    const sim = createTestSim({
      customers: 0,
      seed: 3,
      scenarios: [
        parseScenario(
          {
            name: "p",
            rules: [
              { match: { operation: "getShop" }, times: 1, respond: { status: 503 } },
              { match: { operation: "getShop" }, probability: 0, respond: { status: 502 } },
            ],
          },
          "t",
        ),
      ],
    });
    await sim.call("GET", "/shop", { unchecked: true });
    await sim.call("GET", "/shop");
    const [spent, draw] = (await lastWhy(sim)).scenarios.rules;
    expect(spent).toEqual({ scenario: "p", rule: 0, outcome: "spent", detail: "matched, but its times: 1 were spent" });
    expect(draw.outcome).toBe("probability");
    expect(draw.detail).toMatch(/^matched, but the probability draw 0\.\d+ was not below 0$/);
  });
});

describe("the steps before the handler", () => {
  it("wrong credentials: which shop the key names and why it was refused; nothing later is reached", async () => {
    const sim = createTestSim({ customers: 0 });
    await sim.call("GET", "/shop", { headers: { "X-Api-Secret": "nope" } });
    const why = await lastWhy(sim);
    expect(why.credentials).toEqual({ outcome: "refused", shopId: null, detail: "X-Api-Key names shop 1, but X-Api-Secret was not its secret" });
    expect([why.quota.outcome, why.bodyCheck.outcome, why.prefer.outcome, why.validation.outcome, why.handler.outcome]).toEqual(["notReached", "notReached", "notReached", "notReached", "notReached"]);
  });

  it("the quota: its limit, nothing left, and when the window ends", async () => {
    const sim = createTestSim({ customers: 0, access: { rateLimit: 1 } });
    await sim.call("GET", "/shop");
    sim.clock.advance(60_000);
    await sim.call("GET", "/shop");
    const why = await lastWhy(sim);
    expect(why.quota).toEqual({ outcome: "refused", limit: 1, remaining: 0, windowEnd: iso(NOW + 3_600_000), detail: `all 1 requests of the window were used; it ends at ${iso(NOW + 3_600_000)}` });
    expect(why.summary).toBe("429: the hourly quota of 1 was used up");
  });

  it("a Prefer header, parsed; a malformed one, with the reason", async () => {
    const sim = createTestSim({ customers: 0 });
    await sim.call("GET", "/shop", { headers: { Prefer: "status=503" }, unchecked: true });
    expect((await lastWhy(sim)).prefer).toEqual({ outcome: "applied", header: "status=503", forced: { status: 503 }, detail: 'forced {"status":503}' });
    await sim.call("GET", "/shop", { headers: { Prefer: "status=99" } });
    const why = await lastWhy(sim);
    expect(why.prefer.outcome).toBe("invalid");
    expect(why.prefer.detail).toBe("status=99: must be an HTTP status from 200 to 599 (a 1xx status is not a final answer)");
    expect(why.scenarios.rules).toEqual([]);
  });

  it("a body against the schema: validation refused, the handler not reached", async () => {
    const sim = createTestSim({ customers: 0 });
    await newCustomer(sim, "5550005", 0);
    await sim.call("POST", "/customers/5550005/stamps/award", { body: { stamps: "two" } });
    const why = await lastWhy(sim);
    expect(why.validation.outcome).toBe("refused");
    expect(why.validation.detail).toMatch(/^body stamps: /);
    expect(why.handler.outcome).toBe("notReached");
  });

  it("an entry of another shop, or none, is 404", async () => {
    const sim = createTestSim({ customers: 0 });
    const res = await sim.call("GET", "/__sim/requests/99/why");
    expect([res.status, res.body.error.code]).toEqual([404, "NOT_FOUND"]);
  });
});
