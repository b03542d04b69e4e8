/**
 * Shops for the fuzz of `loyalty-sim import` (fast-check arbitraries): customers whose personal
 * values are markers (`Qz...` names, emails and codes no fake can hold by chance) written into
 * labels in odd forms (capitals, fullwidth, a zero-width space, no accents, underscores or nothing for dashes), mixed with
 * values of odd shapes (empty, one letter, `.*`, `(`, a word of the program, a code that is only its
 * prefix, codes that fill their space); and `secretsIn`, an independent search for the markers in
 * a text, normalised, as plain substrings of its letters and digits.
 * @module
 */
import fc from "fast-check";
import type { HostileCustomer, HostileShop } from "./hostile-source.js";

type Json = any;

export interface Secrets {
  /** Names, emails: found in any text but with --keep-personal-data. */
  personal: string[];
  /** Phone numbers, by their digits. */
  phones: string[];
  /** Codes: found in no text, ever. */
  codes: string[];
  /** Codes of odd shapes: no written code may be one. */
  exactCodes: string[];
}

/** Letters and digits only, NFKC, lower case, format characters dropped: how the search compares. */
export const skeleton = (text: string) => text.normalize("NFKC").toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

/** Each marker found in `texts` (as plain substrings of their skeletons), by kind. */
export function secretsIn(texts: readonly string[], secrets: Secrets, keep: boolean): string[] {
  const flat = texts.map(skeleton);
  const digits = texts.map((t) => t.normalize("NFKC").replace(/\D/g, ""));
  const found: string[] = [];
  for (const code of secrets.codes) if (flat.some((t) => t.includes(skeleton(code)))) found.push(`code ${code}`);
  if (keep) return found;
  for (const value of secrets.personal) if (flat.some((t) => t.includes(skeleton(value)))) found.push(`personal ${value}`);
  for (const phone of secrets.phones) if (digits.some((t) => t.includes(phone.replace(/\D/g, "")))) found.push(`phone ${phone}`);
  return found;
}

const marker = fc.stringMatching(/^[bcdfghjkmnpstvwx]{6}$/).map((s) => `Qz${s}`);
const oddName = fc.constantFrom("", "A", ".*", "(", "Gold", "an", "O'Brien", "Mary Ann", "2026", "ß", "İpek", "x".repeat(300), "\u0000\u001b[2J");
const oddEmail = fc.constantFrom("", "com", "a@b", "not an email", "x@example.com", "(", ".*@.*");
const oddCode = fc.constantFrom("LOYAL-", "", "-", "a b", "LOYAL_AB12CD", "X".repeat(500));
const fullwidth = (s: string) => s.replace(/[!-~]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0));

/** The ways a label writes a value. */
const written = (value: string, how: number) =>
  [value, value.toUpperCase(), value.toLowerCase(), `${value} `, fullwidth(value), value.replace(/^(.)/u, "$1\u200b"), value.normalize("NFD"), `${value}'s`, `(${value})`, `${value}-${value}`, value.normalize("NFD").replace(/\p{M}/gu, "")][how % 11]!;
const codeWritten = (code: string, how: number) => [code, code.toLowerCase(), code.replace(/-/g, "_"), code.replace(/-/g, " "), `(${code})`, code.replace(/-/g, "")][how % 6]!;

const person = fc.record({
  first: fc.oneof({ weight: 4, arbitrary: marker }, { weight: 1, arbitrary: oddName }),
  last: fc.oneof({ weight: 4, arbitrary: marker }, { weight: 1, arbitrary: oddName }),
  email: fc.oneof({ weight: 2, arbitrary: fc.tuple(marker, marker).map(([a, b]) => `${a.toLowerCase()}.x@${b.toLowerCase()}.test`) }, { weight: 1, arbitrary: marker.map((a) => `${a}é@exämple.com`) }, { weight: 1, arbitrary: oddEmail }),
  code: fc.oneof({ weight: 4, arbitrary: fc.stringMatching(/^[A-Z0-9]{4}$/).map((s) => `LOYAL-QZ${s}`) }, { weight: 1, arbitrary: oddCode }),
  phone: fc.stringMatching(/^[0-9]{6}$/).map((d) => `+44 7700 ${d}`),
  id: fc.stringMatching(/^[1-9][0-9]{11}$/).map((d) => `8${d}`),
  birthday: fc.constantFrom(undefined, "10-12", "29-02", "31-02", "00-13"),
  labels: fc.array(fc.tuple(fc.nat(6), fc.nat(10), fc.nat(10)), { maxLength: 5 }),
  balanceExtra: fc.nat(20),
});

export const shopArb = fc.record({
  people: fc.array(person, { maxLength: 4 }),
  codeSpace: fc.boolean(),
  programLeak: fc.constantFrom("none", "none", "fullName", "email", "code", "firstName"),
});

export type ShopPlan = typeof shopArb extends fc.Arbitrary<infer T> ? T : never;

/** The secrets of the first `read` customers: the import can know no others'. */
export function secretsOf(each: readonly Secrets[], read: number): Secrets {
  const some = each.slice(0, read);
  return { personal: some.flatMap((s) => s.personal), phones: some.flatMap((s) => s.phones), codes: some.flatMap((s) => s.codes), exactCodes: some.flatMap((s) => s.exactCodes) };
}

/** The shop of `plan` over `program` (the bundled one, as the API answers it), and each customer's secrets. */
export function buildShop(plan: ShopPlan, program: HostileShop["program"]): { shop: HostileShop; secrets: Secrets[] } {
  const each: Secrets[] = [];
  const isMarker = (v: string) => v.startsWith("Qz") || v.includes("qz") || v.startsWith("LOYAL-QZ");
  const rewardName = (i: number) => program.rewards[i % program.rewards.length].name;
  const ids = new Set<string>();
  const people = plan.people.filter((p) => !ids.has(p.id) && ids.add(p.id));
  const customers: HostileCustomer[] = people.map((p, i) => {
    const secrets: Secrets = { personal: [], phones: [], codes: [], exactCodes: [] };
    each.push(secrets);
    for (const v of [p.first, p.last, p.email]) if (isMarker(v)) secrets.personal.push(v);
    secrets.phones.push(p.phone);
    const other = people[(i + 1) % people.length]!;
    const texts = [
      () => "Place an order",
      (a: number, b: number) => `Gift from ${written(p.first, a)} ${written(p.last, b)}`,
      (a: number) => `Mail ${written(other.email, a)}`,
      (a: number) => `Code ${codeWritten(other.code, a)}`,
      () => `Call ${p.phone}`,
      (a: number) => `Thanks ${written(other.first, a)}!`,
      () => `Redeemed ${rewardName(i)}`,
    ];
    const activities = p.labels.map(([t, a, b], k) => ({ id: String(1000 + k), label: texts[t % texts.length]!(a, b), stampChange: 1 + (a % 5), createdAt: `2026-10-${String(20 - k).padStart(2, "0")}T09:00:00+00:00` }));
    const codes = plan.codeSpace && i === 0 ? Array.from({ length: 10 }, (_, d) => `X-${d}`) : [p.code];
    for (const code of codes) (code.startsWith("LOYAL-QZ") ? secrets.codes : secrets.exactCodes).push(code);
    const balance = activities.reduce((sum, a) => sum + a.stampChange, 0) + p.balanceExtra;
    const record: Json = { id: p.id, firstName: p.first, lastName: p.last, email: p.email, stampBalance: balance, cards: 0, stampsToNextReward: 1, state: "active", ...(p.birthday && { dateOfBirth: p.birthday }) };
    return { record, activities, codes: codes.map((code, k) => ({ id: String(5000 + k), name: rewardName(i + k), code, used: true, createdAt: "2026-10-01T09:00:00+00:00" })) };
  });
  const copy = structuredClone(program);
  const first = people[0];
  if (first && plan.programLeak !== "none") {
    const leak = { fullName: `Happy birthday ${first.first} ${first.last}!`, email: `Write to ${first.email}`, code: `Try ${first.code}`, firstName: `Hello ${first.first}` }[plan.programLeak]!;
    if (plan.programLeak === "email") copy.tiers[1].benefits = leak;
    else copy.beacons[0].message = leak;
  }
  return { shop: { program: copy, customers, hidden: [] }, secrets: each };
}
