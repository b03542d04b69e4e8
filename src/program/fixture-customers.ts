/**
 * Customers written out whole in a fixture (`customers`): who they are, their history and their
 * reward codes, as a person writes them ("Ada, 9 stamps, one unused code") or `loyalty-sim import`
 * copies them. Checked as strictly as the rest of the fixture, every bad field named; the rules
 * across records are the data file's own (records.ts).
 * @module
 */
import { z } from "zod";
import { inClockRange } from "../engine/clock.js";
import { DAYS_IN_MONTH } from "../engine/customers.js";
import { MAX_CUSTOMER_CODES, MAX_STAMPS, MAX_STAMPS_WHY } from "../engine/limits.js";
import type { Program } from "../store/types.js";
import { customerId, heldStamps, recordIssues, stampChange, type Issue } from "./records.js";

/** An instant as the API writes it, within the clock's range. */
const timestamp = z.iso
  .datetime({ offset: true, error: "must be an ISO 8601 timestamp with an offset, e.g. 2026-06-05T12:00:00+00:00" })
  .refine((text) => inClockRange(Date.parse(text)), "must lie within years 1970 to 9999");

/** `dd-mm`, a day the month has (29 February included), as the API answers `dateOfBirth`. */
const birthday = z
  .string()
  .regex(/^\d{2}-\d{2}$/, "must be dd-mm, e.g. 05-06 for 5 June")
  .refine((text) => {
    const [day, month] = text.split("-").map(Number) as [number, number];
    return month >= 1 && month <= 12 && day >= 1 && day <= DAYS_IN_MONTH[month - 1]!;
  }, "must be a day the month has (dd-mm)");

const id = z.int().positive();

const activitySchema = z.strictObject({
  label: z.string(),
  stampChange,
  createdAt: timestamp,
  /** The earn rule that awarded it: its limits count it (`import` finds it by the rule's name). */
  earnRuleId: id.optional(),
});

const codeSchema = z.strictObject({
  code: z.string().regex(/^\S+$/, "must be a code without spaces, e.g. LOYAL-7Q2X9K"),
  rewardId: id,
  used: z.boolean().optional(),
  voided: z.boolean().optional(),
  /** What a void refunds; the reward's price when absent. */
  cost: heldStamps.optional(),
  createdAt: timestamp,
});

export const fixtureCustomerSchema = z.strictObject({
  id: customerId,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string().optional(),
  dateOfBirth: birthday.optional(),
  state: z.enum(["active", "removed"]).optional(),
  mergedIntoCustomerId: customerId.optional(),
  vipTierId: id.optional(),
  stampBalance: heldStamps,
  /** When the customer joined; their first activity's date, or the fixture's reference date, when absent. */
  createdAt: timestamp.optional(),
  /** Oldest first; their stamp changes sum to `stampBalance`. */
  activities: z.array(activitySchema).optional(),
  rewardCodes: z
    .array(codeSchema)
    .max(MAX_CUSTOMER_CODES, `must hold at most ${MAX_CUSTOMER_CODES} codes: one customer may hold no more (every list of them is answered whole)`)
    .optional(),
});

export type FixtureCustomer = z.output<typeof fixtureCustomerSchema>;

/** Every problem of a fixture's customers against each other and the program, with its path from the file's top. */
export function fixtureCustomerIssues(customers: readonly FixtureCustomer[], program: Program): Issue[] {
  const issues: Issue[] = [];
  // Flattened as records, each remembering where the file wrote it, for the rules the data file shares.
  const activities: { customerId: string; stampChange: number; earnRuleId?: number | undefined; at: Issue["path"] }[] = [];
  const codes: { customerId: string; rewardId: number; at: Issue["path"] }[] = [];
  const codeOwners = new Map<string, string>();
  customers.forEach((c, i) => {
    let balance = 0;
    let previous: number | undefined;
    let overdrawn = false;
    (c.activities ?? []).forEach((a, k) => {
      const at: Issue["path"] = ["customers", i, "activities", k];
      activities.push({ customerId: c.id, stampChange: a.stampChange, earnRuleId: a.earnRuleId, at });
      const when = Date.parse(a.createdAt);
      if (previous !== undefined && when < previous) issues.push({ path: [...at, "createdAt"], message: `is before activities[${k - 1}].createdAt: a history is written oldest first` });
      previous = when;
      balance += a.stampChange;
      if (!overdrawn && (balance < 0 || balance > MAX_STAMPS)) {
        overdrawn = true;
        const why = balance < 0 ? "a balance is never below 0 (the history is written oldest first)" : MAX_STAMPS_WHY;
        issues.push({ path: [...at, "stampChange"], message: `takes the balance to ${balance}: ${why}` });
      }
    });
    (c.rewardCodes ?? []).forEach((code, k) => {
      const at: Issue["path"] = ["customers", i, "rewardCodes", k];
      codes.push({ customerId: c.id, rewardId: code.rewardId, at });
      const first = codeOwners.get(code.code);
      if (first !== undefined) issues.push({ path: [...at, "code"], message: `duplicate code ${code.code} (first at ${first}): a shop issues each code once` });
      else codeOwners.set(code.code, `customers[${i}].rewardCodes[${k}]`);
      if (code.voided === true && code.used === false) issues.push({ path: [...at, "used"], message: "must not be false when voided is true: a voided code can no longer be used" });
    });
  });
  const records = { customers: customers.map((c) => ({ ...c, balance: c.stampBalance })), activities, codes };
  const fields = { balance: "stampBalance" } as Record<string, string>;
  issues.push(
    ...recordIssues(program, records, {
      customer: (i, field) => ["customers", i, fields[field] ?? field],
      activity: (i, field) => [...activities[i]!.at, field],
      code: (i, field) => [...codes[i]!.at, field],
    }),
  );
  return issues;
}
