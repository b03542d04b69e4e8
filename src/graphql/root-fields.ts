/** @module The 21 root fields, by operation type: a module of their own, which scenario files name without loading GraphQL. */
export const QUERY_FIELDS = [
  "shop", "earnRules", "earnRule", "rewards", "reward", "tiers", "tier", "beacons", "customers", "customer",
  "customerActivities", "rewardCodes",
] as const;
export const MUTATION_FIELDS = [
  "updateCustomer", "awardStamps", "adjustStamps", "processActivity", "redeemReward", "grantReward",
  "markRewardCodeUsed", "voidRewardCode", "setCustomerTier",
] as const;
export type RootField = (typeof QUERY_FIELDS)[number] | (typeof MUTATION_FIELDS)[number];

export const ROOT_FIELDS = [...QUERY_FIELDS, ...MUTATION_FIELDS] as const;
