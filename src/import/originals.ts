/**
 * The real values read from the source, and the one Finder the pseudonymiser and the leak check
 * share: which originals are looked for in text, decided here once. Every code and email (of a
 * record or a label), phone-like number of a label, and with --remap-ids every id, is looked for;
 * so is every name (first, last, and the full name in either order), except one that the program's
 * names of things hold (a customer called Gold, a Gold tier): that one is a word of the program,
 * kept in labels and allowed in its texts. A value of fewer than 2 letters or digits (a one-letter
 * name, a name of punctuation) is not looked for: its own field is replaced all the same.
 * @module
 */
import { emailsIn, Finder, letterCount, phoneLike, signCount, wordKeys, type Phrase } from "./finder.js";
import type { MappedProgram } from "./program.js";
import type { SourceData } from "./read.js";

export const OPENING_LABEL = "Opening balance (older history not imported)";
/** The fakes' email domains, and the words of the labels the shop writes itself. */
export const FILE_WORDS = "example.com example.net example.org Redeemed Merged from into customer expired";

export interface RealValues {
  firstNames: ReadonlySet<string>;
  lastNames: ReadonlySet<string>;
  /** Each customer's first and last name, both present. */
  fullNames: readonly (readonly [string, string])[];
  /** Of the records and found in labels, as written. */
  emails: ReadonlySet<string>;
  /** Phone-like text of the labels. */
  phones: ReadonlySet<string>;
  codes: ReadonlySet<string>;
  ids: ReadonlySet<string>;
  /** The word keys (`gold`, `place an order`) of the names that are words of the program. */
  programWords: ReadonlySet<string>;
}

export function realValues(source: SourceData, program: MappedProgram): RealValues {
  const customers = source.customers.map((c) => c.customer);
  const labels = source.customers.flatMap((c) => c.activities.map((a) => a.label.normalize("NFKC")));
  const firstNames = new Set(customers.map((c) => c.firstName));
  const lastNames = new Set(customers.map((c) => c.lastName));
  const fullNames = customers.filter((c) => wordKeys(c.firstName).length > 0 && wordKeys(c.lastName).length > 0).map((c) => [c.firstName, c.lastName] as const);
  return {
    firstNames,
    lastNames,
    fullNames,
    emails: new Set([...customers.map((c) => c.email), ...labels.flatMap(emailsIn)]),
    phones: new Set(labels.flatMap(phoneLike)),
    codes: new Set(source.customers.flatMap((c) => c.codes.map((code) => code.code))),
    ids: new Set(customers.map((c) => c.id)),
    programWords: programWords(program, [...nameLikes(firstNames, lastNames, fullNames)]),
  };
}

/** Each name as a phrase: full names first (longest), then first and last names. */
function* nameLikes(first: Iterable<string>, last: Iterable<string>, full: RealValues["fullNames"]): Generator<{ phrase: Phrase; text: string }> {
  for (const parts of full) {
    yield { phrase: { kind: "name", value: `${parts[0]} ${parts[1]}`, parts }, text: `${parts[0]} ${parts[1]}` };
    yield { phrase: { kind: "name", value: `${parts[1]} ${parts[0]}`, parts, reversed: true }, text: `${parts[1]} ${parts[0]}` };
  }
  for (const name of first) yield { phrase: { kind: "name", value: name, role: "first" }, text: name };
  for (const name of last) yield { phrase: { kind: "name", value: name, role: "last" }, text: name };
}

/**
 * The names the program's names of things hold: every text of its part of the file (names,
 * branding, types, icons, settings) but its messages (tier benefits, beacon messages), with the
 * import's own words (its assumptions, the opening label, the fakes' domains).
 */
function programWords(program: MappedProgram, names: { phrase: Phrase; text: string }[]): Set<string> {
  const { tiers, beacons, ...rest } = program.fixture;
  const texts = new Set<string>([OPENING_LABEL, FILE_WORDS]);
  const collect = (value: unknown): void => {
    if (typeof value === "string") texts.add(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value !== null && typeof value === "object") Object.values(value).forEach(collect);
  };
  collect(rest);
  collect(tiers.map(({ benefits: _, ...tier }) => tier));
  collect(beacons.map(({ message: _, ...beacon }) => beacon));
  collect(program.assumptions.map((a) => [a.why, a.value]));
  const finder = new Finder();
  for (const { phrase, text } of names) finder.add(phrase, text);
  const found = new Set<string>();
  for (const text of texts) for (const hit of finder.find(text, { every: true }).hits) found.add(wordKeys(hit.phrase.value).join(" "));
  return found;
}

/**
 * The originals to look for: codes always, ids with `ids` (--remap-ids), names, emails and phone
 * numbers with `personal` (not --keep-personal-data). Added in this order, which decides the kind
 * told when one text is two of them.
 */
export function finderOf(real: RealValues, kinds: { personal: boolean; ids: boolean }): Finder {
  const finder = new Finder();
  const add = (phrase: Phrase, text = phrase.value) => signCount(text) >= 2 && finder.add(phrase, text);
  for (const code of real.codes) add({ kind: "discount code", value: code });
  if (kinds.ids) for (const id of real.ids) add({ kind: "customer id", value: id });
  if (!kinds.personal) return finder;
  for (const email of real.emails) add({ kind: "email", value: email });
  for (const phone of real.phones) add({ kind: "phone number", value: phone });
  for (const { phrase, text } of nameLikes(real.firstNames, real.lastNames, real.fullNames)) {
    if (letterCount(text) >= 2 && !real.programWords.has(wordKeys(text).join(" "))) add(phrase, text);
  }
  return finder;
}
