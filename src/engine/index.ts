/** @module The stamp engine: domain rules only, no HTTP. */
export * from "./clock.js";
export * from "./errors.js";
export * from "./random.js";
export * from "./pagination.js";
export * from "./limits.js";
export * from "./views.js";
export { ShopEngine } from "./shop-engine.js";
export { Engine, type ShopSpec } from "./engine.js";
export type { CustomerFilter, CustomerPatch, TierChange, NewCustomer } from "./customers.js";
export type { ManualStamps, StampResult } from "./stamps.js";
export type { RedemptionResult } from "./rewards.js";
