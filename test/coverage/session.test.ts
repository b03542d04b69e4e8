/**
 * The coverage of a scripted session, to the exact count: REST and GraphQL, natural and forced
 * outcomes, faults, 401s of a shop's key and of no shop's, an award whose answer was lost after
 * it committed, its naive retry (a duplicate write), a retry with an Idempotency-Key (listed,
 * saying so) and a new award with another body (not listed).
 */
import { describe, expect, it } from "vitest";
import { createSimulator } from "../../src/index.js";
import { metCells } from "./cells.js";

/** A scripted session against one in-process simulator; answers what each step needs later. */
async function scriptedSession() {
  const sim = createSimulator({ customers: 5, seed: 3, rateLimit: "off" });
  const auth = { "X-Api-Key": sim.apiKey, "X-Api-Secret": sim.apiSecret };
  const json = { ...auth, "Content-Type": "application/json" };
  const [a, b] = sim.engine.defaultShop().store.data.customers.filter((c) => !c.excluded && !c.mergedIntoCustomerId).map((c) => c.id);
  const rest = (path: string, init: RequestInit = {}) => sim.fetch(`${sim.baseUrl}${path}`, { headers: auth, ...init });
  const gql = (query: string, headers: Record<string, string> = {}) => sim.fetch(sim.graphqlUrl, { method: "POST", headers: { ...json, ...headers }, body: JSON.stringify({ query }) });
  // GraphQL answers, read freely: the counts are what is checked.
  const answer = async (res: Promise<Response>) => (await (await res).json()) as any;
  const award = (customer: string, body: unknown, headers: Record<string, string> = {}) =>
    rest(`/customers/${customer}/stamps/award`, { method: "POST", headers: { ...json, ...headers }, body: JSON.stringify(body) }).then(
      (res) => ({ status: res.status, id: res.headers.get("X-Request-Id") }),
      (error: Error) => ({ status: null, id: null, error: (error.cause as { code?: string }).code }),
    );

  await sim.control.addScenario({
    name: "session",
    rules: [
      { match: { operation: "awardStamps", customerId: b! }, times: 1, respond: { fault: "connection_reset", commit: true } },
      { match: { operation: "listTiers", api: "rest" }, respond: { fault: "malformed_json" } },
      { match: { operation: "listRewards" }, respond: { fault: "empty_response" } },
    ],
  });
  // REST, natural.
  expect((await rest(`/customers/${a}`)).status).toBe(200);
  expect((await rest(`/customers/${a}`)).status).toBe(200);
  expect((await rest("/customers/999999")).status).toBe(404);
  expect((await rest("/shop", { headers: { ...auth, "X-Api-Secret": "wrong" } })).status).toBe(401);
  expect((await rest("/shop", { headers: { "X-Api-Key": "nobody", "X-Api-Secret": "x" } })).status).toBe(401);
  expect((await award(a!, { stamps: "two" })).status).toBe(422);
  expect((await award(a!, { stamps: 2 })).status).toBe(200);
  // REST, forced.
  expect((await rest(`/customers/${a}`, { headers: { ...auth, Prefer: "error=RATE_LIMITED" } })).status).toBe(429);
  expect((await rest(`/customers/${a}`, { headers: { ...auth, Prefer: "error=INTERNAL_ERROR" } })).status).toBe(500);
  expect((await rest("/tiers")).status).toBe(200); // the cut-off JSON, as a 200
  await expect(rest("/rewards")).rejects.toThrow("fetch failed");
  // A rule's raw status is no outcome of the catalogue: counted nowhere.
  expect((await rest("/shop", { headers: { ...auth, Prefer: "status=503" } })).status).toBe(503);
  // GraphQL: one root field each, natural and forced; a document that does not parse counts nowhere.
  expect((await answer(gql(`{ customer(id: "${a}") { id } }`))).data.customer.id).toBe(a);
  expect((await answer(gql('{ customer(id: "999999") { id } }'))).errors[0].message).toBe("CUSTOMER_NOT_FOUND");
  expect((await answer(gql(`{ customer(id: "${a}") { id } }`, { Prefer: "error=CUSTOMER_NOT_FOUND" }))).errors[0].message).toBe("CUSTOMER_NOT_FOUND");
  expect((await answer(gql("{ tiers { id } }"))).data.tiers.length).toBeGreaterThan(0);
  expect((await gql("{ customer(")).status).toBe(200);
  expect((await answer(gql(`mutation { awardStamps(customerId: "${a}", stamps: 1) { stampChange } }`))).data.awardStamps.stampChange).toBe(1);
  // The award whose answer is lost after it committed, the naive retry, a retry with an Idempotency-Key, a new award.
  // The naive retry's body has its keys in another order: the same JSON all the same.
  const lost = await award(b!, { stamps: 1, comment: "visit" }, { "X-Request-Id": "visit-try-1" });
  const naive = await award(b!, { comment: "visit", stamps: 1 }, { "X-Request-Id": "visit-try-2" });
  const keyed = await award(b!, { stamps: 1, comment: "visit" }, { "X-Request-Id": "visit-try-3", "Idempotency-Key": "visit-1" });
  const other = await award(b!, { stamps: 3, comment: "visit" }, { "X-Request-Id": "visit-2" });
  return { sim, a: a!, b: b!, lost, naive, keyed, other };
}

describe("issue 29: the coverage of a scripted session", () => {
  it("counts each request once in its cell, and lists the repeats of the lost award", async () => {
    const { sim, a, b, lost, naive, keyed, other } = await scriptedSession();
    expect(lost).toEqual({ status: null, id: null, error: "ECONNRESET" });
    expect([naive.status, keyed.status, other.status]).toEqual([200, 200, 200]);
    const report = await sim.control.coverage();
    expect(metCells(report)).toEqual([
      ["getCustomer", "ok", 3, 0, 2, 1],
      ["getCustomer", "CUSTOMER_NOT_FOUND", 3, 1, 1, 2],
      ["getCustomer", "RATE_LIMITED", 1, 1, 1, 0],
      ["getCustomer", "INTERNAL_ERROR", 1, 1, 1, 0],
      ["awardStamps", "ok", 5, 0, 4, 1],
      ["awardStamps", "VALIDATION_ERROR", 1, 0, 1, 0],
      ["awardStamps", "lostAfterCommit", 1, 1, 1, 0],
      ["listTiers", "ok", 1, 0, 0, 1],
      ["listTiers", "fault:malformed_json", 1, 1, 1, 0],
      ["getShop", "UNAUTHORIZED", 1, 0, 1, 0],
      ["listRewards", "fault:empty_response", 1, 1, 1, 0],
    ]);
    expect(report.summary).toEqual({ cells: 224, covered: 11, percent: 4.9 });
    expect(report.operations.awardStamps!.missing).toEqual([
      "UNAUTHORIZED", "CUSTOMER_NOT_FOUND", "ACTIVITY_NOT_AWARDED", "RATE_LIMITED", "INTERNAL_ERROR",
      "fault:connection_reset", "fault:empty_response", "fault:malformed_json", "fault:timeout",
    ]);
    // The retries are listed with the lost award's request id (the client's own here); the new award is not.
    expect(report.duplicateWrites).toEqual([
      { operation: "awardStamps", customerId: b, first: "visit-try-1", repeat: "visit-try-2", idempotencyKey: false },
      { operation: "awardStamps", customerId: b, first: "visit-try-1", repeat: "visit-try-3", idempotencyKey: true },
    ]);
    expect([naive.id, keyed.id, other.id]).toEqual(["visit-try-2", "visit-try-3", "visit-2"]);
    expect(a).not.toBe(b);
  });
});
