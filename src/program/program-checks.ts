/**
 * The rules across a program's fields (unique ids, references that resolve, rewards that can be
 * redeemed), for a fixture and for a saved program alike.
 * @module
 */
import { MAX_STAMPS, MAX_STAMPS_WHY } from "../engine/limits.js";
import type { Program, ShopSettings } from "../store/types.js";
import type { Issue } from "./records.js";

/** One issue per repeated value, pointing at the later occurrence (the one to rename). */
function duplicates<T>(
  items: T[],
  value: (item: T) => number,
  at: (index: number) => Issue["path"],
  what: string,
): Issue[] {
  const seen = new Set<number>();
  const issues: Issue[] = [];
  items.forEach((item, index) => {
    const v = value(item);
    if (seen.has(v)) issues.push({ path: at(index), message: `duplicate ${what} ${v}` });
    seen.add(v);
  });
  return issues;
}

/** A program as a fixture writes it: its settings under `shop`. */
export interface ProgramParts extends Omit<Program, "settings"> {
  shop: ShopSettings;
}

/**
 * The rules across a program's fields, whether it is written as a fixture (`shop`) or as a saved
 * program (`settings`, named by `settingsKey`): unique ids, references that resolve, rewards that
 * can be redeemed.
 */
export function programIssues(program: ProgramParts, settingsKey: string): Issue[] {
  const issues: Issue[] = [
    ...duplicates(program.tiers, (t) => t.id, (i) => ["tiers", i, "id"], "tier id"),
    ...duplicates(program.tiers, (t) => t.milestone, (i) => ["tiers", i, "milestone"], "tier milestone"),
    ...duplicates(program.earnRules, (r) => r.id, (i) => ["earnRules", i, "id"], "earn rule id"),
    ...duplicates(program.rewards, (r) => r.id, (i) => ["rewards", i, "id"], "reward id"),
    ...duplicates(program.beacons, (b) => b.id, (i) => ["beacons", i, "id"], "beacon id"),
  ];
  const rewardIds = new Set(program.rewards.map((r) => r.id));
  const tierIds = new Set(program.tiers.map((t) => t.id));

  // What one earn can award (the engine's rounding, at the highest tier multiplier) must fit a balance.
  const topMultiplier = Math.max(1, ...program.tiers.map((t) => t.multiplier));
  program.earnRules.forEach((rule, r) => {
    const award = Math.round(rule.step * rule.multiplier * topMultiplier);
    if (!(award <= MAX_STAMPS)) {
      const message = `step x multiplier x the highest tier multiplier (${topMultiplier}) is ${award}, beyond ${MAX_STAMPS}, ${MAX_STAMPS_WHY}`;
      issues.push({ path: ["earnRules", r, "multiplier"], message });
    }
  });

  program.tiers.forEach((tier, t) => {
    const at = (i: number): Issue["path"] => ["tiers", t, "rewardIds", i];
    issues.push(...duplicates(tier.rewardIds, (r) => r, at, "reward id"));
    tier.rewardIds.forEach((rewardId, i) => {
      if (!rewardIds.has(rewardId)) {
        issues.push({ path: at(i), message: `no reward has id ${rewardId}` });
      }
    });
  });

  program.rewards.forEach((reward, r) => {
    const at = (field: string): Issue["path"] => ["rewards", r, field];
    if (reward.tierId !== undefined && !tierIds.has(reward.tierId)) {
      issues.push({ path: at("tierId"), message: `no tier has id ${reward.tierId}` });
    }
    if (reward.exchangeType !== "variable") {
      for (const field of ["minAmount", "maxAmount"] as const) {
        if (reward[field] !== undefined) {
          issues.push({ path: at(field), message: "only allowed on variable rewards" });
        }
      }
    } else {
      const { minAmount: min, maxAmount: max, price } = reward;
      if (min !== undefined && max !== undefined && min > max) {
        issues.push({ path: at("minAmount"), message: `must not exceed maxAmount (${max})` });
      }
      // For variable rewards price is the default amount, so it must itself be redeemable.
      if ((min !== undefined && price < min) || (max !== undefined && price > max)) {
        issues.push({ path: at("price"), message: "must lie between minAmount and maxAmount" });
      }
    }
    // A cards reward costs whole cards; a partial card cannot be shown or redeemed.
    if (reward.exchangeType === "cards" && reward.price % program.shop.stampCardValue !== 0) {
      issues.push({
        path: at("price"),
        message: `must be a whole number of cards (${settingsKey}.stampCardValue is ${program.shop.stampCardValue})`,
      });
    }
  });

  // GET /rewards would otherwise be empty and clients could not pick anything to redeem.
  if (!program.rewards.some((r) => !r.posOnly && r.tierId === undefined)) {
    const message = "needs at least one reward that is neither posOnly nor tier-locked";
    issues.push({ path: ["rewards"], message });
  }

  return issues;
}
