import { expect, it } from "vitest";
import { fileShop } from "./file-shop.js";
import { meet } from "./meet.js";

const shop = await fileShop({ customers: 0 });
const DAY = 86_400;

it("a year without a visit expires the stamps of this file's shop", async () => {
  await shop.control.setClock({ set: "2027-01-01T00:00:00+00:00", frozen: true });
  const { id } = await shop.control.createCustomer({ firstName: "Ada", lastName: "Byron", email: "ada@example.com", stampBalance: 9 });
  await shop.control.setClock({ advanceSeconds: 366 * DAY }); // this shop's clock only
  await meet("a-year", ["a-year", "a-month"]); // expiry-a-month.test.ts has moved its clock too

  const res = await shop.api.rest_api.v1.customers[":id"].$get({ param: { id } });
  if (res.status !== 200) throw new Error(`getCustomer answered ${res.status}`);
  const { data } = await res.json();
  expect(data.stampBalance).toBe(0);
  expect(await shop.control.clock()).toEqual({ now: "2028-01-02T00:00:00+00:00", frozen: true });

  const activities = await (await shop.api.rest_api.v1.customers[":id"].activities.$get({ param: { id } })).json();
  expect(activities.success && activities.data.map((a) => [a.label, a.stampChange, a.createdAt])).toEqual([
    ["9 stamps expired", -9, "2028-01-01T00:00:00+00:00"],
    ["Stamps adjusted by the shop", 9, "2027-01-01T00:00:00+00:00"],
  ]);
});
