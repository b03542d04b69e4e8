/**
 * Reads of a shop's customers for the inspector and test authors, without the shop's secret:
 * a search, one customer's whole picture (codes grouped, the ledger page, what happens to them
 * next), and the shop's next time-based events. Expiry settles on read, as the API's own reads do
 * (a read at the shop's clock shows what `GET /customers/{id}` would show then); nothing else is
 * written, and neither the quota nor the journal sees these calls.
 * @module
 */
import { isoTimestamp } from "../engine/clock.js";
import { settleExpiry } from "../engine/ledger.js";
import type { PageQuery } from "../engine/pagination.js";
import type { ShopEngine } from "../engine/shop-engine.js";
import { earnWindow } from "../engine/stamps.js";
import { codeView, customerView } from "../engine/views.js";
import type { CustomerRecord } from "../store/types.js";
import type { CustomerDetail, CustomerSearch, UpcomingEvent } from "./inspect.schemas.js";

/** Lots listed per customer at most (fixed expiry): the rest expire later still. */
const MAX_LOTS = 10;
/** Ledger entries the shop's upcoming events look back over for earn-rule windows. */
const EARN_SCAN = 10_000;

const settled = (shop: ShopEngine, c: CustomerRecord) => {
  settleExpiry(shop.ctx, c);
  return c;
};

/**
 * Customers whose id, email or name holds `q` (any case), in the API's order, after the customer
 * `after`; at most `limit`. Work is one pass over the shop's customers at most.
 */
export function searchCustomers(shop: ShopEngine, q: string | undefined, after: string | undefined, limit: number): CustomerSearch {
  const { store } = shop;
  const needle = q?.toLowerCase();
  const start = after === undefined ? 0 : (store.customerPosition(after) ?? -1) + 1;
  const customers: CustomerSearch["customers"] = [];
  let next: string | null = null;
  for (let i = start; i < store.customerCount; i++) {
    const c = store.customerAt(i)!;
    if (needle !== undefined && !`${c.id}\n${c.email}\n${c.firstName} ${c.lastName}`.toLowerCase().includes(needle)) continue;
    if (customers.length === limit) {
      next = customers[customers.length - 1]?.id ?? null;
      break;
    }
    customers.push(customerView(store, settled(shop, c), false));
  }
  return { customers, nextAfter: next };
}

/** When the customer's stamps expire next, and how many (fixed expiry: each lot). */
function expiries(shop: ShopEngine, c: CustomerRecord): { at: number; stamps: number }[] {
  const { expiry } = shop.store.data.program.settings;
  if (expiry.mode === "off" || c.excluded || c.balance <= 0) return [];
  if (expiry.mode === "fixed") return c.lots.slice(0, MAX_LOTS).map((lot) => ({ at: lot.expiresAt, stamps: lot.amount }));
  return c.lastMovementAt === undefined ? [] : [{ at: c.lastMovementAt + expiry.days * 86_400_000, stamps: c.balance }];
}

/** Earn rules whose limit the customer has reached and that will award them again. */
function reopenings(shop: ShopEngine, c: CustomerRecord): UpcomingEvent[] {
  const events: UpcomingEvent[] = [];
  for (const rule of shop.store.data.program.earnRules) {
    const window = earnWindow(shop.ctx, c.id, rule.id, rule.limit);
    if (!window?.reached || window.nextAllowedAt === null) continue;
    events.push({ kind: "earnRuleReopens", at: isoTimestamp(window.nextAllowedAt), customerId: c.id, earnRuleId: String(rule.id), detail: `earn rule ${rule.id} (${rule.name}) may award again (limit ${window.limit} per ${window.period})` });
  }
  return events;
}

function customerEvents(shop: ShopEngine, c: CustomerRecord): UpcomingEvent[] {
  const expiring: UpcomingEvent[] = expiries(shop, c).map((e) => ({ kind: "expiry", at: isoTimestamp(e.at), customerId: c.id, stamps: e.stamps, detail: `${e.stamps} stamps of customer ${c.id} expire` }));
  return [...expiring, ...reopenings(shop, c)].sort((a, b) => a.at.localeCompare(b.at));
}

/** One customer as the inspector shows them; undefined for an id the shop has not. */
export function customerDetail(shop: ShopEngine, id: string, ledger: PageQuery): CustomerDetail | undefined {
  const record = shop.store.customer(id);
  if (!record) return undefined;
  const customer = shop.getCustomer(id).value;
  const codes: CustomerDetail["codes"] = { available: [], used: [], voided: [] };
  // Newest first, as the ledger.
  const all = shop.store.codesOf(id);
  for (let i = all.length - 1; i >= 0; i--) {
    const code = all[i]!;
    const group = code.voided ? codes.voided : code.used ? codes.used : codes.available;
    if (group.length < MAX_CODES) group.push({ ...codeView(code), cost: code.cost });
  }
  return { customer, codes, codeCount: all.length, ledger: shop.listActivities(id, ledger), upcoming: customerEvents(shop, record) };
}

/** Codes listed per group at most, the newest. */
const MAX_CODES = 100;

/**
 * The shop's next time-based events, soonest first, at most `limit`: expiries (one pass over the
 * customers), earn-rule windows reopening (for customers awarded by a limited rule among the
 * newest EARN_SCAN ledger entries), and the end of the quota window.
 */
export function upcomingEvents(shop: ShopEngine, quotaEnd: number | undefined, limit: number): UpcomingEvent[] {
  const now = shop.clock.now();
  const events: UpcomingEvent[] = [];
  if (quotaEnd !== undefined && quotaEnd > now) events.push({ kind: "quotaWindowEnds", at: isoTimestamp(quotaEnd), detail: `the hourly quota of ${shop.access.rateLimit} requests starts again` });
  const { store } = shop;
  for (let i = 0; i < store.customerCount; i++) {
    const c = settled(shop, store.customerAt(i)!);
    const next = expiries(shop, c)[0];
    if (next) events.push({ kind: "expiry", at: isoTimestamp(next.at), customerId: c.id, stamps: next.stamps, detail: `${next.stamps} stamps of customer ${c.id} expire` });
  }
  const limited = new Set(store.data.program.earnRules.filter((r) => r.limit.kind === "period").map((r) => r.id));
  const seen = new Set<string>();
  const activities = store.data.activities;
  for (let i = activities.length - 1; i >= Math.max(0, activities.length - EARN_SCAN); i--) {
    const a = activities[i]!;
    if (a.earnRuleId === undefined || !limited.has(a.earnRuleId) || seen.has(a.customerId)) continue;
    seen.add(a.customerId);
    const c = store.customer(a.customerId);
    if (c) events.push(...reopenings(shop, c));
  }
  return events.sort((a, b) => a.at.localeCompare(b.at)).slice(0, limit);
}
