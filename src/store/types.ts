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

/**
 * What a reward is priced in. `free_product` (production's GraphQL docs) costs its price in stamps,
 * as `stamps` does: the type says what the code buys, not how it is paid.
 */
export const EXCHANGE_TYPES = ["stamps", "cards", "variable", "free_product"] as const;
export type ExchangeType = (typeof EXCHANGE_TYPES)[number];

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

/** Unspent earnings with their own expiry (fixed expiry only). */
export interface Lot {
  readonly amount: number;
  readonly expiresAt: number;
}

/** Read-only: every change goes through `ShopStore.updateCustomer`, which gives it a version. */
export interface CustomerRecord {
  readonly id: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
  readonly phone?: string;
  /** `dd-mm` */
  readonly dateOfBirth?: string;
  /** The loyalty state the commerce platform reports; `excluded` overrides it with `removed`. */
  readonly platformState: "active";
  readonly excluded: boolean;
  /** When `excluded` was last set (epoch ms): expiry is paused from then until re-inclusion. */
  readonly excludedAt?: number;
  readonly mergedIntoCustomerId?: string;
  readonly vipTierId?: number;
  /** Cached sum of the customer's ledger; always equal to it. */
  readonly balance: number;
  /** Sum of stamps earned (award, positive adjust, earn rules): drives VIP milestones. */
  readonly earned: number;
  /** Last earn or spend (epoch ms): the start of a rolling expiry period. */
  readonly lastMovementAt?: number;
  /** Unspent earnings with their own expiry (fixed expiry only), oldest first. */
  readonly lots: readonly Lot[];
  readonly createdAt: number;
}

/** What a write may change of a customer: not its id or email, which the indexes are keyed by. */
export type CustomerChange = {
  -readonly [K in "dateOfBirth" | "excluded" | "excludedAt" | "mergedIntoCustomerId" | "vipTierId" | "balance" | "earned" | "lastMovementAt" | "lots"]?: CustomerRecord[K];
};

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

/** Read-only: `used` and `voided` change through `ShopStore.updateCode`. */
export interface CodeRecord {
  readonly id: number;
  readonly customerId: string;
  readonly rewardId: number;
  readonly name: string;
  readonly code: string;
  readonly used: boolean;
  readonly voided: boolean;
  /** Stamps spent on the code (0 for grants): what a void refunds. */
  readonly cost: number;
  readonly createdAt: number;
}

export type CodeChange = { -readonly [K in "used" | "voided"]?: CodeRecord[K] };

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
