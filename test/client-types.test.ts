/**
 * The typed client knows every documented answer: `res.status` is the union of the statuses the
 * OpenAPI document lists for the route, and narrowing on it (or on `success`) types the body.
 * The control client answers each route's success body, typed from the control schemas.
 * The `expectTypeOf` lines are checked by `tsc` (`npm run typecheck` covers test/); the calls
 * beside them check that the answers really are what the types say.
 */
import { readFileSync } from "node:fs";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  createClient,
  createSimulator,
  IN_PROCESS_ORIGIN,
  type ClockState,
  type Customer,
  type JournalEntry,
  type OperationId,
  type RequestFilter,
  type ScenarioSummary,
  type ShopInfo,
  type SimulatorHealth,
} from "../src/index.js";
import type { RequestsQuery } from "../src/control/control.schemas.js";

const document = JSON.parse(readFileSync(new URL("../openapi/openapi.json", import.meta.url), "utf8")) as {
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>>;
};
/**
 * The statuses the document lists for an operation, as numbers; and its ranges (`4XX`), the
 * answers only the `Prefer` header forces, which the client does not type (a test asks for them).
 */
const documented = (operationId: string) => {
  const operation = Object.values(document.paths).flatMap((path) => Object.values(path)).find((o) => o.operationId === operationId);
  const keys = Object.keys(operation!.responses!);
  return { statuses: keys.filter((k) => /^\d+$/.test(k)).map(Number).sort(), ranges: keys.filter((k) => !/^\d+$/.test(k)) };
};

type ErrorBody = {
  success: false;
  error: { message: string; code: string; statusCode: number; details?: { in: "body" | "query" | "path" | "header"; path: string; message: string }[] | undefined };
  timestamp: string;
};

function setup() {
  const sim = createSimulator({ customers: 2 });
  const client = createClient({ origin: IN_PROCESS_ORIGIN, apiKey: sim.apiKey, apiSecret: sim.apiSecret, fetch: sim.fetch });
  return { sim, client };
}

describe("createClient types every documented status", () => {
  const { client } = setup();
  type Answer<F extends (...args: never[]) => Promise<unknown>> = Awaited<ReturnType<F>>;
  type GetCustomer = Answer<typeof client.rest_api.v1.customers[":id"]["$get"]>;
  type RedeemReward = Answer<typeof client.rest_api.v1.customers[":id"]["redemptions"]["$post"]>;
  type ListCustomers = Answer<typeof client.rest_api.v1.customers["$get"]>;

  it.each([
    ["getCustomer", [200, 401, 403, 404, 413, 422, 429, 500]],
    ["redeemReward", [200, 401, 403, 404, 413, 422, 429, 500]],
    ["listCustomers", [200, 401, 403, 413, 422, 429, 500]],
  ])("%s: the type's statuses are the document's", (operationId, statuses) => {
    expect(documented(operationId)).toEqual({ statuses, ranges: ["2XX", "3XX", "4XX", "5XX"] });
  });

  it("res.status is the union of the documented statuses", () => {
    expectTypeOf<GetCustomer["status"]>().toEqualTypeOf<200 | 401 | 403 | 404 | 413 | 422 | 429 | 500>();
    expectTypeOf<RedeemReward["status"]>().toEqualTypeOf<200 | 401 | 403 | 404 | 413 | 422 | 429 | 500>();
    // No domain error of its own: no 404.
    expectTypeOf<ListCustomers["status"]>().toEqualTypeOf<200 | 401 | 403 | 413 | 422 | 429 | 500>();
  });

  it("an error status has the error envelope as its body, the 200 the success envelope", () => {
    type BodyOf<R, S> = R extends { status: S; json(): Promise<infer B> } ? B : never;
    expectTypeOf<BodyOf<RedeemReward, 422>>().toEqualTypeOf<ErrorBody>();
    expectTypeOf<BodyOf<GetCustomer, 404>>().toEqualTypeOf<ErrorBody>();
    expectTypeOf<BodyOf<RedeemReward, 200>>().toEqualTypeOf<{ success: true; data: { code: string; name: string; stampBalance: number }; timestamp: string }>();
  });
});

describe("narrowing on the answer", () => {
  it("on res.status: a 422 body has error.code, a 200 body has data", async () => {
    const { sim, client } = setup();
    const poor = await sim.control.createCustomer({ firstName: "Pat", lastName: "Poor", email: "pat@example.com", stampBalance: 3 });
    const res = await client.rest_api.v1.customers[":id"].redemptions.$post({ param: { id: poor.id }, json: { reward_product_id: 103 } });
    expect(res.status).toBe(422);
    if (res.status === 422) {
      const body = await res.json();
      expectTypeOf(body.error.code).toEqualTypeOf<string>();
      expect([body.success, body.error.code, body.error.statusCode]).toEqual([false, "INSUFFICIENT_STAMPS", 422]);
    }

    const rich = await sim.control.createCustomer({ firstName: "Ria", lastName: "Rich", email: "ria@example.com", stampBalance: 25 });
    const ok = await client.rest_api.v1.customers[":id"].redemptions.$post({ param: { id: rich.id }, json: { reward_product_id: 103 } });
    expect(ok.status).toBe(200);
    if (ok.status === 200) {
      const body = await ok.json();
      expect([body.data.name, body.data.stampBalance]).toEqual(["Free pastry", 15]);
    }
  });

  it("on success in the body, and on res.ok", async () => {
    const { client } = setup();
    const res = await client.rest_api.v1.customers[":id"].$get({ param: { id: "404404" } });
    const body = await res.json();
    if (body.success) {
      expectTypeOf(body.data.stampBalance).toEqualTypeOf<number>();
      throw new Error("expected the 404");
    }
    expect([res.status, body.error.code]).toEqual([404, "CUSTOMER_NOT_FOUND"]);
    if (!res.ok) expectTypeOf(res.status).toEqualTypeOf<401 | 403 | 404 | 413 | 422 | 429 | 500>();
  });
});

describe("the control client answers typed results", () => {
  it("scenarios, journal, clock, shops and customers come typed from the control schemas", async () => {
    const { sim } = setup();
    const { control } = sim;
    const summary = await control.addScenario({ name: "down", rules: [{ name: "once", match: { operation: "getShop" }, times: 1, respond: { error: "INTERNAL_ERROR" } }] });
    expectTypeOf(summary).toEqualTypeOf<ScenarioSummary>();
    expectTypeOf(summary.owner).toEqualTypeOf<"all shops" | "this shop">();
    expect(summary).toEqual({
      name: "down",
      owner: "this shop",
      rules: [{ index: 0, name: "once", match: { operation: "getShop" }, respond: { error: "INTERNAL_ERROR" }, hits: 0, matches: 0, remaining: 1, spent: false }],
    });
    expectTypeOf(control.scenarios).returns.resolves.toEqualTypeOf<ScenarioSummary[]>();

    await sim.fetch("/rest_api/v1/shop", { headers: { "X-Api-Key": sim.apiKey, "X-Api-Secret": sim.apiSecret } });
    const entries = await control.requests({ path: "/shop" });
    expectTypeOf(entries).toEqualTypeOf<JournalEntry[]>();
    expectTypeOf<JournalEntry["status"]>().toEqualTypeOf<number | null>();
    expectTypeOf<JournalEntry["scenario"]>().toEqualTypeOf<{ scenario: string; rule: number; ruleName?: string | undefined } | null>();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ method: "GET", path: "/rest_api/v1/shop", operation: "getShop", status: 500, scenario: { scenario: "down", rule: 0, ruleName: "once" } });
    expectTypeOf<JournalEntry["decidedBy"]>().toEqualTypeOf<"handler" | "scenario" | "prefer" | "quota" | "credentials" | "bodyLimit" | "validation">();
    expectTypeOf<JournalEntry["requestHeaders"]>().toEqualTypeOf<Record<string, string>>();
    expectTypeOf<JournalEntry["responseHeaders"]>().toEqualTypeOf<Record<string, string> | null>();
    expectTypeOf<JournalEntry["committed"]>().toEqualTypeOf<{ status: number; body: unknown } | null>();
    // The filter is typed on the journal's fields: an operation is one of the API's operationIds.
    expectTypeOf<RequestFilter["operation"]>().toEqualTypeOf<OperationId | undefined>();
    expectTypeOf<Required<RequestFilter>>().toEqualTypeOf<Required<RequestsQuery>>();
    // @ts-expect-error: not an operation of the API (refused at run time too)
    await expect(control.count({ operation: "awardStamp" })).rejects.toMatchObject({ status: 422, code: "VALIDATION_ERROR" });
    expectTypeOf(control.count).parameter(0).toEqualTypeOf<Omit<RequestFilter, "limit"> | undefined>();
    expect(await control.count({ operation: "getShop", status: 500 })).toBe(1);
    expectTypeOf(control.request).returns.resolves.toEqualTypeOf<JournalEntry>();
    expect(await control.request(entries[0]!.id)).toEqual(entries[0]);

    expectTypeOf(control.health).returns.resolves.toEqualTypeOf<SimulatorHealth>();
    expectTypeOf(control.clock).returns.resolves.toEqualTypeOf<ClockState>();
    expectTypeOf(control.setClock).returns.resolves.toEqualTypeOf<ClockState>();
    expectTypeOf(control.reset).returns.resolves.toEqualTypeOf<{ reset: true; shops: number }>();
    expectTypeOf(control.clearScenarios).returns.resolves.toEqualTypeOf<{ removed: number }>();
    expectTypeOf(control.clearRequests).returns.resolves.toEqualTypeOf<void>();
    expect(await control.setClock({ set: "2027-03-01T00:00:00Z", frozen: true })).toEqual({ now: "2027-03-01T00:00:00+00:00", frozen: true });

    const shop = await control.createShop({ customers: 1, seed: 3, rateLimit: "off" });
    expectTypeOf(shop).toEqualTypeOf<ShopInfo>();
    expectTypeOf(shop.rateLimit).toEqualTypeOf<number | null>();
    expect(shop).toMatchObject({ id: "2", apiKey: "sim_key_2", seed: 3, customers: 1, plan: "paid", apiAccess: true, rateLimit: null });
    expectTypeOf(control.shops).returns.resolves.toEqualTypeOf<ShopInfo[]>();
    expectTypeOf(control.deleteShop).parameters.toEqualTypeOf<[apiKey: string]>();
    expectTypeOf(control.deleteShop).returns.resolves.toEqualTypeOf<void>();

    const customer = await control.createCustomer({ firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", id: "77", stampBalance: 4 });
    expectTypeOf(customer).toEqualTypeOf<Customer>();
    expect(customer).toMatchObject({ id: "77", stampBalance: 4, state: "active" });
    expectTypeOf(control.mergeCustomer).returns.resolves.toEqualTypeOf<Customer>();
  });
});
