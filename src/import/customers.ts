/**
 * The source's customers as a fixture's `customers`: their balance, tier, state and merge as read;
 * their newest activities oldest first, after an opening-balance entry when older ones were left
 * behind (so balance = the ledger's sum still holds); their codes, each tied to its reward by name.
 * Then the same customers with their personal values replaced by pseudonyms.
 * @module
 */
import type { z } from "zod";
import type { fixtureCustomerSchema } from "../program/fixture-customers.js";
import { phoneLike, EMAIL } from "./finder.js";
import type { Originals } from "./leaks.js";
import type { MappedProgram } from "./program.js";
import type { Pseudonyms, RealValues } from "./pseudonyms.js";
import type { SourceCustomer, SourceData } from "./read.js";

export type CustomerInput = z.input<typeof fixtureCustomerSchema>;

export const OPENING_LABEL = "Opening balance (older history not imported)";

export function toFixtureCustomers(source: SourceData, program: MappedProgram, referenceDate: string): CustomerInput[] {
  const rules = program.fixture.earnRules;
  const prices = new Map(program.fixture.rewards.map((r) => [r.id, r.price]));
  return source.customers.map(({ customer: c, activities, codes }) => {
    const history = [...activities].reverse().map((a) => {
      const rule = a.stampChange > 0 ? rules.find((r) => r.name === a.label) : undefined;
      return { label: a.label, stampChange: a.stampChange, createdAt: a.createdAt, ...(rule && { earnRuleId: rule.id }) };
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
        const atCode = activities.filter((a) => a.createdAt === code.createdAt && a.stampChange <= 0);
        const paid = atCode.find((a) => a.label.endsWith(code.name)) ?? atCode[0];
        return { code: code.code, rewardId, used: code.used, cost: paid ? -paid.stampChange : prices.get(rewardId)!, createdAt: code.createdAt };
      }),
    };
  });
}

/** The real values of the customers read, for the pseudonyms to avoid and the leak check to look for. */
export function realValues(source: SourceData, program: MappedProgram): { real: RealValues; originals: Omit<Originals, "names" | "birthdays" | "ids"> } {
  const customers = source.customers.map((c) => c.customer);
  const labels = source.customers.flatMap((c) => c.activities.map((a) => a.label));
  const { shop, tiers, earnRules, rewards, beacons } = program.fixture;
  // The texts the file holds as written, and the labels the shop writes itself.
  const programText = [shop.programName, shop.stampBrandingSingular, shop.stampBrandingPlural, shop.manualAdjustmentLabel, OPENING_LABEL, ...tiers.flatMap((t) => [t.name, t.benefits]), ...earnRules.map((r) => r.name), ...rewards.map((r) => r.name), ...beacons.flatMap((b) => [b.name, b.message])].join("\n");
  const names = new Set(customers.flatMap((c) => [c.firstName, c.lastName]));
  const programWords = new Set([...names].filter((name) => wordIn(programText, name)));
  const emails = new Set([...customers.map((c) => c.email), ...labels.flatMap((l) => [...l.matchAll(EMAIL)].map((m) => m[0]))].filter((e) => e !== "").map((e) => e.toLowerCase()));
  const codes = new Set(source.customers.flatMap((c) => c.codes.map((code) => code.code)));
  return {
    real: {
      firstNames: new Set(customers.map((c) => c.firstName).filter((n) => n !== "")),
      lastNames: new Set(customers.map((c) => c.lastName).filter((n) => n !== "")),
      emails,
      codes,
      ids: new Set(customers.map((c) => c.id)),
      programWords,
    },
    originals: { emails, codes, phones: new Set(labels.flatMap(phoneLike)) },
  };
}

function wordIn(text: string, word: string): boolean {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, "u").test(text);
}

/** The customers with names, emails, birthdays, phone-like text and codes replaced; ids too with `remapIds`. */
export function pseudonymise(customers: CustomerInput[], fakes: Pseudonyms, options: { keepPersonalData: boolean; remapIds: boolean }): CustomerInput[] {
  const { keepPersonalData: keep, remapIds } = options;
  const id = (real: string) => (remapIds ? fakes.customerId(real) : real);
  return customers.map((c) => ({
    ...c,
    id: id(c.id),
    firstName: keep ? c.firstName : fakes.firstName(c.firstName),
    lastName: keep ? c.lastName : fakes.lastName(c.lastName),
    email: keep ? c.email : fakes.email(c.email),
    ...(c.dateOfBirth !== undefined && { dateOfBirth: keep ? c.dateOfBirth : fakes.birthday(c.dateOfBirth) }),
    ...(c.mergedIntoCustomerId !== undefined && { mergedIntoCustomerId: id(c.mergedIntoCustomerId) }),
    activities: (c.activities ?? []).map((a) => ({ ...a, label: fakes.text(a.label, { personal: !keep, remapIds }) })),
    rewardCodes: (c.rewardCodes ?? []).map((code) => ({ ...code, code: fakes.code(code.code) })),
  }));
}

/** Which of the customers' values the leak check looks for, given what was kept on purpose. */
export function originalsOf(source: SourceData, found: ReturnType<typeof realValues>, options: { keepPersonalData: boolean; remapIds: boolean }): Originals {
  const { real, originals } = found;
  const keep = options.keepPersonalData;
  const names = [...real.firstNames, ...real.lastNames].filter((n) => !real.programWords.has(n));
  return {
    names: keep ? [] : names,
    emails: keep ? new Set() : originals.emails,
    phones: keep ? new Set() : originals.phones,
    codes: originals.codes,
    ids: options.remapIds ? real.ids : new Set(),
    birthdays: keep ? [] : source.customers.map((c: SourceCustomer) => c.customer.dateOfBirth),
  };
}
