/**
 * The reader of large `--data` files: read in pieces (here a few bytes each, in blocks of a few
 * bytes, so every path of the mechanism runs on small files), it gives what JSON.parse gives, and
 * refuses what JSON.parse refuses.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { readJsonFile } from "../../src/persistence/json-pieces.js";

const dir = mkdtempSync(join(tmpdir(), "loyalty-sim-pieces-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** JSON.parse's answer and the piece reader's, for the same text. */
function both(text: string, maxPieceBytes: number, blockBytes: number) {
  const file = join(dir, `${files++}.json`);
  writeFileSync(file, text);
  const outcome = (read: () => unknown) => {
    try {
      return { value: read() };
    } catch (error) {
      expect(error).toBeInstanceOf(SyntaxError);
      return { error: "SyntaxError" };
    }
  };
  return { expected: outcome(() => JSON.parse(text)), actual: outcome(() => readJsonFile(file, { maxPieceBytes, blockBytes })) };
}

const limits = fc.record({ maxPieceBytes: fc.integer({ min: 1, max: 64 }), blockBytes: fc.integer({ min: 1, max: 32 }) });

describe("readJsonFile in pieces", () => {
  it("gives what JSON.parse gives, however it is indented (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 1, "\t"), limits, (value, indent, { maxPieceBytes, blockBytes }) => {
        const { expected, actual } = both(JSON.stringify(value, null, indent), maxPieceBytes, blockBytes);
        expect(actual).toStrictEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it("refuses exactly what JSON.parse refuses, and reads the rest alike (property)", () => {
    const edit = fc.record({ at: fc.nat(), remove: fc.boolean(), put: fc.constantFrom(..."{}[],:\" x1\\") });
    fc.assert(
      fc.property(fc.jsonValue(), edit, limits, (value, { at, remove, put }, { maxPieceBytes, blockBytes }) => {
        const text = JSON.stringify(value, null, 1);
        const i = at % (text.length + 1);
        const edited = `${text.slice(0, i)}${put}${text.slice(remove ? i + 1 : i)}`;
        const { expected, actual } = both(edited, maxPieceBytes, blockBytes);
        expect(actual).toStrictEqual(expected);
      }),
      { numRuns: 1500 },
    );
  });

  it.each([
    ["a __proto__ member stays data", '{"a":[1,2,3],"__proto__":{"polluted":[1,2,3,4]},"b":{"__proto__":[5,6,7]}}'],
    ["multi-byte characters across blocks", JSON.stringify({ ünïcødé: ["€€€€", "日本語テキスト", "😀😀"], "🔑": { k: "ß".repeat(9) } })],
    ["escaped quotes and brackets in strings", JSON.stringify({ "a\"]}": ["\\", "[{\"", "},", ":\\\""], b: "\\\\" })],
    ["a string longer than a piece", JSON.stringify({ long: "x".repeat(100), list: ["y".repeat(50), 1] })],
    ["whitespace around everything", ' \n { "a" : [ 1 , { "b" : [ 2 , 3 ] } ] , "c" : { } , "d" : [ ] } \n '],
  ])("%s", (_, text) => {
    for (const maxPieceBytes of [1, 3, 8, 20]) {
      for (const blockBytes of [1, 2, 5, 64]) {
        const { expected, actual } = both(text, maxPieceBytes, blockBytes);
        expect(actual).toStrictEqual(expected);
        expect(Object.getPrototypeOf((actual as { value: object }).value)).toBe(Object.prototype);
      }
    }
  });

  it.each([
    ["", "an empty file", "refused"],
    ["[1,2] 3", "a second value", "refused"],
    ['{"a":[1,2]]', "a mismatched bracket", "refused"],
    ['[1,2,{"a":[3,4]}', "an unclosed array", "refused"],
    ['{"a" [1,2,3,4]}', "a missing colon", "refused"],
    ["[[1,2,3] 4]", "a missing comma after a large member", "refused"],
    ["[,[1,2,3]]", "a comma before any member", "refused"],
    ["[[1,2,3],]", "a trailing comma", "refused"],
    ["]", "a lone closing bracket", "refused"],
    ["      ", "only whitespace", "refused"],
    ["[1,2,[3,4] ]", "a large member last", "read"],
  ])("%j (%s) is %s, as JSON.parse does", (text, _, outcome) => {
    const { expected, actual } = both(text, 2, 3);
    expect("error" in expected ? "refused" : "read").toBe(outcome);
    expect(actual).toStrictEqual(expected);
  });
});
