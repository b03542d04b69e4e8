/**
 * Seeded random source for everything the engine draws (discount codes, scenario probabilities),
 * so a run with the same seed repeats exactly; and seeded faker instances for generation.
 * @module
 */
import type { Faker } from "@faker-js/faker";
import { faker as english } from "@faker-js/faker/locale/en";

export interface RandomSource {
  /** A float in [0, 1). */
  next(): number;
}

/**
 * Faker's class, from its English instance: the package root, the one module that exports the
 * class, loads every locale (2.3 MB of code, 0.6 s of CPU at each start; docs/performance.md),
 * `locale/en` only English. test/engine/random.test.ts holds what it makes to the root's class.
 */
const FakerOfEnglish = english.constructor as typeof Faker;

/** A faker of our own (never the shared module instance), English (with faker's base locale under it, as its `en` module has), seeded. */
export function seededFaker(seed: number): Faker {
  const instance = new FakerOfEnglish({ locale: english.rawDefinitions });
  instance.seed(seed);
  return instance;
}

export function seededRandom(seed: number): RandomSource {
  const faker = seededFaker(seed);
  return { next: () => faker.number.float() };
}

/**
 * A random source whose draws during a write can be given back when the write is undone, so the
 * next write draws the same numbers: a rolled-back write leaves even the random sequence as it was.
 */
export class ReplayableRandom implements RandomSource {
  /** Draws given back, served before new ones. */
  #replay: number[] = [];
  #taken: number[] | undefined;
  #recording = false;

  constructor(private readonly source: RandomSource) {}

  next(): number {
    const value = this.#replay.length > 0 ? this.#replay.shift()! : this.source.next();
    if (this.#recording) (this.#taken ??= []).push(value);
    return value;
  }

  /** Starts remembering draws (a write begins). */
  record(): void {
    this.#recording = true;
    this.#taken = undefined;
  }

  /** The write ended: with `giveBack`, its draws are served again, in order. */
  stop(giveBack: boolean): void {
    if (giveBack && this.#taken) this.#replay = [...this.#taken, ...this.#replay];
    this.#recording = false;
    this.#taken = undefined;
  }
}

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
/** Characters after a code's prefix, as merchants' codes have them. */
export const CODE_LENGTH = 6;

/** Random letters and digits without look-alikes (no O/0, I/1), as merchants' codes use. */
export function randomCodeSuffix(random: RandomSource, length = CODE_LENGTH): string {
  let out = "";
  for (let i = 0; i < length; i++) out += CODE_ALPHABET[Math.floor(random.next() * CODE_ALPHABET.length)];
  return out;
}
