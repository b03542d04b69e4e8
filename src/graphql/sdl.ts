/**
 * The GraphQL schema as production documents it (developer-docs `graphql-api/reference`), in SDL:
 * the docs' types and field order, with descriptions of the simulator's. The documented types are
 * kept exactly (no enums, `Int` where the docs say `Int`), so introspection and client code
 * generators see production's schema. The root fields are declared with their REST twins, in the
 * contract; the object types are here. A module of its own, free of graphql-js, so that the text
 * can be handed out without loading it.
 * @module
 */
import { ROOT_FIELDS_SDL } from "../contract/index.js";

/** The schema's SDL, for client code generators (`graphql/schema.graphql` is printed from it). */
export const graphqlSchemaSDL = `"An ISO-8601 instant. Written in UTC with a Z suffix and whole seconds, e.g. 2026-06-01T10:15:00Z."
scalar DateTime

type Query {
${ROOT_FIELDS_SDL.query}}

type Mutation {
${ROOT_FIELDS_SDL.mutation}}

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
