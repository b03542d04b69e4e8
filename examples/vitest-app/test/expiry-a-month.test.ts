import { expect, it } from "vitest";
import { fileShop } from "./file-shop.js";
import { meet } from "./meet.js";

const shop = await fileShop({ customers: 0 });
const DAY = 86_400;

it("a month later the stamps of this file's shop are still there, whatever the other files' clocks", async () => {
  await shop.control.setClock({ set: "2027-01-01T00:00:00+00:00", frozen: true });
  const { id } = await shop.control.createCustomer({ firstName: "Grace", lastName: "Hopper", email: "grace@example.com", stampBalance: 9 });
  await shop.control.setClock({ advanceSeconds: 30 * DAY });
  await meet("a-month", ["a-year", "a-month"]); // expiry-a-year.test.ts has moved its clock a year

  const res = await shop.api.rest_api.v1.customers[":id"].$get({ param: { id } });
  if (res.status !== 200) throw new Error(`getCustomer answered ${res.status}`);
  const { data } = await res.json();
  expect(data.stampBalance).toBe(9);
  expect(data.stampsExpireAt).toBe("2028-01-01T00:00:00+00:00");
  expect(await shop.control.clock()).toEqual({ now: "2027-01-31T00:00:00+00:00", frozen: true });
  // This shop's journal holds this file's requests only.
  expect(await shop.control.count()).toBe(1);
  expect(await shop.control.count({ operation: "getCustomer", customerId: id, status: 200 })).toBe(1);
});
