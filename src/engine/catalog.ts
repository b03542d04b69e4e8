/**
 * The shop's program as read by apps: shop record, tiers, earn rules, beacons.
 * @module
 */
import { requireEarnRule, requireTier, type EngineContext, type ProgramId } from "./context.js";
import { beaconView, earnRuleView, shopView, tierView, type Beacon, type EarnRule, type Shop, type Tier } from "./views.js";

export function getShop(ctx: EngineContext): Shop {
  return shopView(ctx.store.data.program);
}

export function listTiers(ctx: EngineContext): Tier[] {
  const program = ctx.store.data.program;
  return program.tiers.map((t) => tierView(program, t));
}

export function getTier(ctx: EngineContext, id: ProgramId): Tier {
  return tierView(ctx.store.data.program, requireTier(ctx, id));
}

export function listEarnRules(ctx: EngineContext): EarnRule[] {
  return ctx.store.data.program.earnRules.map(earnRuleView);
}

export function getEarnRule(ctx: EngineContext, id: ProgramId): EarnRule {
  return earnRuleView(requireEarnRule(ctx, id));
}

export function listBeacons(ctx: EngineContext): Beacon[] {
  return ctx.store.data.program.beacons.map(beaconView);
}
