/**
 * The calls the isolation property draws: every API operation, and the control calls that act on
 * one shop (its customers, clock, scenarios, journal, and its reset), each named with ids drawn
 * from every shop.
 * @module
 */
import fc from "fast-check";
import { OPERATION_IDS, OPERATIONS, type OperationId } from "../../src/contract/index.js";
import { DAY_MS, isoTimestamp } from "../../src/engine/clock.js";
import { encodeCursor } from "../../src/engine/pagination.js";
import type { ShopStore } from "../../src/store/shop-store.js";
import { NOW } from "../support/sim.js";

const REWARD_IDS = [101, 102, 103, 104, 105, 106, 107, 108, 109];

/** What fast-check draws for one call: the calling shop, the operation, and indexes into the ids of all shops. */
export interface Draw {
  shop: number;
  op: OpName;
  /** The customer: the `who`-th of shop `whose` (the caller's own, or one of another shop, whose id may collide). */
  whose: number;
  who: number;
  other: number;
  n: number;
  flag: boolean;
  /** Codes and activities of the chosen customer id (in any shop) rather than of anyone. */
  near: boolean;
  wrongSecret: boolean;
}

/** The ids a call names, drawn from the union over all shops at the time of the call. */
export interface Ids {
  customer: string;
  other: string;
  code: number;
  activity: number;
  email: string;
  n: number;
  flag: boolean;
}

/** What the caller's own records are in an answer. */
export type Returns = "customer" | "stamps" | "activities" | "codes" | "issued";

export interface Req {
  method: string;
  path: string;
  body?: unknown;
  /** A /__sim call: the shop is chosen by X-Api-Key alone. */
  control?: boolean;
  /** Must name the caller's own records, else the exact refusal. */
  customer?: string;
  into?: string;
  code?: number;
  afterCustomer?: string;
  afterActivity?: number;
  /** A synced customer's id: taken only if the caller's shop already has it. */
  newCustomer?: string;
  returns?: Returns;
}

const onCustomer = (x: Ids, method: string, sub: string, body: unknown, returns?: Returns): Req => ({
  method,
  path: `/customers/${x.customer}${sub}`,
  body,
  customer: x.customer,
  ...(returns && { returns }),
});
const onCode = (x: Ids, action: string): Req => ({ ...onCustomer(x, "POST", `/reward-codes/${x.code}/${action}`, undefined, "codes"), code: x.code });
const read = (path: string): Req => ({ method: "GET", path });
const control = (method: string, path: string, body?: unknown): Req => ({ method, path, control: true, ...(body !== undefined && { body }) });

/** A move of the shop's clock: forwards or back by up to about 50 days, to an instant, or frozen or not. */
function clockChange(x: Ids): object {
  switch (x.n % 3) {
    case 0:
      return { advanceSeconds: (x.flag ? 1 : -1) * (x.n % 50) * (x.n % 2 ? 86_400 : 3_600) };
    case 1:
      return { frozen: x.flag };
    default:
      return { set: isoTimestamp(NOW + ((x.n % 120) - 20) * DAY_MS) };
  }
}

/**
 * A request for an operation from its declaration alone: its path with the drawn customer and
 * code, and an empty body when it takes one (refused before the ids are looked up, and so
 * expected as nothing more than a refusal that changes no shop).
 */
function declared(id: OperationId) {
  const op: { method: string; path: string; body?: unknown } = OPERATIONS[id];
  return (x: Ids): Req => {
    const path = op.path.replace("{id}", x.customer).replace("{codeId}", String(x.code)).replace(/\{\w+\}/g, String(x.n));
    if (op.body !== undefined) return { method: op.method.toUpperCase(), path, body: {} };
    return {
      method: op.method.toUpperCase(),
      path,
      ...(op.path.startsWith("/customers/{id}") && { customer: x.customer }),
      ...(op.path.includes("{codeId}") && { code: x.code }),
    };
  };
}

/** Requests richer than `declared` gives, for API operations: real ids, bodies that pass, cursors. */
const API_CALLS: Partial<Record<OperationId, (x: Ids) => Req>> = {
  listCustomers: (x: Ids): Req =>
    x.flag
      ? { ...read(`/customers?limit=100&email=${encodeURIComponent(x.email)}`), returns: "customer" }
      : { ...read(`/customers?limit=3&after=${encodeCursor(x.customer)}`), afterCustomer: x.customer, returns: "customer" },
  getCustomer: (x: Ids) => onCustomer(x, "GET", "", undefined, "customer"),
  updateCustomer: (x: Ids) =>
    onCustomer(x, "PATCH", "", x.n % 8 === 0 ? { excluded: x.flag } : { birthday_month: 1 + (x.n % 12), birthday_day: 1 + (x.n % 28) }, "customer"),
  setCustomerTier: (x: Ids) => onCustomer(x, "POST", "/tier", { tier_id: 1 + (x.n % 4), trigger_rewards: x.flag }, "customer"),
  awardStamps: (x: Ids) => onCustomer(x, "POST", "/stamps/award", { stamps: 1 + (x.n % 40) }, "stamps"),
  adjustStamps: (x: Ids) => onCustomer(x, "POST", "/stamps/adjust", { stamps: (x.flag ? 1 : -1) * (1 + (x.n % 20)) }, "stamps"),
  processEarnRule: (x: Ids) => onCustomer(x, "POST", "/activities", { earn_rule_id: 201 + (x.n % 7) }, "stamps"),
  listActivities: (x: Ids): Req => ({
    ...onCustomer(x, "GET", `/activities?limit=5${x.flag ? `&after=${encodeCursor(String(x.activity))}` : ""}`, undefined, "activities"),
    ...(x.flag && { afterActivity: x.activity }),
  }),
  redeemReward: (x: Ids) => onCustomer(x, "POST", "/redemptions", { reward_product_id: REWARD_IDS[x.n % 9], variable_amount: 1 + (x.n % 20) }, "issued"),
  grantReward: (x: Ids) => onCustomer(x, "POST", "/reward-grants", { reward_product_id: REWARD_IDS[x.n % 9] }, "issued"),
  listRewardCodes: (x: Ids) => onCustomer(x, "GET", `/reward-codes?available=${x.flag}`, undefined, "codes"),
  useRewardCode: (x: Ids) => onCode(x, "use"),
  voidRewardCode: (x: Ids) => onCode(x, "void"),
  listRewards: () => read("/rewards"),
  getReward: (x: Ids) => read(`/rewards/${101 + (x.n % 10)}`),
  listTiers: () => read("/tiers"),
  getTier: (x: Ids) => read(`/tiers/${1 + (x.n % 5)}`),
  listEarnRules: () => read("/earn-rules"),
  getEarnRule: (x: Ids) => read(`/earn-rules/${201 + (x.n % 8)}`),
  getShop: () => read("/shop"),
  listBeacons: () => read("/beacons"),
};

/** Every API operation of the contract, and the control calls that act on one shop. */
export const OPS = {
  ...(Object.fromEntries(OPERATION_IDS.map((id) => [id, API_CALLS[id] ?? declared(id)])) as Record<OperationId, (x: Ids) => Req>),
  syncCustomer: (x: Ids): Req => {
    const id = x.flag ? x.customer : String(4242 + (x.n % 2));
    const body = { id, firstName: "Iso", lastName: "Lated", email: "iso@example.com", stampBalance: x.n % 30 };
    return { ...control("POST", "/__sim/customers", body), newCustomer: id, returns: "customer" };
  },
  mergeCustomer: (x: Ids): Req => ({ ...control("POST", `/__sim/customers/${x.customer}/merge`, { into: x.other }), customer: x.customer, into: x.other, returns: "customer" }),
  moveClock: (x: Ids) => control("POST", "/__sim/clock", clockChange(x)),
  readClock: () => control("GET", "/__sim/clock"),
  resetShop: () => control("POST", "/__sim/reset"),
  addScenario: (x: Ids) =>
    control("POST", "/__sim/scenarios", {
      name: `own${x.n % 2}`,
      rules: [{ match: { operation: x.flag ? "listTiers" : "getShop" }, times: 1 + (x.n % 3), respond: { error: "RATE_LIMITED" } }],
    }),
  removeScenario: (x: Ids) => control("DELETE", `/__sim/scenarios/${["own0", "own1", "boot"][x.n % 3]}`),
  clearScenarios: () => control("DELETE", "/__sim/scenarios"),
  listScenarios: () => control("GET", "/__sim/scenarios"),
  clearJournal: () => control("DELETE", "/__sim/requests"),
};
export type OpName = keyof typeof OPS;

/** Calls on a customer and on codes are the interesting ones; program reads, merges and resets are rarer. */
const WEIGHTS: Partial<Record<OpName, number>> = {
  useRewardCode: 6,
  voidRewardCode: 6,
  redeemReward: 4,
  grantReward: 4,
  getCustomer: 4,
  listActivities: 4,
  // What the start-up scenario and the shops' own ones answer.
  listTiers: 2,
  getShop: 2,
  listBeacons: 2,
};
const RARE: OpName[] = ["listRewards", "getReward", "getTier", "listEarnRules", "getEarnRule", "mergeCustomer", "resetShop", "readClock", "listScenarios", "clearScenarios", "clearJournal"];
const opArb = fc.oneof(...(Object.keys(OPS) as OpName[]).map((op) => ({ arbitrary: fc.constant(op), weight: WEIGHTS[op] ?? (RARE.includes(op) ? 1 : 3) })));
export const drawArb: fc.Arbitrary<Draw> = fc.record({
  shop: fc.nat(2),
  op: opArb,
  whose: fc.nat(2),
  who: fc.nat(),
  other: fc.nat(),
  n: fc.nat(1000),
  flag: fc.boolean(),
  near: fc.boolean(),
  wrongSecret: fc.nat(24).map((k) => k === 24),
});

const union = <T>(lists: T[][]): T[] => [...new Set(lists.flat())].sort();
const nth = <T>(list: T[], i: number): T | undefined => list[i % Math.max(1, list.length)];

export function idsFor(draw: Draw, stores: ShopStore[]): Ids {
  const everyone = union(stores.map((s) => s.data.customers.map((c) => c.id)));
  const customer = nth(stores[draw.whose]!.data.customers, draw.who)!.id;
  const codes = union(stores.map((s) => (draw.near ? s.codesOf(customer) : s.data.codes).map((c) => c.id)));
  const activities = union(stores.map((s) => (draw.near ? s.activitiesOf(customer) : s.data.activities).map((a) => a.id)));
  const emails = union(stores.map((s) => s.data.customers.map((c) => c.email)));
  return {
    customer,
    other: nth(everyone, draw.other)!,
    code: nth(codes, draw.other) ?? 100_001,
    activity: nth(activities, draw.other) ?? 1,
    email: nth(emails, draw.other)!,
    n: draw.n,
    flag: draw.flag,
  };
}
