/**
 * The GraphQL schema as production documents it (developer-docs `graphql-api/reference`), in SDL:
 * the docs' types and field order, with descriptions of the simulator's. The documented types are
 * kept exactly (no enums, `Int` where the docs say `Int`), so introspection and client code
 * generators see production's schema. A module of its own, free of graphql-js, so that the text
 * can be handed out without loading it.
 * @module
 */

/** The schema's SDL, for client code generators (`graphql/schema.graphql` is printed from it). */
export const graphqlSchemaSDL = `"An ISO-8601 instant. Written in UTC with a Z suffix and whole seconds, e.g. 2026-06-01T10:15:00Z."
scalar DateTime

type Query {
  "The loyalty program's shop-level settings."
  shop: Shop
  "All earn rules of the shop."
  earnRules: [EarnRule!]!
  "One earn rule by id; null (with an EARN_RULE_NOT_FOUND error) when the shop has none with this id."
  earnRule(id: ID!): EarnRule
  "The rewards customers can redeem."
  rewards: [Reward!]!
  "One reward by id; null (with a REWARD_NOT_FOUND error) when unknown."
  reward(id: ID!): Reward
  "All VIP tiers of the shop, each with the rewards it grants."
  tiers: [Tier!]!
  "One VIP tier by id; null (with a TIER_NOT_FOUND error) when unknown."
  tier(id: ID!): Tier
  "All beacons (announcements) of the shop, active or not."
  beacons: [Beacon!]!
  "A page of the shop's customers, oldest first."
  customers(
    "Only customers with this email address (case-insensitive; several customers may share one)."
    email: String
    "Page size, 1 to 1000. Absent or null means 20."
    limit: Int
    "Return the page after this cursor (a nextCursor of this query)."
    after: String
    "Return the page before this cursor (a previousCursor of this query)."
    before: String
    "When true, pageInfo.count holds the total number of matching customers."
    hasCount: Boolean
  ): CustomerConnection!
  "One customer by commerce-platform (Shopify) id, with nextReward; null (with a CUSTOMER_NOT_FOUND error) when unknown."
  customer(id: ID!): Customer
  "A page of one customer's stamp ledger, newest first."
  customerActivities(
    "The customer's commerce-platform id."
    customerId: ID!
    "Page size, 1 to 1000. Absent or null means 20."
    limit: Int
    "Return the page after this cursor (a nextCursor of this query)."
    after: String
    "When true, pageInfo.count holds the total number of activities."
    hasCount: Boolean
  ): ActivityConnection!
  "The discount codes issued to one customer."
  rewardCodes(
    customerId: ID!
    "When true, only codes that can still be used."
    available: Boolean
  ): [RewardCode!]!
}

type Mutation {
  "Changes the app-owned fields of a customer (birthday, exclusion); null (with CUSTOMER_NOT_FOUND) when unknown."
  updateCustomer(id: ID!, input: UpdateCustomerInput!): Customer
  "Adds stamps (at least 1) and records an activity. A balance holds at most 2147483647 (an Int): an award beyond is VALIDATION_ERROR and changes nothing."
  awardStamps(customerId: ID!, stamps: Int!, comment: String, internalComment: String): StampResult!
  "Adds or deducts stamps (any non-zero amount) and records an activity. A balance holds at most 2147483647 (an Int): a change beyond is VALIDATION_ERROR and changes nothing."
  adjustStamps(customerId: ID!, stamps: Int!, comment: String, internalComment: String): StampResult!
  "Runs an earn rule for a customer; the rule decides the amount."
  processActivity(customerId: ID!, earnRuleId: ID!): StampResult!
  "Spends the reward's price (or variableAmount for a variable reward) and issues a discount code."
  redeemReward(customerId: ID!, rewardProductId: ID!, variableAmount: Int): Redemption!
  "Issues a reward's discount code at no stamp cost."
  grantReward(customerId: ID!, rewardProductId: ID!, variableAmount: Int): Redemption!
  "Marks a code used (deactivated on the platform); no refund."
  markRewardCodeUsed(customerId: ID!, rewardCodeId: ID!): RewardCode!
  "Refunds what a code cost and deactivates it."
  voidRewardCode(customerId: ID!, rewardCodeId: ID!): RewardCode!
  "Assigns a VIP tier; with triggerRewards true also issues the tier's rewards. Absent or null triggerRewards means false."
  setCustomerTier(customerId: ID!, tierId: ID!, triggerRewards: Boolean, comment: String, internalComment: String): Customer!
}

type Shop {
  programName: String
  stampBrandingPlural: String
  stampCardValue: Int
  currency: String
  currencySymbol: String
}

type EarnRule {
  id: ID!
  name: String
  type: String
  step: Int
  multiplier: Float
  iconUrl: String
}

type Reward {
  id: ID!
  name: String
  price: Int
  exchangeType: String
  iconUrl: String
}

type Tier {
  id: ID!
  name: String
  milestone: Int
  multiplier: Float
  iconUrl: String
  benefits: String
  rewards: [Reward!]!
}

type Beacon {
  id: ID!
  name: String
  message: String
  icon: String
  active: Boolean
}

type Customer {
  id: ID!
  firstName: String
  lastName: String
  email: String
  stampBalance: Int
  cards: Int
  stampsToNextReward: Int
  stampsExpireAt: String
  vipTierId: Int
  vipTierName: String
  dateOfBirth: String
  state: String
  mergedIntoCustomerId: Int
  nextReward: NextReward
}

type NextReward {
  id: ID!
  name: String
}

type Activity {
  id: ID!
  label: String
  stampChange: Int
  createdAt: DateTime
}

type RewardCode {
  id: ID!
  name: String
  code: String
  used: Boolean
  createdAt: DateTime
}

type StampResult {
  customerId: ID!
  stampChange: Int!
  stampBalance: Int!
}

type Redemption {
  code: String
  name: String
  stampBalance: Int!
}

type CustomerConnection {
  items: [Customer!]!
  pageInfo: PageInfo!
}

type ActivityConnection {
  items: [Activity!]!
  pageInfo: PageInfo!
}

type PageInfo {
  hasNext: Boolean!
  hasPrevious: Boolean!
  nextCursor: String
  previousCursor: String
  count: Int
}

input UpdateCustomerInput {
  "Birthday month, 1 to 12; send together with birthdayDay."
  birthdayMonth: Int
  "Birthday day, 1 to 31 (and valid for the month); send together with birthdayMonth."
  birthdayDay: Int
  "true removes the customer from the program (state becomes removed); false re-includes them."
  excluded: Boolean
}
`;
