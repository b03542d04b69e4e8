/**
 * Deterministic pseudonyms: each fake is drawn by the project's faker, seeded from an HMAC-SHA256
 * of the salt and the real value, so the same value gives the same fake within a file and in every
 * import with the same salt (two customers sharing an email still share one), and without the salt
 * a fake tells nothing of its value. Formats are kept: an email stays an email (at a reserved
 * example domain), a phone-like string keeps its digit pattern, a birthday is a valid `dd-mm`, a
 * code keeps its prefix and the shape of the rest. A fake never equals a real value of its kind.
 * @module
 */
import { createHmac } from "node:crypto";
import type { Faker } from "@faker-js/faker";
import { DAYS_IN_MONTH } from "../engine/customers.js";
import { seededFaker } from "../engine/random.js";
import { CODE_TOKEN, DIGIT_TOKEN, EMAIL, phoneLike, wholeWords } from "./finder.js";

/** The real values the fakes must never equal, and the names to look for in text. */
export interface RealValues {
  firstNames: ReadonlySet<string>;
  lastNames: ReadonlySet<string>;
  /** Lower case. */
  emails: ReadonlySet<string>;
  codes: ReadonlySet<string>;
  ids: ReadonlySet<string>;
  /** Names that are also words of the program (a customer called Gold, a Gold tier): text keeps them. */
  programWords: ReadonlySet<string>;
}

const LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ";
const DOMAINS = ["example.com", "example.net", "example.org"];

export class Pseudonyms {
  readonly #faker: Faker = seededFaker(0);
  readonly #memo = new Map<string, string>();
  readonly #given = new Set<string>();
  readonly #names: ReadonlySet<string>;
  readonly #inText: RegExp | undefined;

  constructor(
    private readonly salt: string,
    private readonly real: RealValues,
  ) {
    this.#names = new Set([...real.firstNames, ...real.lastNames].map((n) => n.toLowerCase()));
    this.#inText = wholeWords([...real.firstNames, ...real.lastNames].filter((n) => !real.programWords.has(n)));
  }

  /** The fake of `value` as `kind`: made once, then the same; drawn again while `ok` refuses it. */
  #fake(kind: string, value: string, make: (faker: Faker) => string, ok: (fake: string) => boolean): string {
    const key = `${kind}\u0000${value}`;
    const known = this.#memo.get(key);
    if (known !== undefined) return known;
    for (let attempt = 0; ; attempt++) {
      const digest = createHmac("sha256", this.salt).update(`${key}\u0000${attempt}`).digest();
      this.#faker.seed([digest.readUInt32BE(0), digest.readUInt32BE(4), digest.readUInt32BE(8), digest.readUInt32BE(12)]);
      const fake = make(this.#faker);
      if (ok(fake)) {
        this.#memo.set(key, fake);
        return fake;
      }
    }
  }

  #notAName = (fake: string) => !this.#names.has(fake.toLowerCase());

  firstName(real: string): string {
    return real === "" ? "" : this.#fake("first", real, (f) => f.person.firstName(), this.#notAName);
  }

  lastName(real: string): string {
    return real === "" ? "" : this.#fake("last", real, (f) => f.person.lastName(), this.#notAName);
  }

  /** Same fake for any case of the address (the API matches emails in any case). */
  email(real: string): string {
    if (real === "") return "";
    const lower = real.toLowerCase();
    const ascii = (name: string) => name.toLowerCase().replace(/[^a-z]/g, "") || "x";
    return this.#fake(
      "email",
      lower,
      (f) => `${ascii(f.person.firstName())}.${ascii(f.person.lastName())}${f.number.int(99)}@${f.helpers.arrayElement(DOMAINS)}`,
      (fake) => !this.real.emails.has(fake) && fake.split("@")[0]!.split(/[.\d]+/).every((part) => part === "" || this.#notAName(part)),
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
      (fake) => fake !== real,
    );
  }

  /** Each digit another, everything else as written. */
  phone(real: string): string {
    return this.#fake("phone", real, (f) => real.replace(/\d/g, () => String(f.number.int(9))), (fake) => fake !== real);
  }

  /** The prefix (up to the last `-`) kept; each letter another letter, each digit another digit, unique in the file. */
  code(real: string): string {
    const cut = real.lastIndexOf("-") + 1;
    const prefix = real.slice(0, cut);
    return this.#fake(
      "code",
      real,
      (f) =>
        prefix +
        real.slice(cut).replace(/[A-Za-z0-9]/g, (ch) => {
          if (/\d/.test(ch)) return String(f.number.int(9));
          const letter = f.helpers.arrayElement([...LETTERS]);
          return ch === ch.toLowerCase() ? letter.toLowerCase() : letter;
        }),
      (fake) => !this.real.codes.has(fake) && this.#unique(`code:${fake}`),
    );
  }

  /** As many digits, not starting with 0, unique and no real id. */
  customerId(real: string): string {
    return this.#fake(
      "id",
      real,
      (f) => String(f.number.int({ min: 1, max: 9 })) + f.string.numeric({ length: real.length - 1, allowLeadingZeros: true }),
      (fake) => !this.real.ids.has(fake) && this.#unique(`id:${fake}`),
    );
  }

  #unique(key: string): boolean {
    if (this.#given.has(key)) return false;
    this.#given.add(key);
    return true;
  }

  /**
   * Free text (an activity's label) with codes replaced, customer ids when they are remapped, and
   * (`personal`) what looks personal: emails, phone-like numbers, the customers' names as whole words.
   */
  text(text: string, options: { personal: boolean; remapIds: boolean }): string {
    let out = text.replace(CODE_TOKEN, (token) => (this.real.codes.has(token) ? this.code(token) : token));
    if (options.remapIds) out = out.replace(DIGIT_TOKEN, (token) => (this.real.ids.has(token) ? this.customerId(token) : token));
    if (!options.personal) return out;
    out = out.replace(EMAIL, (email) => this.email(email));
    for (const phone of phoneLike(out)) out = out.replaceAll(phone, this.phone(phone));
    if (this.#inText) out = out.replace(this.#inText, (name) => (this.real.firstNames.has(name) ? this.firstName(name) : this.lastName(name)));
    return out;
  }
}
