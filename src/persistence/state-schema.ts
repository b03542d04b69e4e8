/**
 * What a `--data` file must hold to be served: its shape (the fixture's program schema, the
 * store's records) and the invariants the engine relies on (unique ids, references that resolve,
 * balance = sum of the ledger, dates in the clock's range). A damaged or hand-edited file is
 * refused at start with the path of each field at fault, never served.
 * @module
 */
import { z } from "zod";
import { fieldPath, fileIssueLines, MISSING_IS_REQUIRED } from "../zod-issues.js";
import { accessRecordSchema, programSchema } from "../program/schema.js";
import { activityRecordSchema, codeRecordSchema, customerRecordSchema, instant, nextIdsAfter, recordIssues, type Issue } from "../program/records.js";
import type { Program, ShopData } from "../store/types.js";

/** The bulk of a shop, checked a slice at a time (zod builds a copy of what it checks). */
const RECORDS = { customers: customerRecordSchema, activities: activityRecordSchema, codes: codeRecordSchema } as const;
const SLICE = 10_000;

const shopSchema = z.strictObject({
  spec: z.strictObject({
    id: z.string().min(1),
    program: programSchema,
    access: accessRecordSchema,
    seed: z.int().min(0),
    customers: z.int().min(0),
    referenceDate: instant,
    fixtureCustomers: z.strictObject({ customers: z.array(z.unknown()), activities: z.array(z.unknown()), codes: z.array(z.unknown()) }).optional(),
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
    const sets: [RecordSets, (string | number)[]][] = [[shop.data, ["shops", s, "data"]]];
    // A fixture's customers, put back by every reset: checked as the records they are.
    if (shop.spec.fixtureCustomers) sets.push([shop.spec.fixtureCustomers, ["shops", s, "spec", "fixtureCustomers"]]);
    for (const [set, prefix] of sets) {
      for (const [key, schema] of Object.entries(RECORDS)) {
        const records = set[key as keyof typeof RECORDS];
        for (let start = 0; start < records.length && problems.length < MAX_PROBLEMS; start += SLICE) {
          const slice = z.array(schema).safeParse(records.slice(start, start + SLICE), MISSING_IS_REQUIRED);
          if (!slice.success) {
            for (const issue of slice.error.issues) issue.path[0] = (issue.path[0] as number) + start;
            problems.push(...fileIssueLines(slice.error.issues, [...prefix, key]));
          }
        }
      }
    }
  });
  if (problems.length > 0) return problems;
  return stateIssues(shops).map((issue) => `${fieldPath(issue.path)}: ${issue.message}`);
}

type RecordSets = Pick<ShopData, "customers" | "activities" | "codes">;
type SavedShop = { spec: { id: string; access: { apiKey: string }; program: Program; fixtureCustomers?: RecordSets }; data: ShopData };

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
    const seeds = spec.fixtureCustomers;
    if (seeds) issues.push(...dataIssues({ program: spec.program, ...seeds, ...nextIdsAfter(seeds) }, (...path) => at("spec", "fixtureCustomers", ...path)));
  });
  return issues;
}

/** One shop's records: the rules of every record set, then the data file's own (ledger ids in order, code ids below the next). */
function dataIssues(data: Omit<ShopData, "id" | "seed" | "access">, at: (...path: (string | number)[]) => Issue["path"]): Issue[] {
  const issues = recordIssues(data.program, data, {
    customer: (i, field) => at("customers", i, field),
    activity: (i, field) => at("activities", i, field),
    code: (i, field) => at("codes", i, field),
  });
  data.activities.forEach((a, i) => {
    // Activity ids are positions (ShopStore finds an activity by its id), so they run 1, 2, 3...
    if (a.id !== i + 1) issues.push({ path: at("activities", i, "id"), message: `must be ${i + 1}: activity ids run 1, 2, 3... in file order` });
  });
  if (data.nextActivityId !== data.activities.length + 1) {
    issues.push({ path: at("nextActivityId"), message: `must be ${data.activities.length + 1}, one past the last activity id` });
  }
  const codeIds = new Set<number>();
  data.codes.forEach((code, i) => {
    if (codeIds.has(code.id)) issues.push({ path: at("codes", i, "id"), message: `duplicate code id ${code.id}` });
    codeIds.add(code.id);
    if (code.id >= data.nextCodeId) issues.push({ path: at("codes", i, "id"), message: `must be below nextCodeId (${data.nextCodeId})` });
  });
  return issues;
}
