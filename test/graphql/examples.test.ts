/**
 * Every example of production's GraphQL docs (developer-docs `src/content/docs/graphql-api/`:
 * overview, installation, the 8 query pages and the 9 mutation pages; 24 documents), run with the
 * docs' ids replaced by seeded ones: each validates, and its `data` has the documented keys, in
 * order, with the documented JSON types (acceptance check 1; checks 2 and 3 compare values with REST).
 * @module
 */
import { describe, expect, it } from "vitest";
import { graphqlSim } from "./graphql-sim.js";

/** The JSON type of every value, keys in order; a list by its first item. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0])];
  if (value === null) return "null";
  if (typeof value === "object") return Object.entries(value as object).map(([k, v]) => [k, shapeOf(v)]);
  return typeof value;
}

/** Every item of every list has its first item's shape. */
function listsAreUniform(value: unknown): boolean {
  if (Array.isArray(value)) return value.every((item) => JSON.stringify(shapeOf(item)) === JSON.stringify(shapeOf(value[0])) && listsAreUniform(item));
  if (value !== null && typeof value === "object") return Object.values(value).every(listsAreUniform);
  return true;
}

describe("the documented examples", () => {
  const sim = graphqlSim();
  const C = sim.activeCustomer(20);
  sim.shop.setCustomerTier(C, { tierId: 3, triggerRewards: false });
  sim.shop.grantReward(C, 103);
  // The docs' ids, with their seeded counterparts: customer 6677889900, earn rule 12, reward 44, code 501.
  const ids = (text: string) => text.replaceAll("6677889900", C).replaceAll('earnRuleId: "12"', 'earnRuleId: "201"').replaceAll('rewardProductId: "44"', 'rewardProductId: "101"');

  const examples: [string, string, Record<string, unknown> | undefined, unknown][] = [
    ["overview", "query ($id: ID!) { customer(id: $id) { id firstName stampBalance } }", { id: "6677889900" },
      { customer: { id: "6677889900", firstName: "Ada", stampBalance: 35 } }],
    ["installation", "{ shop { programName currencySymbol } }", undefined, { shop: { programName: "Bean Club", currencySymbol: "£" } }],
    ["shop", "query { shop { programName stampBrandingPlural stampCardValue currency currencySymbol } }", undefined,
      { shop: { programName: "Bean Club", stampBrandingPlural: "beans", stampCardValue: 10, currency: "GBP", currencySymbol: "£" } }],
    ["earnRules", "query { earnRules { id name type step multiplier iconUrl } }", undefined,
      { earnRules: [{ id: "12", name: "Place an order", type: "order", step: 1, multiplier: 1.0, iconUrl: "https://cdn.appydesign.io/icons/order.svg" }] }],
    ["earnRule", "query ($id: ID!) { earnRule(id: $id) { id name type step multiplier } }", { id: "201" },
      { earnRule: { id: "12", name: "Place an order", type: "order", step: 1, multiplier: 1.0 } }],
    ["rewards", "query { rewards { id name price exchangeType iconUrl } }", undefined,
      { rewards: [{ id: "44", name: "Free coffee", price: 10, exchangeType: "free_product", iconUrl: "https://cdn.appydesign.io/icons/coffee.svg" }] }],
    ["reward", "query ($id: ID!) { reward(id: $id) { id name price exchangeType } }", { id: "101" },
      { reward: { id: "44", name: "Free coffee", price: 10, exchangeType: "free_product" } }],
    ["tiers", "query { tiers { id name milestone rewards { id name price } } }", undefined,
      { tiers: [{ id: "3", name: "Gold", milestone: 100, rewards: [{ id: "12", name: "Free coffee", price: 50 }] }] }],
    ["tier", "query ($id: ID!) { tier(id: $id) { id name milestone rewards { id name price } } }", { id: "3" },
      { tier: { id: "3", name: "Gold", milestone: 100, rewards: [{ id: "12", name: "Free coffee", price: 50 }] } }],
    ["beacons", "query { beacons { id name message icon active } }", undefined,
      { beacons: [{ id: "7", name: "Double stamps weekend", message: "Earn double beans all weekend!", icon: "sparkles", active: true }] }],
    ["customers", "query ($after: String) { customers(limit: 50, after: $after) { items { id firstName stampBalance } pageInfo { hasNext nextCursor } } }", undefined,
      { customers: { items: [{ id: "6677889900", firstName: "Ada", stampBalance: 35 }], pageInfo: { hasNext: true, nextCursor: "eyJpZCI6NjY3Nzg4OTkwMH0=" } } }],
    ["customer", "query ($id: ID!) { customer(id: $id) { id firstName lastName email stampBalance cards stampsToNextReward vipTierName nextReward { id name } } }", { id: "6677889900" },
      { customer: { id: "6677889900", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", stampBalance: 35, cards: 1, stampsToNextReward: 5, vipTierName: "Gold", nextReward: { id: "44", name: "Free coffee" } } }],
    ["customerActivities", "query ($id: ID!) { customerActivities(customerId: $id, limit: 20) { items { id label stampChange createdAt } pageInfo { hasNext nextCursor } } }", { id: "6677889900" },
      { customerActivities: { items: [{ id: "98123", label: "Placed an order", stampChange: 3, createdAt: "2026-06-01T10:15:00Z" }], pageInfo: { hasNext: true, nextCursor: "eyJpZCI6OTgxMjN9" } } }],
    ["rewardCodes", "query ($id: ID!) { rewardCodes(customerId: $id, available: true) { id name code used createdAt } }", { id: "6677889900" },
      { rewardCodes: [{ id: "551", name: "Free coffee", code: "LOYAL-7Q2X", used: false, createdAt: "2026-06-02T09:00:00Z" }] }],
    ["awardStamps", 'mutation { awardStamps(customerId: "6677889900", stamps: 5, comment: "Birthday bonus", internalComment: "Awarded via API") { customerId stampChange stampBalance } }', undefined,
      { awardStamps: { customerId: "6677889900", stampChange: 5, stampBalance: 40 } }],
    ["adjustStamps", 'mutation { adjustStamps(customerId: "6677889900", stamps: -3, comment: "Correction", internalComment: "Stock count fix") { customerId stampChange stampBalance } }', undefined,
      { adjustStamps: { customerId: "6677889900", stampChange: -3, stampBalance: 37 } }],
    ["processActivity", 'mutation { processActivity(customerId: "6677889900", earnRuleId: "12") { customerId stampChange stampBalance } }', undefined,
      { processActivity: { customerId: "6677889900", stampChange: 1, stampBalance: 41 } }],
    ["redeemReward", 'mutation { redeemReward(customerId: "6677889900", rewardProductId: "44") { code name stampBalance } }', undefined,
      { redeemReward: { code: "LOYAL-7Q2X", name: "Free coffee", stampBalance: 31 } }],
    ["grantReward", 'mutation { grantReward(customerId: "6677889900", rewardProductId: "44") { code name stampBalance } }', undefined,
      { grantReward: { code: "APPY-7Q2X", name: "Free coffee", stampBalance: 35 } }],
    ["markRewardCodeUsed", 'mutation { markRewardCodeUsed(customerId: "6677889900", rewardCodeId: "GRANTED") { id code used } }', undefined,
      { markRewardCodeUsed: { id: "501", code: "APPY-5OFF-XXXX", used: true } }],
    ["voidRewardCode", 'mutation { voidRewardCode(customerId: "6677889900", rewardCodeId: "REDEEMED") { id code } }', undefined,
      { voidRewardCode: { id: "501", code: "APPY-5OFF-XXXX" } }],
    ["setCustomerTier", 'mutation { setCustomerTier(customerId: "6677889900", tierId: "3") { id vipTierId vipTierName } }', undefined,
      { setCustomerTier: { id: "6677889900", vipTierId: 3, vipTierName: "Gold" } }],
    ["updateCustomer (birthday)", "mutation ($id: ID!, $input: UpdateCustomerInput!) { updateCustomer(id: $id, input: $input) { id dateOfBirth } }",
      { id: "6677889900", input: { birthdayMonth: 12, birthdayDay: 10 } }, { updateCustomer: { id: "6677889900", dateOfBirth: "10-12" } }],
    // The page shows the variables but no answer: the selected fields, as strings.
    ["updateCustomer (exclusion)", "mutation ($id: ID!, $input: UpdateCustomerInput!) { updateCustomer(id: $id, input: $input) { id state } }",
      { id: "6677889900", input: { excluded: true } }, { updateCustomer: { id: "6677889900", state: "removed" } }],
  ];

  it("are 24 documents", () => {
    expect(examples).toHaveLength(24);
  });

  const codes: Record<string, string> = {};
  it.each(examples)("%s: validates and answers the documented keys with the documented JSON types", async (name, query, variables, documented) => {
    const code = (label: string) => codes[label] ?? "";
    const text = ids(query).replace('"GRANTED"', `"${code("granted")}"`).replace('"REDEEMED"', `"${code("redeemed")}"`);
    const res = await sim.gql(text, variables && JSON.parse(ids(JSON.stringify(variables))));
    expect(res.status).toBe(200);
    expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
    expect(shapeOf(res.body.data)).toStrictEqual(shapeOf(documented));
    expect(listsAreUniform(res.body.data)).toBe(true);
    // Codes for the two code mutations, from the code of the redemption and of the grant.
    if (name === "redeemReward" || name === "grantReward") {
      const issued = sim.shop.listRewardCodes(C, false).find((c) => c.code === res.body.data[name].code)!;
      codes[name === "redeemReward" ? "redeemed" : "granted"] = issued.id;
    }
  });

  // Checks 2 and 3: the values are REST's.
  it("overview: the customer's id (a string) and balance are REST's", async () => {
    const res = await sim.gql("query ($id: ID!) { customer(id: $id) { id firstName stampBalance } }", { id: C });
    const rest = await sim.restCustomer(C);
    expect(res.body).toStrictEqual({ data: { customer: { id: C, firstName: rest.firstName, stampBalance: rest.stampBalance } } });
  });

  it("installation: the shop's name and currency symbol are REST's", async () => {
    const res = await sim.gql("{ shop { programName currencySymbol } }");
    const rest = (await sim.call("GET", "/shop")).body.data;
    expect(res.body).toStrictEqual({ data: { shop: { programName: rest.programName, currencySymbol: rest.currencySymbol } } });
  });
});
