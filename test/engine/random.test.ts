/**
 * The seeded fakers come from faker's English module (src/engine/random.ts), not its root, which
 * loads every locale: they must draw exactly what the root's class with English over base draws,
 * or every seeded shop, code and pseudonym would change.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { base, en, Faker } from "@faker-js/faker";
import { describe, expect, it } from "vitest";
import { seededFaker, seededRandom } from "../../src/engine/random.js";
import { ROOT } from "../support/cli.js";

const draws = (f: Faker) => [f.person.firstName(), f.person.lastName(), f.internet.email(), f.phone.number(), f.number.float(), f.string.alphanumeric(8), f.date.past({ refDate: 0 }).getTime(), f.location.city()];

describe("seeded fakers", () => {
  it.each([0, 1, 42, 7936])("seed %i: the same draws as the root's Faker over [en, base]", (seed) => {
    const root = new Faker({ locale: [en, base] });
    root.seed(seed);
    const ours = seededFaker(seed);
    for (let i = 0; i < 50; i++) expect(draws(ours)).toEqual(draws(root));
    expect(ours.rawDefinitions).toStrictEqual(root.rawDefinitions);
  });

  it("a random source draws the root faker's floats", () => {
    const root = new Faker({ locale: [en, base] });
    root.seed(17);
    const ours = seededRandom(17);
    expect(Array.from({ length: 100 }, () => ours.next())).toEqual(Array.from({ length: 100 }, () => root.number.float()));
  });

  it("no module of src/ imports faker's root at run time (a type only)", () => {
    const files = readdirSync(join(ROOT, "src"), { recursive: true, encoding: "utf8" }).filter((f) => /\.tsx?$/.test(f));
    const importers = files.filter((f) => /^import (?!type )[^;]*from "@faker-js\/faker";/m.test(readFileSync(join(ROOT, "src", f), "utf8")));
    expect(importers).toEqual([]);
  });
});
