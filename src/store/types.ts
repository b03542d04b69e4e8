/**
 * The persisted shape of a shop: plain JSON-able records only. Indexes over these records are
 * rebuilt in memory (see `shop-store.ts`), so the same data can live in memory or in a lowdb file.
 * @module
 */

/** How a shop's stamps expire. `rolling`: the whole balance expires N days after the last earn or
 * spend. `fixed`: each earning expires N days after it was earned. */
export type ExpirySetting = { mode: "off" } | { mode: "rolling" | "fixed"; days: number };

export interface ShopSettings {
  programName: string;
  currencySymbol: string;
  currency: string;
  stampBrandingSingular: string;
  stampBrandingPlural: string;
  stampCardValue: number;
  /** Activity label used when award/adjust is sent without a comment. */
  manualAdjustmentLabel: string;
  /** Prefix of issued discount codes, e.g. `LOYAL` gives `LOYAL-7Q2X9K`. */
  codePrefix: string;
  expiry: ExpirySetting;
}

/** Access and quota of a shop, as production configures them per shop. */
export interface ShopAccess {
  apiKey: string;
  apiSecret: string;
  apiAccess: boolean;
  plan: "free" | "paid";
  /** Requests per hour, or null for no limit. */
  rateLimit: number | null;
}

export type ExchangeType = "stamps" | "cards" | "variable";

export interface RewardRecord {
  id: number;
  name: string;
  /** Cost in stamps (for `cards` rewards too; for `variable` rewards the default amount). */
  price: number;
  exchangeType: ExchangeType;
  iconUrl?: string;
  /** Only redeemable at the point of sale: left out of `GET /rewards`. */
  posOnly?: boolean;
  /** Only members of this tier (or a higher one) may redeem it: left out of `GET /rewards`. */
  tierId?: number;
  /** Bounds of `variable_amount` for variable rewards. */
  minAmount?: number;
  maxAmount?: number;
}

export interface TierRecord {
  id: number;
  name: string;
  milestone: number;
  multiplier: number;
  iconUrl?: string;
  benefits: string;
  rewardIds: number[];
}

/** How often one customer may be awarded by an earn rule. */
export type EarnLimit =
  | { kind: "none" }
  | { kind: "lifetime" }
  | { kind: "period"; count: number; period: "day" | "week" | "year" };

export interface EarnRuleRecord {
  id: number;
  name: string;
  type: string;
  step: number;
  multiplier: number;
  iconUrl?: string;
  limit: EarnLimit;
}

export interface BeaconRecord {
  id: number;
  name: string;
  message: string;
  icon: string;
  active: boolean;
}

/** The merchant's program: everything the fixtures define. */
export interface Program {
  settings: ShopSettings;
  tiers: TierRecord[];
  earnRules: EarnRuleRecord[];
  rewards: RewardRecord[];
  beacons: BeaconRecord[];
}

export interface CustomerRecord {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone?: string;
  /** `dd-mm` */
  dateOfBirth?: string;
  /** The loyalty state the commerce platform reports; `excluded` overrides it with `removed`. */
  platformState: "active";
  excluded: boolean;
  /** When `excluded` was last set (epoch ms): expiry is paused from then until re-inclusion. */
  excludedAt?: number;
  mergedIntoCustomerId?: string;
  vipTierId?: number;
  /** Cached sum of the customer's ledger; always equal to it. */
  balance: number;
  /** Sum of stamps earned (award, positive adjust, earn rules): drives VIP milestones. */
  earned: number;
  /** Last earn or spend (epoch ms): the start of a rolling expiry period. */
  lastMovementAt?: number;
  /** Unspent earnings with their own expiry (fixed expiry only), oldest first. */
  lots: { amount: number; expiresAt: number }[];
  createdAt: number;
}

/** Why a ledger entry was written (internal; not part of the API). */
export type ActivityKind =
  | "award"
  | "adjust"
  | "earn"
  | "redeem"
  | "grant"
  | "refund"
  | "expire"
  | "tier"
  | "merge";

export interface ActivityRecord {
  id: number;
  customerId: string;
  kind: ActivityKind;
  label: string;
  internalComment?: string;
  stampChange: number;
  earnRuleId?: number;
  createdAt: number;
}

export interface CodeRecord {
  id: number;
  customerId: string;
  rewardId: number;
  name: string;
  code: string;
  used: boolean;
  voided: boolean;
  /** Stamps spent on the code (0 for grants): what a void refunds. */
  cost: number;
  createdAt: number;
}

export interface ShopData {
  id: string;
  seed: number;
  access: ShopAccess;
  program: Program;
  customers: CustomerRecord[];
  activities: ActivityRecord[];
  codes: CodeRecord[];
  nextActivityId: number;
  nextCodeId: number;
}
