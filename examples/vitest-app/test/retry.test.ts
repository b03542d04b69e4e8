/**
 * The award is saved, then its response lost: the case where a retry awards twice. A scenario
 * rule with `commit: true` lets the handler commit and then resets the connection.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { createSimulator } from "loyalty-sim";
import { loyalty } from "../src/loyalty.js";

const sim = createSimulator({ customers: 0 });
const app = loyalty({ apiKey: sim.apiKey, apiSecret: sim.apiSecret });
let customerId: string;

beforeAll(() => void sim.intercept()); // the app calls production; this process's calls are answered here
afterAll(() => sim.restore());
beforeEach(async () => {
  await sim.control.reset();
  ({ id: customerId } = await sim.control.createCustomer({ firstName: "Alan", lastName: "Turing", email: "alan@example.com" }));
  await sim.control.addScenario({
    name: "lost-response",
    rules: [{ match: { operation: "awardStamps" }, times: 1, respond: { fault: "connection_reset", commit: true } }],
  });
});

it("catches the naive retry's double award: two awards saved for one visit", async () => {
  expect(await app.rewardVisit(customerId, 2)).toBe(4);
  expect(await sim.control.count({ operation: "awardStamps", customerId })).toBe(2);
  const [retry, first] = await sim.control.requests({ operation: "awardStamps", customerId });
  expect(first).toMatchObject({ status: null, fault: "connection_reset", decidedBy: "scenario", committed: { status: 200 } });
  expect(retry).toMatchObject({ status: 200, fault: null, decidedBy: "handler", committed: null });
  // Nothing in the retry tells it apart from a new visit.
  expect(retry!.requestHeaders["idempotency-key"]).toBeUndefined();
});

it("the checked retry finds the saved award in the activities and awards once", async () => {
  expect(await app.rewardVisitOnce(customerId, "visit-1", 2)).toBe(2);
  expect(await sim.control.count({ operation: "awardStamps", customerId })).toBe(1);
  expect(await sim.control.count({ operation: "listActivities", customerId })).toBe(1);
  expect(await app.balance(customerId)).toBe(2);
});
