/**
 * Customer reads and the app-owned customer changes: PATCH (birthday, exclusion), tier
 * assignment, and the platform-side events (sync of a new customer, merge).
 * @module
 */
import type { CustomerChange, CustomerRecord } from "../store/types.js";
import { requireChangeable, requireTier, type EngineContext } from "./context.js";
import { DomainError, invalidField } from "./errors.js";
import { applyStampChange, NO_LOTS, requireCustomer, settleExpiry } from "./ledger.js";
import { lowerBound, paginate, type Page, type PageQuery, type OrderedView } from "./pagination.js";
import { requireStampAmount } from "./limits.js";
import { issueCode, requireRoomForCodes } from "./rewards.js";
import { JsonView } from "./json-view.js";
import { customerView, type Customer } from "./views.js";

export interface CustomerFilter {
  email?: string;
}

export function listCustomers(ctx: EngineContext, filter: CustomerFilter, query: PageQuery): Page<Customer> {
  const { store } = ctx;
  let view: OrderedView<CustomerRecord>;
  if (filter.email === undefined) {
    view = {
      size: store.customerCount,
      at: (i) => store.customerAt(i)!,
      keyOf: (c) => c.id,
      locate: (id) => {
        const pos = store.customerPosition(id);
        return pos === undefined ? undefined : { before: pos, contains: true };
      },
    };
  } else {
    const ids = store.customerIdsByEmail(filter.email);
    const posAt = (i: number) => store.customerPosition(ids[i]!)!;
    view = {
      size: ids.length,
      at: (i) => store.customer(ids[i]!)!,
      keyOf: (c) => c.id,
      locate: (id) => {
        const pos = store.customerPosition(id);
        if (pos === undefined) return undefined;
        const before = lowerBound(posAt, ids.length, pos);
        return { before, contains: ids[before] === id };
      },
    };
  }
  const page = paginate(view, query);
  return {
    items: page.items.map((c) => {
      settleExpiry(ctx, c);
      return customerView(store, c, false);
    }),
    pagination: page.pagination,
  };
}

/** The customer's view and its JSON text, kept on the store until the customer next changes. */
export function getCustomer(ctx: EngineContext, id: string): JsonView<Customer> {
  return ctx.store.keptView(requireCustomer(ctx, id), (c) => new JsonView(customerView(ctx.store, c, true)));
}

export interface CustomerPatch {
  birthday?: { month: number; day: number };
  excluded?: boolean;
}

export const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function updateCustomer(ctx: EngineContext, id: string, patch: CustomerPatch): Customer {
  const customer = requireCustomer(ctx, id);
  const fields: CustomerChange = {};
  if (patch.birthday) {
    const { month, day } = patch.birthday;
    const max = DAYS_IN_MONTH[month - 1]!;
    if (day > max) throw invalidField("birthday_day", `month ${month} has at most ${max} days`);
    fields.dateOfBirth = `${String(day).padStart(2, "0")}-${String(month).padStart(2, "0")}`;
  }
  if (patch.excluded !== undefined && patch.excluded !== customer.excluded) Object.assign(fields, exclusion(ctx, customer, patch.excluded));
  ctx.store.updateCustomer(customer, fields);
  return customerView(ctx.store, customer, false);
}

/**
 * Removing a customer pauses their expiry (a removed customer is left out of balance
 * recalculation); re-including them resumes it where it stopped, so the time spent removed does
 * not count towards any expiry date.
 */
function exclusion(ctx: EngineContext, customer: CustomerRecord, excluded: boolean): CustomerChange {
  const now = ctx.clock.now();
  if (excluded) return { excluded, excludedAt: now };
  const paused = customer.excludedAt === undefined ? 0 : Math.max(0, now - customer.excludedAt);
  return {
    excluded,
    excludedAt: undefined,
    lastMovementAt: customer.lastMovementAt === undefined ? undefined : customer.lastMovementAt + paused,
    lots: customer.lots.map((lot) => ({ amount: lot.amount, expiresAt: lot.expiresAt + paused })),
  };
}

export interface TierChange {
  tierId: number;
  triggerRewards: boolean;
  comment?: string;
  internalComment?: string;
}

export function setCustomerTier(ctx: EngineContext, id: string, change: TierChange): Customer {
  const customer = requireCustomer(ctx, id);
  const tier = requireTier(ctx, change.tierId);
  requireChangeable(customer);
  if (change.triggerRewards) requireRoomForCodes(ctx, customer, tier.rewardIds.length);
  ctx.store.updateCustomer(customer, { vipTierId: tier.id });
  applyStampChange(ctx, customer, {
    kind: "tier",
    change: 0,
    label: change.comment ?? `VIP tier set to ${tier.name}`,
    ...(change.internalComment !== undefined && { internalComment: change.internalComment }),
  });
  if (change.triggerRewards) {
    for (const rewardId of tier.rewardIds) {
      const reward = ctx.store.data.program.rewards.find((r) => r.id === rewardId)!;
      issueCode(ctx, customer, reward, 0, `${tier.name} tier reward: ${reward.name}`);
    }
  }
  return customerView(ctx.store, customer, false);
}

export interface NewCustomer {
  id?: string;
  firstName: string;
  lastName: string;
  email: string;
  phone?: string;
  dateOfBirth?: string;
  stampBalance?: number;
}

/** A customer as if just synced from the commerce platform (customers never come from the API). */
export function syncCustomer(ctx: EngineContext, input: NewCustomer): Customer {
  return customerView(ctx.store, addCustomerRecord(ctx, input), true);
}

/** The record behind `syncCustomer`, without building the resource (generation needs no view). */
export function addCustomerRecord(ctx: EngineContext, input: NewCustomer): CustomerRecord {
  const { store, clock } = ctx;
  // Before the record is added: a refusal must come before any change.
  if (input.stampBalance !== undefined) requireStampAmount("stampBalance", input.stampBalance);
  const id = input.id ?? nextCustomerId(ctx);
  if (store.customer(id)) throw invalidField("id", `customer ${id} already exists`);
  const record: CustomerRecord = {
    id,
    firstName: input.firstName,
    lastName: input.lastName,
    email: input.email,
    ...(input.phone !== undefined && { phone: input.phone }),
    ...(input.dateOfBirth !== undefined && { dateOfBirth: input.dateOfBirth }),
    platformState: "active",
    excluded: false,
    balance: 0,
    earned: 0,
    lots: NO_LOTS,
    createdAt: clock.now(),
  };
  store.addCustomer(record);
  if (input.stampBalance) {
    const label = ctx.store.data.program.settings.manualAdjustmentLabel;
    applyStampChange(ctx, record, { kind: "award", change: input.stampBalance, label, internalComment: "Imported balance" });
  }
  return record;
}

const FIRST_ID = 7_000_000_000_000n;
/** The largest id a cursor can carry (RECORD_ID: 20 digits). */
const LAST_ID = 10n ** 20n - 1n;

/**
 * Shopify-like customer ids: 13 digits, increasing with creation. After an id near the 20-digit
 * limit they start again from the first free one, so a generated id always fits a cursor.
 */
function nextCustomerId(ctx: EngineContext): string {
  const last = ctx.store.customerAt(ctx.store.customerCount - 1);
  let candidate = last ? BigInt(last.id) + 1n + BigInt(Math.floor(ctx.random.next() * 5000)) : FIRST_ID;
  if (candidate > LAST_ID) candidate = FIRST_ID;
  while (ctx.store.customer(String(candidate))) candidate += 1n;
  return String(candidate);
}

/** Platform-side merge: the balance moves to the kept customer; the merged one is frozen. */
export function mergeCustomer(ctx: EngineContext, id: string, intoId: string): Customer {
  const from = requireCustomer(ctx, id);
  const into = requireCustomer(ctx, intoId);
  if (from === into) throw invalidField("into", "a customer cannot be merged into itself");
  requireChangeable(from);
  requireChangeable(into);
  const amount = from.balance;
  if (amount > 0) {
    // The credit first: if it would overflow it is refused before anything changed.
    applyStampChange(ctx, into, { kind: "merge", change: amount, label: `Merged from customer ${from.id}` });
    applyStampChange(ctx, from, { kind: "merge", change: -amount, label: `Merged into customer ${into.id}` });
  }
  ctx.store.updateCustomer(from, { mergedIntoCustomerId: into.id });
  return customerView(ctx.store, from, true);
}
