/**
 * Issue 31: the typed client (`createClient`) demanded `query: {}` on routes whose query fields
 * are all optional (`customers.$get({ query: {} })`). Now such a part is optional, and a part
 * with a required field (a path's `param`) is still demanded. The types are checked by `tsc`
 * (`npm run typecheck` covers test/); the calls check that the answers are the ones typed.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { createClient, createSimulator, IN_PROCESS_ORIGIN } from "../../src/index.js";

describe("issue 31: the typed client takes no query where every query field is optional", () => {
  const sim = createSimulator({ customers: 3 });
  const client = createClient({ origin: IN_PROCESS_ORIGIN, apiKey: sim.apiKey, apiSecret: sim.apiSecret, fetch: sim.fetch });

  it("lists without arguments, or with a query", async () => {
    type ListArgs = Parameters<typeof client.rest_api.v1.customers.$get>;
    expectTypeOf<[]>().toExtend<ListArgs>();
    expectTypeOf<[{ query: { limit: string } }]>().toExtend<ListArgs>();
    const all = await client.rest_api.v1.customers.$get();
    const two = await client.rest_api.v1.customers.$get({ query: { limit: "2" } });
    expect([all.status, two.status]).toEqual([200, 200]);
    if (all.status === 200 && two.status === 200) expect([(await all.json()).data.length, (await two.json()).data.length]).toEqual([3, 2]);
  });

  it("a customer's activities with its id alone; the id is still demanded", async () => {
    const id = sim.engine.defaultShop().store.data.customers[0]!.id;
    expectTypeOf<[{ param: { id: string } }]>().toExtend<Parameters<(typeof client.rest_api.v1.customers)[":id"]["activities"]["$get"]>>();
    expectTypeOf<[]>().not.toExtend<Parameters<(typeof client.rest_api.v1.customers)[":id"]["activities"]["$get"]>>();
    const res = await client.rest_api.v1.customers[":id"].activities.$get({ param: { id } });
    expect(res.status).toBe(200);
  });
});
