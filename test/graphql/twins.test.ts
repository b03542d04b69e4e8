/**
 * The REST request each root field stands for (spec 5.3's facts: what scenario rules written for
 * REST are matched against), and the two cursor forms.
 * @module
 */
import { describe, expect, it } from "vitest";
import { encodeCursor } from "../../src/engine/pagination.js";
import { graphqlCursorOf, restCursorOf } from "../../src/contract/cursors.js";
import { restTwinRequest } from "../../src/graphql/index.js";
import { graphqlCursor } from "./graphql-sim.js";

const C = "6000475504606";

describe("the REST twin request of a root field", () => {
  it.each([
    ["shop", {}, { operation: "getShop", method: "GET", path: "/shop", params: {}, query: {} }],
    ["tier", { id: "3" }, { operation: "getTier", method: "GET", path: "/tiers/3", params: { id: "3" }, query: {} }],
    ["customer", { id: "a/b" }, { operation: "getCustomer", method: "GET", path: "/customers/a%2Fb", params: { id: "a/b" }, query: {}, customerId: "a/b" }],
    ["customers", { limit: 5, hasCount: true, email: null }, { operation: "listCustomers", method: "GET", path: "/customers", params: {}, query: { limit: "5", hasCount: "true" } }],
    ["customers", { after: graphqlCursor("101") }, { operation: "listCustomers", method: "GET", path: "/customers", params: {}, query: { after: "aWQ6MTAx" } }],
    ["customers", { before: "%%" }, { operation: "listCustomers", method: "GET", path: "/customers", params: {}, query: { before: "%%" } }],
    ["rewardCodes", { customerId: C, available: true }, { operation: "listRewardCodes", method: "GET", path: `/customers/${C}/reward-codes`, params: { id: C }, query: { available: "true" }, customerId: C }],
    ["customerActivities", { customerId: C, limit: 20 }, { operation: "listActivities", method: "GET", path: `/customers/${C}/activities`, params: { id: C }, query: { limit: "20" }, customerId: C }],
    ["processActivity", { customerId: C, earnRuleId: "203" },
      { operation: "processEarnRule", method: "POST", path: `/customers/${C}/activities`, params: { id: C }, query: {}, body: { earn_rule_id: 203 }, customerId: C }],
    ["redeemReward", { customerId: C, rewardProductId: "abc", variableAmount: null },
      { operation: "redeemReward", method: "POST", path: `/customers/${C}/redemptions`, params: { id: C }, query: {}, body: { reward_product_id: "abc" }, customerId: C }],
    ["grantReward", { customerId: C, rewardProductId: "9".repeat(30), variableAmount: 4 },
      { operation: "grantReward", method: "POST", path: `/customers/${C}/reward-grants`, params: { id: C }, query: {}, body: { reward_product_id: "9".repeat(30), variable_amount: 4 }, customerId: C }],
    ["awardStamps", { customerId: C, stamps: 5, internalComment: "via API" },
      { operation: "awardStamps", method: "POST", path: `/customers/${C}/stamps/award`, params: { id: C }, query: {}, body: { stamps: 5, internal_comment: "via API" }, customerId: C }],
    ["setCustomerTier", { customerId: C, tierId: "03", triggerRewards: true, comment: "VIP" },
      { operation: "setCustomerTier", method: "POST", path: `/customers/${C}/tier`, params: { id: C }, query: {}, body: { tier_id: "03", trigger_rewards: true, comment: "VIP" }, customerId: C }],
    ["updateCustomer", { id: C, input: { birthdayMonth: 12, birthdayDay: 10, excluded: null } },
      { operation: "updateCustomer", method: "PATCH", path: `/customers/${C}`, params: { id: C }, query: {}, body: { birthday_month: 12, birthday_day: 10 }, customerId: C }],
    ["markRewardCodeUsed", { customerId: C, rewardCodeId: "55" },
      { operation: "useRewardCode", method: "POST", path: `/customers/${C}/reward-codes/55/use`, params: { id: C, codeId: "55" }, query: {}, customerId: C }],
    ["voidRewardCode", { customerId: C, rewardCodeId: "55" },
      { operation: "voidRewardCode", method: "POST", path: `/customers/${C}/reward-codes/55/void`, params: { id: C, codeId: "55" }, query: {}, customerId: C }],
  ] as const)("%s %j", (field, args, expected) => {
    expect(restTwinRequest(field, args)).toStrictEqual(expected);
  });
});

describe("cursors", () => {
  it("GraphQL's are base64 of {\"id\":N}, as the docs' examples; REST's base64 of id:N name the same record", () => {
    expect(restCursorOf("eyJpZCI6OTgxMjN9")).toBe(encodeCursor("98123"));
    expect(restCursorOf("eyJpZCI6NjY3Nzg4OTkwMH0=")).toBe(encodeCursor("6677889900"));
    expect(graphqlCursorOf(encodeCursor("6677889900"))).toBe("eyJpZCI6NjY3Nzg4OTkwMH0=");
    expect(graphqlCursorOf(null)).toBeNull();
  });

  it.each(["aWQ6MTAx", "%%", "", "eyJpZCI6OTgxMjN9=", Buffer.from('{"id": 1}').toString("base64"), Buffer.from('{"id":"1"}').toString("base64"), graphqlCursor("1".repeat(21))])(
    "%j is not a GraphQL cursor",
    (cursor) => {
      expect(restCursorOf(cursor)).toBeUndefined();
    },
  );
});
