/**
 * What every engine operation works with: one shop's store, the clock and the random source.
 * Also the guards on program records and changeable customers (finding a customer settles its
 * expiry: see `requireCustomer` in ledger.ts).
 * @module
 */
import type { ShopStore } from "../store/shop-store.js";
import type { CustomerRecord, RewardRecord, TierRecord, EarnRuleRecord } from "../store/types.js";
import { isoTimestamp, type Clock } from "./clock.js";
import { DomainError } from "./errors.js";
import type { RandomSource } from "./random.js";

export interface EngineContext {
  store: ShopStore;
  clock: Clock;
  random: RandomSource;
}

/** Refuses any stamp or reward change for a removed or merged customer, saying why. */
export function requireChangeable(customer: CustomerRecord): void {
  if (customer.excluded) {
    throw new DomainError(
      "ACTIVITY_NOT_AWARDED",
      `Customer ${customer.id} is removed from the loyalty program; re-include them with PATCH {"excluded": false} first`,
      undefined,
      { kind: "customerRemoved", customerId: customer.id, removedAt: customer.excludedAt === undefined ? null : isoTimestamp(customer.excludedAt) },
    );
  }
  if (customer.mergedIntoCustomerId !== undefined) {
    throw new DomainError(
      "ACTIVITY_NOT_AWARDED",
      `Customer ${customer.id} was merged into customer ${customer.mergedIntoCustomerId}; use that customer instead`,
      undefined,
      { kind: "customerMerged", customerId: customer.id, mergedIntoCustomerId: customer.mergedIntoCustomerId },
    );
  }
}

/** Program ids arrive as integers (bodies) or path text; both name the same record. */
export type ProgramId = number | string;
const same = (id: number, wanted: ProgramId) => (typeof wanted === "number" ? id === wanted : String(id) === wanted);

export function findTier(ctx: EngineContext, id: ProgramId): TierRecord | undefined {
  return ctx.store.data.program.tiers.find((t) => same(t.id, id));
}

export function requireTier(ctx: EngineContext, id: ProgramId): TierRecord {
  const tier = findTier(ctx, id);
  if (!tier) throw new DomainError("TIER_NOT_FOUND", `Tier ${id} not found`);
  return tier;
}

export function requireReward(ctx: EngineContext, id: ProgramId): RewardRecord {
  const reward = ctx.store.data.program.rewards.find((r) => same(r.id, id));
  if (!reward) throw new DomainError("REWARD_NOT_FOUND", `Reward ${id} not found`);
  return reward;
}

export function requireEarnRule(ctx: EngineContext, id: ProgramId): EarnRuleRecord {
  const rule = ctx.store.data.program.earnRules.find((r) => same(r.id, id));
  if (!rule) throw new DomainError("EARN_RULE_NOT_FOUND", `Earn rule ${id} not found`);
  return rule;
}
