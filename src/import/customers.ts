/**
 * The source's customers as a fixture's `customers`: their balance, tier, state and merge as read;
 * their newest activities oldest first, after an opening-balance entry when older ones were left
 * behind (so balance = the ledger's sum still holds); their codes, each tied to its reward by name.
 * Then the same customers with their personal values replaced by pseudonyms.
 * @module
 */
import type { z } from "zod";
import type { fixtureCustomerSchema } from "../program/fixture-customers.js";
import { fieldPath } from "../zod-issues.js";
import { ImportError } from "./errors.js";
import { OPENING_LABEL } from "./originals.js";
import type { MappedProgram } from "./program.js";
import { NoRoomError, type Pseudonyms } from "./pseudonyms.js";
import type { SourceData } from "./read.js";

export type CustomerInput = z.input<typeof fixtureCustomerSchema>;

export { OPENING_LABEL };

export function toFixtureCustomers(source: SourceData, program: MappedProgram, referenceDate: string): CustomerInput[] {
  // Looked up through maps, not searched: the source decides how many there are.
  const rules = new Map<string, number>();
  for (const r of program.fixture.earnRules) if (!rules.has(r.name)) rules.set(r.name, r.id);
  const prices = new Map(program.fixture.rewards.map((r) => [r.id, r.price]));
  return source.customers.map(({ customer: c, activities, codes }) => {
    const spends = new Map<string, typeof activities>();
    for (const a of activities) {
      if (a.stampChange > 0) continue;
      const same = spends.get(a.createdAt);
      if (same) same.push(a);
      else spends.set(a.createdAt, [a]);
    }
    const history = [...activities].reverse().map((a) => {
      const rule = a.stampChange > 0 ? rules.get(a.label) : undefined;
      return { label: a.label, stampChange: a.stampChange, createdAt: a.createdAt, ...(rule !== undefined && { earnRuleId: rule }) };
    });
    const sum = history.reduce((total, a) => total + a.stampChange, 0);
    // What the history left behind comes in one entry, dated with the oldest entry kept.
    if (sum !== c.stampBalance) {
      history.unshift({ label: OPENING_LABEL, stampChange: c.stampBalance - sum, createdAt: history[0]?.createdAt ?? referenceDate });
    }
    return {
      id: c.id,
      firstName: c.firstName,
      lastName: c.lastName,
      email: c.email,
      ...(c.dateOfBirth !== undefined && { dateOfBirth: c.dateOfBirth }),
      ...(c.state !== "active" && { state: c.state }),
      ...(c.mergedIntoCustomerId !== undefined && { mergedIntoCustomerId: c.mergedIntoCustomerId }),
      ...(c.vipTierId !== undefined && { vipTierId: c.vipTierId }),
      stampBalance: c.stampBalance,
      activities: history,
      rewardCodes: codes.map((code) => {
        const rewardId = program.rewardIdOf(code.name)!;
        // A redemption writes its entry at the code's instant: what it took is what a void refunds.
        const atCode = spends.get(code.createdAt) ?? [];
        const paid = atCode.find((a) => a.label.endsWith(code.name)) ?? atCode[0];
        return { code: code.code, rewardId, used: code.used, cost: paid ? -paid.stampChange : prices.get(rewardId)!, createdAt: code.createdAt };
      }),
    };
  });
}

/** The customers with names, emails, birthdays, phone-like text and codes replaced; ids too with `remapIds`. */
export function pseudonymise(customers: CustomerInput[], fakes: Pseudonyms, options: { keepPersonalData: boolean; remapIds: boolean }): CustomerInput[] {
  const { keepPersonalData: keep, remapIds } = options;
  return customers.map((c, i) => {
    // Each fake is made with its field's path at hand, for the error when none can be.
    const at = <T>(path: (string | number)[], make: () => T): T => fakeAt(["customers", i, ...path], keep, make);
    const id = (real: string, field: string) => (remapIds ? at([field], () => fakes.customerId(real)) : real);
    return {
      ...c,
      id: id(c.id, "id"),
      firstName: keep ? c.firstName : at(["firstName"], () => fakes.firstName(c.firstName)),
      lastName: keep ? c.lastName : at(["lastName"], () => fakes.lastName(c.lastName)),
      email: keep ? c.email : at(["email"], () => fakes.email(c.email)),
      ...(c.dateOfBirth !== undefined && { dateOfBirth: keep ? c.dateOfBirth : at(["dateOfBirth"], () => fakes.birthday(c.dateOfBirth!)) }),
      ...(c.mergedIntoCustomerId !== undefined && { mergedIntoCustomerId: id(c.mergedIntoCustomerId, "mergedIntoCustomerId") }),
      activities: (c.activities ?? []).map((a, k) => ({ ...a, label: at(["activities", k, "label"], () => fakes.text(a.label, { personal: !keep, remapIds })) })),
      rewardCodes: (c.rewardCodes ?? []).map((code, k) => ({ ...code, code: at(["rewardCodes", k, "code"], () => fakes.code(code.code)) })),
    };
  });
}

function fakeAt<T>(path: (string | number)[], keep: boolean, make: () => T): T {
  try {
    return make();
  } catch (error) {
    if (!(error instanceof NoRoomError)) throw error;
    const field = path.at(-1);
    const what =
      field === "id" || field === "mergedIntoCustomerId" ? "import without --remap-ids" : field === "code" || keep ? "correct the value in the shop" : "correct the value in the shop, or import with --keep-personal-data";
    throw new ImportError(`could not make a fake for ${fieldPath(path)}: ${error.message}, so nothing was written; ${what}`);
  }
}
