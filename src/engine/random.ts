/**
 * Seeded random source for everything the engine draws (discount codes, scenario probabilities),
 * so a run with the same seed repeats exactly; and seeded faker instances for generation.
 * @module
 */
import type { Faker } from "@faker-js/faker";
// The English locale module alone: the package root loads every locale (about 0.2 s of start-up).
import { faker as english } from "@faker-js/faker/locale/en";

export interface RandomSource {
  /** A float in [0, 1). */
  next(): number;
}

type FakerClass = new (options: { locale: Faker["rawDefinitions"]; seed?: number }) => Faker;

/** A faker of our own (never the shared module instance), English, seeded. */
export function seededFaker(seed: number): Faker {
  const instance = new (english.constructor as FakerClass)({ locale: english.rawDefinitions });
  instance.seed(seed);
  return instance;
}

export function seededRandom(seed: number): RandomSource {
  const faker = seededFaker(seed);
  return { next: () => faker.number.float() };
}

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** Random letters and digits without look-alikes (no O/0, I/1), as merchants' codes use. */
export function randomCodeSuffix(random: RandomSource, length = 6): string {
  let out = "";
  for (let i = 0; i < length; i++) out += CODE_ALPHABET[Math.floor(random.next() * CODE_ALPHABET.length)];
  return out;
}
