/**
 * The OpenAPI document is as strict as the server where OAS 3.1 can say it: no integer a request
 * carries is unbounded (or bounded past 2^53-1), every API operation documents the `Prefer`
 * header and the answers it can force, and the header's pattern takes exactly what the server's
 * parser takes. The cases one by one are in test/regressions/openapi-looser-than-server.test.ts.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DomainError, ERROR_CODES } from "../src/engine/errors.js";
import { parsePrefer, preferPattern } from "../src/scenarios/prefer.js";

type Schema = Record<string, unknown>;
const doc = JSON.parse(readFileSync(new URL("../openapi/openapi.json", import.meta.url), "utf8"));
const resolve = (s: Schema): Schema => (typeof s.$ref === "string" ? resolve(s.$ref.slice(2).split("/").reduce((o: any, k) => o[k], doc)) : s);
const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ path, method, op })),
);

/** Every integer schema under `schema`, with where it is. */
function integers(schema: unknown, where: string, seen = new Set<unknown>()): [string, Schema][] {
  if (schema === null || typeof schema !== "object" || seen.has(schema)) return [];
  seen.add(schema);
  const s = resolve(schema as Schema);
  const own: [string, Schema][] = s.type === "integer" || s.type === "number" ? [[where, s]] : [];
  return [...own, ...Object.entries(s).flatMap(([key, value]) => integers(value, `${where}/${key}`, seen))];
}

describe("the OpenAPI document's requests", () => {
  const inputs = operations.flatMap(({ path, method, op }) => [
    ...(op.parameters ?? []).map((p: Schema) => resolve(p)).flatMap((p: Schema) => integers(p.schema, `${method} ${path} ${p.in} ${p.name}`)),
    ...Object.entries(op.requestBody?.content ?? {}).flatMap(([type, media]: [string, any]) => integers(media.schema, `${method} ${path} body ${type}`)),
  ]);

  it("take no number without both bounds, and none past 2^53-1", () => {
    expect(inputs.length).toBeGreaterThan(20);
    const bound = (b: unknown, integer: boolean) => typeof b === "number" && Math.abs(b) <= Number.MAX_SAFE_INTEGER && (!integer || Number.isInteger(b));
    const loose = inputs.filter(([, s]) => !(bound(s.minimum, s.type === "integer") && bound(s.maximum, s.type === "integer")));
    expect(loose.map(([where, s]) => `${where}: ${JSON.stringify(s)}`)).toEqual([]);
  });

  it("every API operation takes the one Prefer parameter and declares the answers only forcing gives; the control API neither", () => {
    for (const { path, method, op } of operations) {
      const api = path.startsWith("/rest_api/v1/");
      const prefer = (op.parameters ?? []).filter((p: Schema) => p.$ref === "#/components/parameters/Prefer");
      expect([`${method} ${path}`, prefer.length, ["2XX", "3XX", "4XX", "5XX"].filter((r) => r in op.responses)]).toEqual([
        `${method} ${path}`,
        api ? 1 : 0,
        api ? ["2XX", "3XX", "4XX", "5XX"] : [],
      ]);
    }
    expect(doc.components.parameters.Prefer).toMatchObject({ name: "Prefer", in: "header", required: false, schema: { type: "string", pattern: preferPattern() } });
  });
});

describe("the Prefer pattern takes exactly what the server's parser takes", () => {
  const pattern = new RegExp(doc.components.parameters.Prefer.schema.pattern, "u");
  const parses = (header: string) => {
    try {
      parsePrefer(header);
      return true;
    } catch (error) {
      if (error instanceof DomainError && error.code === "VALIDATION_ERROR") return false;
      throw error;
    }
  };

  const anyCase = (word: string) => fc.array(fc.boolean(), { minLength: word.length, maxLength: word.length }).map((up) => [...word].map((c, i) => (up[i] ? c.toUpperCase() : c)).join(""));
  const space = fc.constantFrom("", " ", "  ", "\t", "\u00a0");
  const name = fc.oneof(anyCase("error"), anyCase("status"), anyCase("delay"), fc.constantFrom("", "errors", "return", "constructor", "__proto__", "toString", "e rror"), fc.string({ maxLength: 6 }));
  const bare = fc.oneof(
    fc.constantFrom(...ERROR_CODES, "void_failed", "NOPE", ""),
    fc.integer({ min: -5, max: 700 }).map(String),
    fc.integer({ min: 0, max: 130_000 }).map(String),
    fc.constantFrom("000001", "0120000", "120000", "120001", "099999", "1e3", "2.5", "0x10", "=", "1=2"),
    fc.string({ maxLength: 8 }),
  );
  const value = fc.oneof(bare, bare.map((v) => `"${v}"`), bare.map((v) => `"${v}`), bare.map((v) => `""${v}""`));
  const part = fc.tuple(space, name, space, fc.constantFrom("=", "", "=="), space, value, space).map((bits) => bits.join(""));
  const header = fc.oneof(fc.array(part, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(",")), space, fc.string({ maxLength: 30 }));

  it("on generated headers, well-formed and not", () => {
    let taken = 0;
    fc.assert(
      fc.property(header, (text) => {
        const expected = parses(text);
        if (expected) taken++;
        expect(pattern.test(text), JSON.stringify(text)).toBe(expected);
      }),
      { numRuns: 3000 },
    );
    // The generator reaches both sides.
    expect(taken).toBeGreaterThan(100);
  });

  it.each([
    ["", true],
    ["  ", true],
    ["error=VOID_FAILED", true],
    ['ERROR = "VOID_FAILED" , Delay = 120000', true],
    ["delay=000001, status=599", true],
    ["status=200", true],
    ["status=199", false],
    ["delay=120001", false],
    ["delay=0120000", false],
    ["error=VOID_FAILED, status=503", false],
    ["delay=1, delay=2", false],
    ["error=NOT_FOUND,", false],
    ["constructor=1", false],
  ])("%j: %s", (text, taken) => {
    expect([parses(text), pattern.test(text)]).toEqual([taken, taken]);
  });
});
