/**
 * The engine's records as the API's resources: string ids, `+00:00` timestamps, derived fields
 * (cards, next reward, expiry) computed here, and null fields left out.
 * @module
 */
import type { ShopStore } from "../store/shop-store.js";
import type {
  ActivityRecord,
  BeaconRecord,
  CodeRecord,
  CustomerRecord,
  EarnRuleRecord,
  Program,
  RewardRecord,
  TierRecord,
} from "../store/types.js";
import { isoTimestamp } from "./clock.js";
import { expiresAt } from "./ledger.js";
import { lowerBound } from "./pagination.js";

export interface Customer {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  stampBalance: number;
  cards: number;
  stampsToNextReward: number;
  stampsExpireAt?: string;
  vipTierId?: number;
  vipTierName?: string;
  dateOfBirth?: string;
  state: "active" | "removed";
  mergedIntoCustomerId?: string;
  nextReward?: { id: string; name: string };
}

export interface Activity {
  id: string;
  label: string;
  stampChange: number;
  createdAt: string;
}

export interface RewardCode {
  id: string;
  name: string;
  code: string;
  used: boolean;
  createdAt: string;
}

export interface Reward {
  id: string;
  name: string;
  price: number;
  exchangeType: RewardRecord["exchangeType"];
  iconUrl?: string;
}

export interface Tier {
  id: string;
  name: string;
  milestone: number;
  multiplier: number;
  iconUrl?: string;
  benefits: string;
  rewards: Reward[];
}

export interface EarnRule {
  id: string;
  name: string;
  type: string;
  step: number;
  multiplier: number;
  iconUrl?: string;
}

export interface Beacon {
  id: string;
  name: string;
  message: string;
  icon: string;
  active: boolean;
}

export interface Shop {
  programName: string;
  currencySymbol: string;
  stampBrandingPlural: string;
  stampCardValue: number;
  currency: string;
}

/** Rewards shown in `GET /rewards`: neither POS-only nor locked to a tier. */
export function isListed(reward: RewardRecord): boolean {
  return !reward.posOnly && reward.tierId === undefined;
}

/** Listed fixed-price rewards, cheapest first: what a customer works towards. Cached per program. */
const goalsCache = new WeakMap<Program, RewardRecord[]>();
function goals(program: Program): RewardRecord[] {
  let list = goalsCache.get(program);
  if (!list) {
    list = program.rewards.filter((r) => isListed(r) && r.exchangeType !== "variable").sort((a, b) => a.price - b.price);
    goalsCache.set(program, list);
  }
  return list;
}

/** The cheapest listed reward the customer cannot yet afford, else the dearest. */
export function nextRewardFor(program: Program, balance: number): RewardRecord | undefined {
  const list = goals(program);
  const i = lowerBound((k) => list[k]!.price, list.length, balance + 1);
  return list[i] ?? list[list.length - 1];
}

/** The customer as the API shows it; with its next reward as one customer is shown (not in a page). */
export function customerView(store: ShopStore, c: CustomerRecord, withNextReward: boolean): Customer {
  const program = store.data.program;
  const tier = program.tiers.find((t) => t.id === c.vipTierId);
  const next = nextRewardFor(program, c.balance);
  const expiry = expiresAt(program.settings, c);
  // Built field by field in the documented order (the order JSON shows): optional fields added
  // with conditional spreads cost a temporary object and a copy each, on every customer of a page.
  const view: Customer = {
    id: c.id,
    firstName: c.firstName,
    lastName: c.lastName,
    email: c.email,
    stampBalance: c.balance,
    cards: Math.floor(c.balance / program.settings.stampCardValue),
    stampsToNextReward: next ? Math.max(0, next.price - c.balance) : 0,
  } as Customer;
  if (expiry !== undefined) view.stampsExpireAt = isoTimestamp(expiry);
  if (tier) {
    view.vipTierId = tier.id;
    view.vipTierName = tier.name;
  }
  if (c.dateOfBirth !== undefined) view.dateOfBirth = c.dateOfBirth;
  view.state = c.excluded ? "removed" : c.platformState;
  if (c.mergedIntoCustomerId !== undefined) view.mergedIntoCustomerId = c.mergedIntoCustomerId;
  if (withNextReward && next) view.nextReward = { id: String(next.id), name: next.name };
  return view;
}

export function activityView(a: ActivityRecord): Activity {
  return { id: String(a.id), label: a.label, stampChange: a.stampChange, createdAt: isoTimestamp(a.createdAt) };
}

export function codeView(c: CodeRecord): RewardCode {
  return { id: String(c.id), name: c.name, code: c.code, used: c.used, createdAt: isoTimestamp(c.createdAt) };
}

export function rewardView(r: RewardRecord): Reward {
  return {
    id: String(r.id),
    name: r.name,
    price: r.price,
    exchangeType: r.exchangeType,
    ...(r.iconUrl !== undefined && { iconUrl: r.iconUrl }),
  };
}

export function tierView(program: Program, t: TierRecord): Tier {
  const rewards = t.rewardIds.map((id) => program.rewards.find((r) => r.id === id)).filter((r) => r !== undefined);
  return {
    id: String(t.id),
    name: t.name,
    milestone: t.milestone,
    multiplier: t.multiplier,
    ...(t.iconUrl !== undefined && { iconUrl: t.iconUrl }),
    benefits: t.benefits,
    rewards: rewards.map(rewardView),
  };
}

export function earnRuleView(r: EarnRuleRecord): EarnRule {
  return {
    id: String(r.id),
    name: r.name,
    type: r.type,
    step: r.step,
    multiplier: r.multiplier,
    ...(r.iconUrl !== undefined && { iconUrl: r.iconUrl }),
  };
}

export function beaconView(b: BeaconRecord): Beacon {
  return { id: String(b.id), name: b.name, message: b.message, icon: b.icon, active: b.active };
}

export function shopView(program: Program): Shop {
  const s = program.settings;
  return {
    programName: s.programName,
    currencySymbol: s.currencySymbol,
    stampBrandingPlural: s.stampBrandingPlural,
    stampCardValue: s.stampCardValue,
    currency: s.currency,
  };
}
