/**
 * @module The largest number of stamps anything holds: a balance, an amount, a price. Production's
 * GraphQL schema types them as 32-bit `Int`, so a larger one could not be answered there.
 */
export const MAX_STAMPS = 2 ** 31 - 1;

/**
 * The most reward codes one customer holds. Codes are never removed and every list of them is
 * answered whole (REST's and GraphQL's `rewardCodes`), so this bounds what one answer carries.
 */
export const MAX_CUSTOMER_CODES = 1000;
