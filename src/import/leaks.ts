/**
 * The last check before a file is written: every text of the fixture is searched for the original
 * personal values and codes, with the Finder the pseudonymiser used (originals.ts decides what it
 * looks for), and phone-like text by its digits however grouped. What it finds is told by kind and
 * by the field it is in, never by value.
 * @module
 */
import { fieldPath } from "../zod-issues.js";
import { digitsOf, phoneLike, type Finder, type Kind } from "./finder.js";

export interface Originals {
  finder: Finder;
  /** The digits of each phone-like original (none with --keep-personal-data). */
  phones: ReadonlySet<string>;
  /** Each written customer's real birthday, by its place in the file's `customers`. */
  birthdays: readonly (string | undefined)[];
}

export interface Leak {
  kind: Kind | "birthday";
  /** The field, as a fixture error names it: `customers[3].activities[0].label`. */
  path: string;
}

export function findLeaks(file: unknown, originals: Originals): Leak[] {
  const found: Leak[] = [];
  const visit = (value: unknown, path: (string | number)[]) => {
    if (typeof value === "string") {
      const { text, hits } = originals.finder.find(value);
      const kinds = new Set<Leak["kind"]>(hits.map((hit) => hit.phrase.kind));
      if (originals.phones.size > 0 && phoneLike(text).some((p) => originals.phones.has(digitsOf(p)))) kinds.add("phone number");
      for (const kind of kinds) found.push({ kind, path: fieldPath(path) });
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, [...path, i]));
    } else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) visit(item, [...path, key]);
    }
  };
  visit(file, []);
  const customers = (file as { customers?: { dateOfBirth?: string }[] }).customers ?? [];
  customers.forEach((c, i) => {
    const real = originals.birthdays[i];
    if (real !== undefined && c.dateOfBirth === real) found.push({ kind: "birthday", path: fieldPath(["customers", i, "dateOfBirth"]) });
  });
  return found;
}
