/**
 * Stamp movements an app asks for: award, adjust, processing an earn rule; and the ledger read.
 * @module
 */
import type { CustomerRecord, EarnLimit } from "../store/types.js";
import { DAY_MS, isoTimestamp } from "./clock.js";
import { findTier, requireChangeable, requireEarnRule, type EngineContext } from "./context.js";
import { DomainError, type EarnPeriod } from "./errors.js";
import { applyStampChange, requireCustomer } from "./ledger.js";
import { requireStampAmount } from "./limits.js";
import { paginate, type Page, type PageQuery } from "./pagination.js";
import { activityView, type Activity } from "./views.js";

export interface StampResult {
  customerId: string;
  stampChange: number;
  stampBalance: number;
}

export interface ManualStamps {
  stamps: number;
  comment?: string;
  internalComment?: string;
}

export const DEFAULT_INTERNAL_COMMENT = "API adjustment";

function manualChange(ctx: EngineContext, id: string, kind: "award" | "adjust", input: ManualStamps): StampResult {
  requireStampAmount("stamps", input.stamps);
  const customer = requireCustomer(ctx, id);
  requireChangeable(customer);
  applyStampChange(ctx, customer, {
    kind,
    change: input.stamps,
    label: input.comment ?? ctx.store.data.program.settings.manualAdjustmentLabel,
    internalComment: input.internalComment ?? DEFAULT_INTERNAL_COMMENT,
  });
  return { customerId: customer.id, stampChange: input.stamps, stampBalance: customer.balance };
}

/** Adds `stamps` (>= 1, checked by the caller's schema). */
export function awardStamps(ctx: EngineContext, id: string, input: ManualStamps): StampResult {
  return manualChange(ctx, id, "award", input);
}

/** Adds or deducts; a deduction below zero is INSUFFICIENT_STAMPS and changes nothing. */
export function adjustStamps(ctx: EngineContext, id: string, input: ManualStamps): StampResult {
  return manualChange(ctx, id, "adjust", input);
}

const PERIOD_MS = { day: DAY_MS, week: 7 * DAY_MS, year: 365 * DAY_MS } as const;

/** An earn rule's limit as it stands for one customer now: how many awards count and when it reopens. */
export interface EarnWindow {
  limit: number;
  period: EarnPeriod;
  awardsInWindow: number;
  /** Epoch ms of the customer's newest award by the rule (in the window, or ever for `lifetime`). */
  lastAwardAt: number | null;
  /** While the limit is reached: when the rule may award again (null for `lifetime`, never). */
  nextAllowedAt: number | null;
  reached: boolean;
}

/**
 * The rule's window for the customer, or undefined for a rule without a limit. An earn counts
 * while it is newer than the window's start, also one dated after now (the clock was set back
 * since): the rule reopens a full period after an earn, whatever the clock did in between.
 */
export function earnWindow(ctx: EngineContext, customerId: string, ruleId: number, limit: EarnLimit): EarnWindow | undefined {
  if (limit.kind === "none") return undefined;
  const ledger = ctx.store.activitiesOf(customerId);
  // Newest first, stopping where no older entry can be dated later than what is looked for: the
  // window's start, or (lifetime) the newest earn found. The ledger is in time order unless the
  // clock was set back, by at most `stepBack`; the cost is the window (plus that step), not the ledger.
  const stepBack = ctx.store.ledgerStepBack(customerId);
  if (limit.kind === "lifetime") {
    const reached = ctx.store.hasEarnedBy(customerId, ruleId);
    let last: number | null = null;
    for (let i = ledger.length - 1; reached && i >= 0 && (last === null || ledger[i]!.createdAt + stepBack > last); i--) {
      const entry = ledger[i]!;
      if (entry.earnRuleId === ruleId && (last === null || entry.createdAt > last)) last = entry.createdAt;
    }
    return { limit: 1, period: "lifetime", awardsInWindow: reached ? 1 : 0, lastAwardAt: last, nextAllowedAt: null, reached };
  }
  const length = PERIOD_MS[limit.period];
  const since = ctx.clock.now() - length;
  const awards: number[] = [];
  for (let i = ledger.length - 1; i >= 0 && ledger[i]!.createdAt + stepBack > since; i--) {
    const entry = ledger[i]!;
    if (entry.earnRuleId === ruleId && entry.createdAt > since) awards.push(entry.createdAt);
  }
  // Newest first by date (appended out of date order after the clock went back).
  if (stepBack > 0) awards.sort((a, b) => b - a);
  const reached = awards.length >= limit.count;
  // It reopens once the award that keeps the count at the limit leaves the window.
  const nextAllowedAt = reached ? awards[limit.count - 1]! + length : null;
  return { limit: limit.count, period: limit.period, awardsInWindow: awards.length, lastAwardAt: awards[0] ?? null, nextAllowedAt, reached };
}

/** Why the rule may not award this customer now, or undefined when it may. */
function limitRefusal(ctx: EngineContext, customerId: string, ruleId: number, limit: EarnLimit): DomainError | undefined {
  const window = earnWindow(ctx, customerId, ruleId, limit);
  if (!window?.reached) return undefined;
  const rule = requireEarnRule(ctx, ruleId);
  const words = window.period === "lifetime" ? "can be awarded once per customer and already was" : `can be awarded at most ${window.limit} time(s) per ${window.period}`;
  const at = (ms: number | null) => (ms === null ? null : isoTimestamp(ms));
  return new DomainError("ACTIVITY_NOT_AWARDED", `Earn rule ${rule.id} (${rule.name}) ${words}`, undefined, {
    kind: "earnRuleLimit",
    customerId,
    earnRuleId: String(ruleId),
    limit: window.limit,
    period: window.period,
    awardsInWindow: window.awardsInWindow,
    lastAwardAt: at(window.lastAwardAt),
    nextAllowedAt: at(window.nextAllowedAt),
  });
}

/** Stamps for one qualifying action: step x rule multiplier x tier multiplier, rounded. */
export function earnAmount(ctx: EngineContext, customer: CustomerRecord, step: number, multiplier: number): number {
  const tierMultiplier = findTier(ctx, customer.vipTierId ?? -1)?.multiplier ?? 1;
  return Math.round(step * multiplier * tierMultiplier);
}

export function processEarnRule(ctx: EngineContext, id: string, ruleId: number): StampResult {
  const customer = requireCustomer(ctx, id);
  const rule = requireEarnRule(ctx, ruleId);
  requireChangeable(customer);
  const refusal = limitRefusal(ctx, id, rule.id, rule.limit);
  if (refusal) throw refusal;
  const stamps = earnAmount(ctx, customer, rule.step, rule.multiplier);
  applyStampChange(ctx, customer, { kind: "earn", change: stamps, label: rule.name, earnRuleId: rule.id });
  return { customerId: customer.id, stampChange: stamps, stampBalance: customer.balance };
}

/** The ledger, newest first. */
export function listActivities(ctx: EngineContext, id: string, query: PageQuery): Page<Activity> {
  requireCustomer(ctx, id);
  const ledger = ctx.store.activitiesOf(id);
  const page = paginate(
    {
      size: ledger.length,
      at: (i) => ledger[ledger.length - 1 - i]!,
      keyOf: (a) => String(a.id),
      locate: (key) => {
        const spot = ctx.store.activityPosition(Number(key));
        if (!spot || spot.customerId !== id) return undefined;
        return { before: ledger.length - 1 - spot.index, contains: true };
      },
    },
    query,
  );
  return { items: page.items.map(activityView), pagination: page.pagination };
}
