/**
 * The store's records as files hold them (a `--data` file's shops, a fixture's customers once
 * read): each record's schema, and the rules across records (unique customer ids, references that
 * resolve, balance = sum of the ledger). The data file and the fixture loader both check through
 * here, each naming the fields at fault by its own paths.
 * @module
 */
import { z } from "zod";
import { CLOCK_MAX_MS, CLOCK_MIN_MS, isoTimestamp } from "../engine/clock.js";
import { MAX_STAMPS, MAX_STAMPS_WHY } from "../engine/limits.js";
import { RECORD_ID, RECORD_ID_RULE } from "../engine/pagination.js";
import type { Program } from "../store/types.js";

/** An instant the clock can give: what every creation date is. */
const IN_RANGE = `must be an instant (epoch ms) from ${isoTimestamp(CLOCK_MIN_MS)} to ${isoTimestamp(CLOCK_MAX_MS)}`;
export const instant = z.int(IN_RANGE).min(CLOCK_MIN_MS, IN_RANGE).max(CLOCK_MAX_MS, IN_RANGE);
// Expiry instants are shifted by the time a customer spent removed, so they may lie past the clock's range.
const laterInstant = z.number();
/** A number of stamps held (a balance, a lot, a code's cost). */
export const heldStamps = z.int().min(0).max(MAX_STAMPS, `must be at most ${MAX_STAMPS}, ${MAX_STAMPS_WHY}`);
const BOTH_WAYS = `must be between -${MAX_STAMPS} and ${MAX_STAMPS}, ${MAX_STAMPS_WHY}`;
/** Stamps moved either way by one ledger entry. */
export const stampChange = z.int().min(-MAX_STAMPS, BOTH_WAYS).max(MAX_STAMPS, BOTH_WAYS);
export const customerId = z.string().regex(RECORD_ID, RECORD_ID_RULE);

export const customerRecordSchema = z.strictObject({
  id: customerId,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string().optional(),
  dateOfBirth: z.string().regex(/^\d{2}-\d{2}$/, "must be dd-mm").optional(),
  platformState: z.literal("active"),
  excluded: z.boolean(),
  excludedAt: instant.optional(),
  mergedIntoCustomerId: z.string().optional(),
  vipTierId: z.int().optional(),
  balance: heldStamps,
  earned: z.int().min(0),
  lastMovementAt: laterInstant.optional(),
  lots: z.array(z.strictObject({ amount: heldStamps.min(1), expiresAt: laterInstant })),
  createdAt: instant,
});

export const activityRecordSchema = z.strictObject({
  id: z.int().min(1),
  customerId: z.string(),
  kind: z.enum(["award", "adjust", "earn", "redeem", "grant", "refund", "expire", "tier", "merge"]),
  label: z.string(),
  internalComment: z.string().optional(),
  stampChange,
  earnRuleId: z.int().optional(),
  createdAt: instant,
});

export const codeRecordSchema = z.strictObject({
  id: z.int().min(1),
  customerId: z.string(),
  rewardId: z.int(),
  name: z.string(),
  code: z.string(),
  used: z.boolean(),
  voided: z.boolean(),
  cost: heldStamps,
  createdAt: instant,
});

/** The id of a shop's first reward code. */
export const FIRST_CODE_ID = 100_001;

/** The ids a store gives next after these records: activity ids run 1, 2, 3...; code ids from FIRST_CODE_ID. */
export function nextIdsAfter(records: { activities: readonly unknown[]; codes: readonly { id: number }[] }): { nextActivityId: number; nextCodeId: number } {
  let nextCodeId = FIRST_CODE_ID;
  for (const code of records.codes) nextCodeId = Math.max(nextCodeId, code.id + 1);
  return { nextActivityId: records.activities.length + 1, nextCodeId };
}

export type Issue = { path: (string | number)[]; message: string };

/** The fields of records the rules below read, whatever else a record holds. */
export interface RecordSet {
  customers: readonly { id: string; vipTierId?: number | undefined; mergedIntoCustomerId?: string | undefined; balance: number }[];
  activities: readonly { customerId: string; stampChange: number; earnRuleId?: number | undefined }[];
  codes: readonly { customerId: string; rewardId: number }[];
}

/** Where each record's field is written in the file being checked (a fixture names them its own way). */
export interface RecordPaths {
  customer(index: number, field: "id" | "vipTierId" | "mergedIntoCustomerId" | "balance"): Issue["path"];
  activity(index: number, field: "customerId" | "earnRuleId"): Issue["path"];
  code(index: number, field: "customerId" | "rewardId"): Issue["path"];
}

/** One shop's records against each other and its program: unique ids, references that resolve, balance = sum of the ledger. */
export function recordIssues(program: Program, records: RecordSet, at: RecordPaths): Issue[] {
  const issues: Issue[] = [];
  const tiers = new Set(program.tiers.map((t) => t.id));
  const rules = new Set(program.earnRules.map((r) => r.id));
  const rewards = new Set(program.rewards.map((r) => r.id));
  const ledgerSum = new Map<string, number>();
  records.customers.forEach((c, i) => {
    if (ledgerSum.has(c.id)) issues.push({ path: at.customer(i, "id"), message: `duplicate customer id ${c.id}` });
    ledgerSum.set(c.id, 0);
    if (c.vipTierId !== undefined && !tiers.has(c.vipTierId)) issues.push({ path: at.customer(i, "vipTierId"), message: `no tier has id ${c.vipTierId}` });
  });
  records.customers.forEach((c, i) => {
    const into = c.mergedIntoCustomerId;
    if (into === undefined) return;
    if (!ledgerSum.has(into)) issues.push({ path: at.customer(i, "mergedIntoCustomerId"), message: `no customer has id ${into}` });
    else if (into === c.id) issues.push({ path: at.customer(i, "mergedIntoCustomerId"), message: "a customer cannot be merged into itself" });
  });
  records.activities.forEach((a, i) => {
    const sum = ledgerSum.get(a.customerId);
    if (sum === undefined) issues.push({ path: at.activity(i, "customerId"), message: `no customer has id ${a.customerId}` });
    else ledgerSum.set(a.customerId, sum + a.stampChange);
    if (a.earnRuleId !== undefined && !rules.has(a.earnRuleId)) issues.push({ path: at.activity(i, "earnRuleId"), message: `no earn rule has id ${a.earnRuleId}` });
  });
  records.codes.forEach((code, i) => {
    if (!ledgerSum.has(code.customerId)) issues.push({ path: at.code(i, "customerId"), message: `no customer has id ${code.customerId}` });
    if (!rewards.has(code.rewardId)) issues.push({ path: at.code(i, "rewardId"), message: `no reward has id ${code.rewardId}` });
  });
  records.customers.forEach((c, i) => {
    const sum = ledgerSum.get(c.id);
    if (sum !== c.balance) issues.push({ path: at.customer(i, "balance"), message: `is ${c.balance}, but the customer's ledger sums to ${sum}` });
  });
  return issues;
}
