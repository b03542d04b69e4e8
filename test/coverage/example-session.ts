/** @module The session docs/coverage.md's example report comes from, on the default seed (test/coverage/formats.test.ts holds the two equal; test/docs-examples.test.ts checks its customer id exists). */
import { createSimulator } from "../../src/index.js";

export async function exampleSession() {
  const sim = createSimulator({ rateLimit: "off" });
  const json = { "X-Api-Key": sim.apiKey, "X-Api-Secret": sim.apiSecret, "Content-Type": "application/json" };
  const [a, b] = sim.engine.defaultShop().store.data.customers.filter((c) => !c.excluded && !c.mergedIntoCustomerId).map((c) => c.id);
  await sim.control.addScenario({ name: "lost", rules: [{ match: { operation: "awardStamps" }, times: 1, respond: { fault: "connection_reset", commit: true } }] });
  await sim.fetch(`${sim.baseUrl}/customers/${a}`, { headers: json });
  await sim.fetch(`${sim.baseUrl}/customers/999999`, { headers: json });
  await sim.fetch(`${sim.baseUrl}/customers/${a}/redemptions`, { method: "POST", headers: { ...json, Prefer: "error=INSUFFICIENT_STAMPS" }, body: JSON.stringify({ reward_product_id: 103 }) });
  await sim.fetch(sim.graphqlUrl, { method: "POST", headers: json, body: JSON.stringify({ query: "{ tiers { id } }" }) });
  const award = (id: string) => sim.fetch(`${sim.baseUrl}/customers/${b}/stamps/award`, { method: "POST", headers: { ...json, "X-Request-Id": id }, body: JSON.stringify({ stamps: 1 }) }).catch(() => undefined);
  await award("visit-1");
  await award("visit-1-retry");
  return sim.control.coverage();
}
