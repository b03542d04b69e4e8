/**
 * Deterministic pseudonyms: each fake is drawn by the project's faker, seeded from an HMAC-SHA256
 * of the salt and the real value, so the same value gives the same fake within a file and in every
 * import with the same salt (two customers sharing an email, in any case, still share one), and
 * without the salt a fake tells nothing of its value. Formats are kept: an email stays an email (at
 * a reserved example domain), a phone-like string keeps its digit pattern, a birthday is a valid
 * `dd-mm`, a code keeps its prefix and the shape of the rest. A fake is never a real value of its
 * kind and holds no original the leak check looks for.
 *
 * The source decides what the fakes must avoid, so drawing is bounded: MAX_TRIES draws; a code or an
 * id widens by a character every few tries after the first PLAIN_TRIES (a code that is only its
 * prefix, a code space the real codes fill); then a NoRoomError, never a loop without end.
 * @module
 */
import { createHmac } from "node:crypto";
import type { Faker } from "@faker-js/faker";
import { DAYS_IN_MONTH } from "../engine/customers.js";
import { seededFaker } from "../engine/random.js";
import { digitsOf, replaceHits, wordKeys, type Finder, type Kind, type Phrase } from "./finder.js";
import { finderOf, type RealValues } from "./originals.js";

export const MAX_TRIES = 100;
const PLAIN_TRIES = 20;
const TRIES_A_WIDTH = 10;

/** No fake of a value could be drawn: the source's values leave no room for one. */
export class NoRoomError extends Error {
  override readonly name = "NoRoomError";
}

const LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ";
const DOMAINS = ["example.com", "example.net", "example.org"];
const keyOf = (value: string) => wordKeys(value).join(" ") || value;

export class Pseudonyms {
  readonly #faker: Faker = seededFaker(0);
  readonly #memo = new Map<string, string>();
  readonly #given = new Set<string>();
  /** Every real name, folded: no fake name is one. */
  readonly #names: ReadonlySet<string>;
  readonly #emails: ReadonlySet<string>;
  readonly #phones: ReadonlySet<string>;
  readonly #finder: Finder;

  constructor(
    private readonly salt: string,
    private readonly real: RealValues,
  ) {
    this.#names = new Set([...real.firstNames, ...real.lastNames].map(keyOf));
    this.#emails = new Set([...real.emails].map(keyOf));
    this.#phones = new Set([...real.phones].map(digitsOf));
    this.#finder = finderOf(real, { personal: true, ids: true });
  }

  /** The fake of `value` as `kind`: made once, then the same; drawn again while `ok` refuses it. */
  #fake(kind: string, value: string, make: (faker: Faker, extra: number) => string, ok: (fake: string) => boolean, widens = false): string {
    const key = `${kind}\u0000${value}`;
    const known = this.#memo.get(key);
    if (known !== undefined) return known;
    for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
      const digest = createHmac("sha256", this.salt).update(`${key}\u0000${attempt}`).digest();
      this.#faker.seed([digest.readUInt32BE(0), digest.readUInt32BE(4), digest.readUInt32BE(8), digest.readUInt32BE(12)]);
      const extra = widens && attempt >= PLAIN_TRIES ? 1 + Math.floor((attempt - PLAIN_TRIES) / TRIES_A_WIDTH) : 0;
      const fake = make(this.#faker, extra);
      if (ok(fake)) {
        this.#memo.set(key, fake);
        return fake;
      }
    }
    throw new NoRoomError(`each of ${MAX_TRIES} tries was or held an original value (the source's values leave no room for one)`);
  }

  #clean = (fake: string) => !this.#finder.has(fake);
  #notAName = (fake: string) => !this.#names.has(keyOf(fake)) && this.#clean(fake);

  firstName(real: string): string {
    return real === "" ? "" : this.#fake("first", keyOf(real), (f) => f.person.firstName(), this.#notAName);
  }

  lastName(real: string): string {
    return real === "" ? "" : this.#fake("last", keyOf(real), (f) => f.person.lastName(), this.#notAName);
  }

  /** Same fake for any case or form of the address (the API matches emails in any case). */
  email(real: string): string {
    if (real === "") return "";
    const ascii = (name: string) => name.toLowerCase().replace(/[^a-z]/g, "") || "x";
    return this.#fake(
      "email",
      keyOf(real),
      (f) => `${ascii(f.person.firstName())}.${ascii(f.person.lastName())}${f.number.int(99)}@${f.helpers.arrayElement(DOMAINS)}`,
      (fake) => !this.#emails.has(keyOf(fake)) && fake.split("@")[0]!.split(/[.\d]+/).every((part) => part === "" || !this.#names.has(part)) && this.#clean(fake),
    );
  }

  /** A `dd-mm` the month has, not the real one. */
  birthday(real: string): string {
    return this.#fake(
      "birthday",
      real,
      (f) => {
        const month = f.number.int({ min: 1, max: 12 });
        const day = f.number.int({ min: 1, max: DAYS_IN_MONTH[month - 1]! });
        return `${String(day).padStart(2, "0")}-${String(month).padStart(2, "0")}`;
      },
      (fake) => fake !== real && this.#clean(fake),
    );
  }

  /** Each digit another, everything else as written. */
  phone(real: string): string {
    return this.#fake("phone", real, (f) => real.replace(/\d/g, () => String(f.number.int(9))), (fake) => !this.#phones.has(digitsOf(fake)) && this.#clean(fake));
  }

  /** The prefix (up to the last `-`) kept; each letter another letter, each digit another digit, unique in the file. */
  code(real: string): string {
    const cut = real.lastIndexOf("-") + 1;
    const prefix = real.slice(0, cut);
    const last = /[A-Za-z0-9](?=[^A-Za-z0-9]*$)/.exec(real.slice(cut))?.[0] ?? "A";
    const letter = (f: Faker, like: string) => {
      const drawn = f.helpers.arrayElement([...LETTERS]);
      return like === like.toLowerCase() ? drawn.toLowerCase() : drawn;
    };
    const like = (f: Faker, ch: string) => (/\d/.test(ch) ? String(f.number.int(9)) : letter(f, ch));
    return this.#fake(
      "code",
      real,
      (f, extra) => prefix + real.slice(cut).replace(/[A-Za-z0-9]/g, (ch) => like(f, ch)) + Array.from({ length: extra }, () => like(f, last)).join(""),
      (fake) => !this.real.codes.has(fake) && this.#clean(fake) && this.#unique(`code:${fake}`),
      true,
    );
  }

  /** As many digits (more only when those are all taken), not starting with 0, unique and no real id. */
  customerId(real: string): string {
    return this.#fake(
      "id",
      real,
      (f, extra) => String(f.number.int({ min: 1, max: 9 })) + f.string.numeric({ length: real.length - 1 + extra, allowLeadingZeros: true }),
      (fake) => !this.real.ids.has(fake) && this.#clean(fake) && this.#unique(`id:${fake}`),
      true,
    );
  }

  #unique(key: string): boolean {
    if (this.#given.has(key)) return false;
    this.#given.add(key);
    return true;
  }

  /**
   * Free text (an activity's label) with codes replaced, customer ids when they are remapped, and
   * (`personal`) the customers' names, emails and the labels' phone-like numbers, as the finder
   * finds them; the text comes back in NFKC form when anything was replaced, else as it was.
   */
  text(text: string, options: { personal: boolean; remapIds: boolean }): string {
    const kinds = new Set<Kind>(["discount code"]);
    if (options.remapIds) kinds.add("customer id");
    if (options.personal) for (const kind of ["name", "email", "phone number"] as const) kinds.add(kind);
    const found = this.#finder.find(text, { kinds });
    return found.hits.length === 0 ? text : replaceHits(found.text, found.hits, (hit, written) => this.#fakeOf(hit.phrase, written));
  }

  /** The fake of what `written` holds; a phone number keeps the text's own spacing, digit for digit. */
  #fakeOf(phrase: Phrase, written: string): string {
    switch (phrase.kind) {
      case "discount code":
        return this.code(phrase.value);
      case "customer id":
        return this.customerId(phrase.value);
      case "email":
        return this.email(phrase.value);
      case "phone number": {
        const digits = digitsOf(this.phone(phrase.value));
        let i = 0;
        return written.replace(/\d/g, () => digits[i++] ?? "0");
      }
      case "name": {
        if (phrase.parts === undefined) return phrase.role === "first" ? this.firstName(phrase.value) : this.lastName(phrase.value);
        const [first, last] = [this.firstName(phrase.parts[0]), this.lastName(phrase.parts[1])];
        return phrase.reversed ? `${last} ${first}` : `${first} ${last}`;
      }
    }
  }
}
