/**
 * The only code that moves stamps. Every change is a ledger activity, so a customer's balance is
 * always the sum of their activities' `stampChange`; after each change the VIP tier is
 * recalculated, and expiry bookkeeping (rolling clock or fixed lots) is kept.
 * @module
 */
import type { ActivityKind, ActivityRecord, CustomerChange, CustomerRecord, Lot, ShopSettings } from "../store/types.js";
import { DAY_MS } from "./clock.js";
import type { EngineContext } from "./context.js";
import { DomainError, invalidField } from "./errors.js";
import { MAX_STAMPS, MAX_STAMPS_WHY } from "./limits.js";

/** Kinds whose stamps count as "earned" towards VIP milestones. Spending never demotes. */
const EARNING_KINDS: ReadonlySet<ActivityKind> = new Set(["award", "adjust", "earn"]);

export interface StampChange {
  kind: ActivityKind;
  change: number;
  label: string;
  internalComment?: string;
  earnRuleId?: number;
  /** Defaults to the clock's now; expiry writes the instant the stamps expired. */
  at?: number;
}

/** The input field an overflowing credit came from, when it is not `stamps`. */
const OVERFLOW_CAUSE: Partial<Record<ActivityKind, string>> = {
  earn: "earn_rule_id",
  refund: "codeId",
  merge: "into",
};

export function applyStampChange(ctx: EngineContext, customer: CustomerRecord, change: StampChange): ActivityRecord {
  const at = change.at ?? ctx.clock.now();
  const balance = customer.balance + change.change;
  if (balance < 0) {
    throw new DomainError(
      "INSUFFICIENT_STAMPS",
      `Customer ${customer.id} has ${customer.balance} stamps; ${-change.change} are needed`,
      undefined,
      { kind: "insufficientStamps", customerId: customer.id, balance: customer.balance, price: -change.change },
    );
  }
  // Also refuses a change that is not a finite number (an earn rule's product overflowing).
  if (!(balance <= MAX_STAMPS)) {
    throw invalidField(OVERFLOW_CAUSE[change.kind] ?? "stamps", `would take the balance beyond ${MAX_STAMPS}, ${MAX_STAMPS_WHY}`);
  }
  // One literal with every field, absent ones undefined (JSON leaves them out): no spreads, one
  // object shape, all fields in-object. This runs half a million times when a large shop is seeded.
  const entry: ActivityRecord = {
    id: 0,
    customerId: customer.id,
    kind: change.kind,
    label: change.label,
    internalComment: change.internalComment,
    stampChange: change.change,
    earnRuleId: change.earnRuleId,
    createdAt: at,
  };
  const activity = ctx.store.appendActivity(entry);
  const settings = ctx.store.data.program.settings;
  const fields: CustomerChange = { balance };
  if (change.kind !== "expire" && change.change !== 0) {
    fields.lastMovementAt = at;
    if (settings.expiry.mode === "fixed") fields.lots = movedLots(customer.lots, change.change, at + settings.expiry.days * DAY_MS);
  }
  if (EARNING_KINDS.has(change.kind) && change.change > 0) {
    // Only milestones read it, so it saturates rather than refusing a balance that fits.
    fields.earned = Math.min(Number.MAX_SAFE_INTEGER, customer.earned + change.change);
    const tierId = promotion(ctx, customer.vipTierId, fields.earned);
    if (tierId !== undefined) fields.vipTierId = tierId;
  }
  ctx.store.updateCustomer(customer, fields);
  return activity;
}

/** The lots of every customer who has none: one shared array, not one per customer (lots are replaced, never changed). */
export const NO_LOTS: readonly Lot[] = Object.freeze([]);

/** Fixed expiry: earnings become lots with their own expiry; spending uses the oldest first. */
function movedLots(lots: readonly Lot[], change: number, expiresAt: number): Lot[] {
  if (change > 0) return [...lots, { amount: change, expiresAt }];
  const left = lots.slice();
  let due = -change;
  while (due > 0 && left.length > 0) {
    const lot = left[0]!;
    const taken = Math.min(lot.amount, due);
    due -= taken;
    if (taken === lot.amount) left.shift();
    else left[0] = { amount: lot.amount - taken, expiresAt: lot.expiresAt };
  }
  return left;
}

/** The highest tier an earned total reaches, when above the current one (never down). */
function promotion(ctx: EngineContext, currentId: number | undefined, earned: number): number | undefined {
  const tiers = ctx.store.data.program.tiers;
  const current = tiers.find((t) => t.id === currentId);
  let best = current;
  for (const tier of tiers) {
    if (tier.milestone <= earned && (!best || tier.milestone > best.milestone)) best = tier;
  }
  return best && best !== current ? best.id : undefined;
}

/** When the balance expires, or undefined when expiry is off or nothing is left to expire. */
export function expiresAt(settings: ShopSettings, customer: CustomerRecord): number | undefined {
  const expiry = settings.expiry;
  if (expiry.mode === "off" || customer.balance <= 0) return undefined;
  if (expiry.mode === "fixed") return customer.lots[0]?.expiresAt;
  return customer.lastMovementAt === undefined ? undefined : customer.lastMovementAt + expiry.days * DAY_MS;
}

/** The customer, with any stamps that expired by now already taken out of the balance. */
export function requireCustomer(ctx: EngineContext, id: string): CustomerRecord {
  const customer = ctx.store.customer(id);
  if (!customer) throw new DomainError("CUSTOMER_NOT_FOUND", `Customer ${id} not found`);
  settleExpiry(ctx, customer);
  return customer;
}

/**
 * Takes out every stamp whose expiry has passed, one activity per expiry, dated when the stamps
 * expired. Called before any read or write of a customer, so the ledger stays in time order.
 * Removed customers are excluded from balance recalculation, so nothing expires for them.
 */
export function settleExpiry(ctx: EngineContext, customer: CustomerRecord): void {
  const settings = ctx.store.data.program.settings;
  if (settings.expiry.mode === "off" || customer.excluded) return;
  const now = ctx.clock.now();
  for (;;) {
    const at = expiresAt(settings, customer);
    if (at === undefined || at > now) return;
    let amount = customer.balance;
    if (settings.expiry.mode === "fixed") {
      amount = customer.lots[0]!.amount;
      ctx.store.updateCustomer(customer, { lots: customer.lots.slice(1) });
    }
    applyStampChange(ctx, customer, {
      kind: "expire",
      change: -amount,
      label: `${amount} ${amount === 1 ? settings.stampBrandingSingular : settings.stampBrandingPlural} expired`,
      at,
    });
  }
}
