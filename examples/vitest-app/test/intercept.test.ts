/** The app's own axios calls to production, answered in process: no URL, client or code changed. */
import { isAxiosError } from "axios";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createSimulator } from "loyalty-sim";
import { LOYALTY_API, loyalty } from "../src/loyalty.js";

const sim = createSimulator({ seed: 7, customers: 5 });
const app = loyalty({ apiKey: sim.apiKey, apiSecret: sim.apiSecret });

beforeAll(() => void sim.intercept()); // https://stamp.appydesign.io by default
afterAll(() => sim.restore());

it("reads and awards through the app's axios client, and the journal shows what it sent", async () => {
  expect(LOYALTY_API).toBe("https://stamp.appydesign.io/rest_api/v1");
  const { id } = await sim.control.createCustomer({ firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", stampBalance: 3 });
  expect(await app.balance(id)).toBe(3);
  expect(await app.rewardVisit(id)).toBe(4);
  expect(await app.balance(id)).toBe(4);

  expect(await sim.control.count({ customerId: id })).toBe(3);
  expect(await sim.control.count({ operation: "getCustomer", customerId: id })).toBe(2);
  const [award] = await sim.control.requests({ operation: "awardStamps", customerId: id });
  expect(award).toMatchObject({ method: "POST", status: 200, requestBody: { stamps: 1, comment: "Thanks for your visit" } });
  expect(award!.requestHeaders).toMatchObject({ "x-api-key": sim.apiKey, "x-api-secret": "***" });
  expect(award!.requestHeaders["user-agent"]).toMatch(/^axios\//);
});

it("a lost connection reaches the app as axios's own network error", async () => {
  const { id } = await sim.control.createCustomer({ firstName: "Edsger", lastName: "Dijkstra", email: "edsger@example.com" });
  await sim.control.addScenario({ name: "down", rules: [{ match: { operation: "getCustomer" }, times: 1, respond: { fault: "connection_reset" } }] });
  const error = await app.balance(id).catch((e: unknown) => e);
  expect(isAxiosError(error) && { code: error.code, response: error.response }).toEqual({ code: "ECONNRESET", response: undefined });
  expect(await app.balance(id)).toBe(0);
});

it("an error status reaches the app as an axios error with the error envelope", async () => {
  await expect(app.balance("404404")).rejects.toMatchObject({
    response: { status: 404, data: { success: false, error: { code: "CUSTOMER_NOT_FOUND", statusCode: 404 } } },
  });
  expect(await sim.control.count({ operation: "getCustomer", customerId: "404404", status: 404 })).toBe(1);
});
