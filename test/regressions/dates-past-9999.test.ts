/**
 * Regression (issue 35, item 10): stamps earned in 9999 made REST and GraphQL answer
 * `stampsExpireAt: "+010000-11-30T00:00:00+00:00"`, and so did a fixture activity dated
 * 9999-12-31. Every timestamp stays plain ISO 8601, derived ones too: an instant past the clock's
 * range (which ends at 9999-12-31T23:59:59) is written as that last second.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../src/engine/clock.js";
import { createSimulator } from "../../src/index.js";
import { defaultFixturePath } from "../../src/program/load.js";
import { graphqlSim } from "../graphql/graphql-sim.js";
import { NOW } from "../support/sim.js";

const LAST = "9999-12-31T23:59:59+00:00";
const dir = mkdtempSync(join(tmpdir(), "loyalty-sim-dates-past-9999-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A simulator whose clock the control API has moved to half an hour before the end of 9999. */
async function in9999() {
  const sim = graphqlSim({ customers: 0, access: { rateLimit: 10 } });
  expect((await sim.call("POST", "/__sim/clock", { body: { set: "9999-12-31T23:30:00Z" } })).body).toEqual({ now: "9999-12-31T23:30:00+00:00", frozen: true });
  const res = await sim.call("POST", "/__sim/customers", { body: { id: "5550001", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" } });
  expect(res.status).toBe(201);
  return sim;
}

describe("stamps earned in 9999", () => {
  it("REST: stampsExpireAt is the clock's last second, createdAt and the envelope as they are", async () => {
    const sim = await in9999();
    expect((await sim.call("POST", "/customers/5550001/stamps/award", { body: { stamps: 2 } })).status).toBe(200);
    const customer = await sim.call("GET", "/customers/5550001");
    expect([customer.body.data.stampsExpireAt, customer.body.timestamp]).toEqual([LAST, "9999-12-31T23:30:00+00:00"]);
    expect((await sim.call("GET", "/customers/5550001/activities?limit=1")).body.data[0].createdAt).toBe("9999-12-31T23:30:00+00:00");
  });

  it("GraphQL: stampsExpireAt is the clock's last second", async () => {
    const sim = await in9999();
    const award = await sim.gql('mutation { awardStamps(customerId: "5550001", stamps: 2) { stampBalance } }');
    expect(award.body).toEqual({ data: { awardStamps: { stampBalance: 2 } } });
    const res = await sim.gql('{ customer(id: "5550001") { stampsExpireAt } }');
    expect(res.body).toEqual({ data: { customer: { stampsExpireAt: LAST } } });
  });

  it("an earn rule that reopens in 10000 and a quota window that ends there: why and upcoming", async () => {
    const sim = await in9999();
    expect((await sim.call("POST", "/customers/5550001/activities", { body: { earn_rule_id: 204 } })).status).toBe(200);
    const again = await sim.call("POST", "/customers/5550001/activities", { body: { earn_rule_id: 204 } });
    expect([again.status, again.body.error.code]).toEqual([422, "ACTIVITY_NOT_AWARDED"]);
    const [entry] = (await sim.call("GET", "/__sim/requests?limit=1")).body.requests;
    const why = (await sim.call("GET", `/__sim/requests/${entry.id}/why`)).body;
    expect([why.reason.lastAwardAt, why.reason.nextAllowedAt, why.quota.windowEnd]).toEqual(["9999-12-31T23:30:00+00:00", LAST, LAST]);
    const upcoming = (await sim.call("GET", "/__sim/clock/upcoming?limit=10", { auth: false })).body.events;
    expect(upcoming.map((e: { kind: string; at: string }) => [e.kind, e.at])).toEqual([
      ["quotaWindowEnds", LAST],
      ["expiry", LAST],
      ["earnRuleReopens", LAST],
    ]);
  });
});

describe("a fixture activity dated 9999-12-31", () => {
  it("REST and GraphQL: stampsExpireAt is the clock's last second", async () => {
    const file = JSON.parse(readFileSync(defaultFixturePath(), "utf8"));
    file.customers = [{ id: "6000000000001", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", stampBalance: 4, activities: [{ label: "Welcome gift", stampChange: 4, createdAt: "9999-12-31T00:00:00+00:00" }] }];
    const path = join(dir, "fixture.json");
    writeFileSync(path, JSON.stringify(file));
    const sim = createSimulator({ fixtures: path, customers: 0, logLevel: "silent", newClock: () => fixedClock(NOW) });
    const headers = { "X-Api-Key": sim.apiKey, "X-Api-Secret": sim.apiSecret, "Content-Type": "application/json" };
    const rest = (await (await sim.fetch(`${sim.baseUrl}/customers/6000000000001`, { headers })).json()) as { data: { stampsExpireAt: string } };
    expect(rest.data.stampsExpireAt).toBe(LAST);
    const gql = await sim.fetch(sim.graphqlUrl, { method: "POST", headers, body: JSON.stringify({ query: '{ customer(id: "6000000000001") { stampsExpireAt } }' }) });
    expect(await gql.json()).toEqual({ data: { customer: { stampsExpireAt: LAST } } });
  });
});
