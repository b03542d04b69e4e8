/**
 * @module The largest number of stamps anything holds: a balance, an amount, a price. Production's
 * GraphQL schema types them as 32-bit `Int`, so a larger one could not be answered there.
 */
export const MAX_STAMPS = 2 ** 31 - 1;
