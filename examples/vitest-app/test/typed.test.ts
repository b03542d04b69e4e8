/** The typed client: each documented status of a route narrows its body (tsc checks this file). */
import { expect, it } from "vitest";
import { createClient, createSimulator, IN_PROCESS_ORIGIN } from "loyalty-sim";

const sim = createSimulator({ customers: 0 });
const api = createClient({ origin: IN_PROCESS_ORIGIN, apiKey: sim.apiKey, apiSecret: sim.apiSecret, fetch: sim.fetch });

it("a redemption without enough stamps is a 422 whose body is the error envelope", async () => {
  const { id } = await sim.control.createCustomer({ firstName: "Ada", lastName: "Byron", email: "ada@example.com", stampBalance: 2 });
  const res = await api.rest_api.v1.customers[":id"].redemptions.$post({ param: { id }, json: { reward_product_id: 103 } });
  if (res.status === 422) {
    const body = await res.json(); // typed: { success: false, error: { code, message, statusCode, details? } }
    expect(body.error.code).toBe("INSUFFICIENT_STAMPS");
    expect(body.error.statusCode).toBe(422);
  } else {
    expect.unreachable(`expected 422, got ${res.status}`);
  }
  // @ts-expect-error 418 is no status this route documents
  expect(res.status === 418).toBe(false);
});

it("an unknown customer is a 404, a known one a 200 with its data", async () => {
  const missing = await api.rest_api.v1.customers[":id"].$get({ param: { id: "404404" } });
  expect(missing.status).toBe(404);
  if (missing.status === 404) expect((await missing.json()).error.code).toBe("CUSTOMER_NOT_FOUND");

  const { id } = await sim.control.createCustomer({ firstName: "Grace", lastName: "Hopper", email: "grace@example.com", stampBalance: 12 });
  const found = await api.rest_api.v1.customers[":id"].$get({ param: { id } });
  expect(found.status).toBe(200);
  if (found.status === 200) expect((await found.json()).data).toMatchObject({ id, firstName: "Grace", stampBalance: 12 });
});
