/**
 * What a `--data` file must hold to be served: its shape (the fixture's program schema, the
 * store's records) and the invariants the engine relies on (unique ids, references that resolve,
 * balance = sum of the ledger, dates in the clock's range). A damaged or hand-edited file is
 * refused at start with the path of each field at fault, never served.
 * @module
 */
import { z } from "zod";
import { CLOCK_MAX_MS, CLOCK_MIN_MS, isoTimestamp } from "../engine/clock.js";
import { MAX_STAMPS, MAX_STAMPS_WHY } from "../engine/limits.js";
import { RECORD_ID, RECORD_ID_RULE } from "../engine/pagination.js";
import { fieldPath, fileIssueLines, MISSING_IS_REQUIRED } from "../zod-issues.js";
import { accessRecordSchema, programSchema } from "../program/schema.js";
import type { ShopData } from "../store/types.js";

/** An instant the clock can give: what every creation date is. */
const IN_RANGE = `must be an instant (epoch ms) from ${isoTimestamp(CLOCK_MIN_MS)} to ${isoTimestamp(CLOCK_MAX_MS)}`;
const instant = z.int(IN_RANGE).min(CLOCK_MIN_MS, IN_RANGE).max(CLOCK_MAX_MS, IN_RANGE);
// Expiry instants are shifted by the time a customer spent removed, so they may lie past the clock's range.
const laterInstant = z.number();
/** A number of stamps held (a balance, a lot, a code's cost), and one moved either way (a ledger entry). */
const stamps = z.int().min(0).max(MAX_STAMPS, `must be at most ${MAX_STAMPS}, ${MAX_STAMPS_WHY}`);
const BOTH_WAYS = `must be between -${MAX_STAMPS} and ${MAX_STAMPS}, ${MAX_STAMPS_WHY}`;
const stampChange = z.int().min(-MAX_STAMPS, BOTH_WAYS).max(MAX_STAMPS, BOTH_WAYS);

const customerSchema = z.strictObject({
  id: z.string().regex(RECORD_ID, RECORD_ID_RULE),
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
  balance: stamps,
  earned: z.int().min(0),
  lastMovementAt: laterInstant.optional(),
  lots: z.array(z.strictObject({ amount: stamps.min(1), expiresAt: laterInstant })),
  createdAt: instant,
});

const activitySchema = z.strictObject({
  id: z.int().min(1),
  customerId: z.string(),
  kind: z.enum(["award", "adjust", "earn", "redeem", "grant", "refund", "expire", "tier", "merge"]),
  label: z.string(),
  internalComment: z.string().optional(),
  stampChange,
  earnRuleId: z.int().optional(),
  createdAt: instant,
});

const codeSchema = z.strictObject({
  id: z.int().min(1),
  customerId: z.string(),
  rewardId: z.int(),
  name: z.string(),
  code: z.string(),
  used: z.boolean(),
  voided: z.boolean(),
  cost: stamps,
  createdAt: instant,
});

/** The bulk of a shop, checked a slice at a time (zod builds a copy of what it checks). */
const RECORDS = { customers: customerSchema, activities: activitySchema, codes: codeSchema } as const;
const SLICE = 10_000;

const shopSchema = z.strictObject({
  spec: z.strictObject({
    id: z.string().min(1),
    program: programSchema,
    access: accessRecordSchema,
    seed: z.int().min(0),
    customers: z.int().min(0),
    referenceDate: instant,
  }),
  data: z.strictObject({
    id: z.string().min(1),
    seed: z.int().min(0),
    access: accessRecordSchema,
    program: programSchema,
    customers: z.array(z.unknown()),
    activities: z.array(z.unknown()),
    codes: z.array(z.unknown()),
    nextActivityId: z.int().min(1),
    nextCodeId: z.int().min(1),
  }),
});

/** The file once its `format` and `version` are known to be this version's. */
const savedStateSchema = z.strictObject({
  format: z.string(),
  version: z.int(),
  savedAt: z.string(),
  shops: z.array(shopSchema).min(1, "needs at least one shop"),
});

/** Stop listing problems past this many: a file broken everywhere is told in a screenful. */
export const MAX_PROBLEMS = 20;

/**
 * Every problem of a parsed state file, as `path: message` lines (none: the file can be served).
 * Records are checked in slices so that a large file is not copied whole.
 */
export function stateProblems(state: unknown): string[] {
  const top = savedStateSchema.safeParse(state, MISSING_IS_REQUIRED);
  if (!top.success) return fileIssueLines(top.error.issues);
  const shops = (state as { shops: SavedShop[] }).shops;
  const problems: string[] = [];
  shops.forEach((shop, s) => {
    for (const [key, schema] of Object.entries(RECORDS)) {
      const records = shop.data[key as keyof typeof RECORDS];
      for (let start = 0; start < records.length && problems.length < MAX_PROBLEMS; start += SLICE) {
        const slice = z.array(schema).safeParse(records.slice(start, start + SLICE), MISSING_IS_REQUIRED);
        if (!slice.success) {
          for (const issue of slice.error.issues) issue.path[0] = (issue.path[0] as number) + start;
          problems.push(...fileIssueLines(slice.error.issues, ["shops", s, "data", key]));
        }
      }
    }
  });
  if (problems.length > 0) return problems;
  return stateIssues(shops).map((issue) => `${fieldPath(issue.path)}: ${issue.message}`);
}

type SavedShop = { spec: { id: string; access: { apiKey: string } }; data: ShopData };
type Issue = { path: (string | number)[]; message: string };

/** The invariants across records that the schema cannot see, for a file that has the schema's shape. */
function stateIssues(shops: SavedShop[]): Issue[] {
  const issues: Issue[] = [];
  const shopIds = new Map<string, number>();
  const apiKeys = new Map<string, number>();
  shops.forEach(({ spec, data }, s) => {
    const at = (...path: (string | number)[]) => ["shops", s, ...path];
    const firstWith = (seen: Map<string, number>, key: string) => {
      const first = seen.get(key);
      if (first === undefined) seen.set(key, s);
      return first;
    };
    const sameId = firstWith(shopIds, spec.id);
    if (sameId !== undefined) issues.push({ path: at("spec", "id"), message: `shop id ${spec.id} is also shops[${sameId}]'s` });
    const sameKey = firstWith(apiKeys, spec.access.apiKey);
    if (sameKey !== undefined) issues.push({ path: at("spec", "access", "apiKey"), message: `is also shops[${sameKey}]'s API key` });
    if (data.id !== spec.id) issues.push({ path: at("data", "id"), message: `must equal spec.id (${spec.id})` });
    issues.push(...dataIssues(data, (...path) => at("data", ...path)));
  });
  return issues;
}

/** One shop's records: unique ids, references that resolve, ledger ids in order, balance = sum of ledger. */
function dataIssues(data: ShopData, at: (...path: (string | number)[]) => Issue["path"]): Issue[] {
  const issues: Issue[] = [];
  const { program } = data;
  const tiers = new Set(program.tiers.map((t) => t.id));
  const rules = new Set(program.earnRules.map((r) => r.id));
  const rewards = new Set(program.rewards.map((r) => r.id));
  const ledgerSum = new Map<string, number>();
  data.customers.forEach((c, i) => {
    if (ledgerSum.has(c.id)) issues.push({ path: at("customers", i, "id"), message: `duplicate customer id ${c.id}` });
    ledgerSum.set(c.id, 0);
    if (c.vipTierId !== undefined && !tiers.has(c.vipTierId)) issues.push({ path: at("customers", i, "vipTierId"), message: `no tier has id ${c.vipTierId}` });
  });
  data.customers.forEach((c, i) => {
    if (c.mergedIntoCustomerId !== undefined && !ledgerSum.has(c.mergedIntoCustomerId)) {
      issues.push({ path: at("customers", i, "mergedIntoCustomerId"), message: `no customer has id ${c.mergedIntoCustomerId}` });
    }
  });
  data.activities.forEach((a, i) => {
    // Activity ids are positions (ShopStore finds an activity by its id), so they run 1, 2, 3...
    if (a.id !== i + 1) issues.push({ path: at("activities", i, "id"), message: `must be ${i + 1}: activity ids run 1, 2, 3... in file order` });
    const sum = ledgerSum.get(a.customerId);
    if (sum === undefined) issues.push({ path: at("activities", i, "customerId"), message: `no customer has id ${a.customerId}` });
    else ledgerSum.set(a.customerId, sum + a.stampChange);
    if (a.earnRuleId !== undefined && !rules.has(a.earnRuleId)) issues.push({ path: at("activities", i, "earnRuleId"), message: `no earn rule has id ${a.earnRuleId}` });
  });
  if (data.nextActivityId !== data.activities.length + 1) {
    issues.push({ path: at("nextActivityId"), message: `must be ${data.activities.length + 1}, one past the last activity id` });
  }
  const codeIds = new Set<number>();
  data.codes.forEach((code, i) => {
    if (codeIds.has(code.id)) issues.push({ path: at("codes", i, "id"), message: `duplicate code id ${code.id}` });
    codeIds.add(code.id);
    if (code.id >= data.nextCodeId) issues.push({ path: at("codes", i, "id"), message: `must be below nextCodeId (${data.nextCodeId})` });
    if (!ledgerSum.has(code.customerId)) issues.push({ path: at("codes", i, "customerId"), message: `no customer has id ${code.customerId}` });
    if (!rewards.has(code.rewardId)) issues.push({ path: at("codes", i, "rewardId"), message: `no reward has id ${code.rewardId}` });
  });
  data.customers.forEach((c, i) => {
    const sum = ledgerSum.get(c.id);
    if (sum !== c.balance) issues.push({ path: at("customers", i, "balance"), message: `is ${c.balance}, but the customer's ledger sums to ${sum}` });
  });
  return issues;
}
