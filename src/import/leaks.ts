/**
 * The last check before a file is written: every text of the fixture is searched for the original
 * personal values and codes, read as the pseudonymiser reads text (finder.ts). What it finds is
 * told by kind and by the field it is in, never by value.
 * @module
 */
import { fieldPath } from "../zod-issues.js";
import { CODE_TOKEN, DIGIT_TOKEN, EMAIL, phoneLike, wholeWords } from "./finder.js";

export interface Originals {
  /** Names to look for as whole words (those that are not also words of the program). */
  names: Iterable<string>;
  /** Lower case. */
  emails: ReadonlySet<string>;
  phones: ReadonlySet<string>;
  codes: ReadonlySet<string>;
  /** Customer ids, when they were remapped (kept ids are not personal data). */
  ids: ReadonlySet<string>;
  /** Each written customer's real birthday, by its place in the file's `customers`. */
  birthdays: readonly (string | undefined)[];
}

export interface Leak {
  kind: "name" | "email" | "phone number" | "discount code" | "customer id" | "birthday";
  /** The field, as a fixture error names it: `customers[3].activities[0].label`. */
  path: string;
}

export function findLeaks(file: unknown, originals: Originals): Leak[] {
  const found: Leak[] = [];
  const names = wholeWords(originals.names);
  const visit = (value: unknown, path: (string | number)[]) => {
    if (typeof value === "string") {
      const at = fieldPath(path);
      const hit = (kind: Leak["kind"]) => found.push({ kind, path: at });
      if ([...value.matchAll(EMAIL)].some((m) => originals.emails.has(m[0].toLowerCase()))) hit("email");
      if ([...value.matchAll(CODE_TOKEN)].some((m) => originals.codes.has(m[0]))) hit("discount code");
      if (originals.ids.size > 0 && [...value.matchAll(DIGIT_TOKEN)].some((m) => originals.ids.has(m[0]))) hit("customer id");
      if (phoneLike(value).some((p) => originals.phones.has(p))) hit("phone number");
      if (names) {
        names.lastIndex = 0;
        if (names.test(value)) hit("name");
      }
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
