/**
 * Seeded random source for everything the engine draws (discount codes, scenario probabilities),
 * so a run with the same seed repeats exactly.
 * @module
 */
import { generateMersenne53Randomizer } from "@faker-js/faker";

export interface RandomSource {
  /** A float in [0, 1). */
  next(): number;
}

export function seededRandom(seed: number): RandomSource {
  const randomizer = generateMersenne53Randomizer();
  randomizer.seed(seed);
  return { next: () => randomizer.next() };
}

const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** Random letters and digits without look-alikes (no O/0, I/1), as merchants' codes use. */
export function randomCodeSuffix(random: RandomSource, length = 6): string {
  let out = "";
  for (let i = 0; i < length; i++) out += CODE_ALPHABET[Math.floor(random.next() * CODE_ALPHABET.length)];
  return out;
}
