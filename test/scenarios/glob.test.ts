/**
 * Path globs (src/scenarios/glob.ts): the automaton against a plain recursive matcher written from
 * the rules docs/scenarios.md gives, and against the regex the globs used to be (their semantics are unchanged),
 * on generated patterns and paths; then the patterns a backtracking matcher never finishes.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_GLOB_LENGTH, pathGlob } from "../../src/scenarios/glob.js";

const BASE = "/rest_api/v1";

/** The rules, read literally: memoised recursion over pattern and path positions. */
function reference(pattern: string, path: string): boolean {
  const p = pattern.startsWith(`${BASE}/`) ? pattern.slice(BASE.length) : pattern;
  const memo = new Map<number, boolean>();
  const at = (i: number, j: number): boolean => {
    const key = i * (path.length + 1) + j;
    let known = memo.get(key);
    if (known === undefined) memo.set(key, (known = step(i, j)));
    return known;
  };
  const step = (i: number, j: number): boolean => {
    const more = j < path.length;
    if (i === p.length) return j === path.length || (j === path.length - 1 && path[j] === "/");
    if (p[i] === "*" && p[i + 1] === "*") return at(i + 2, j) || (more && at(i, j + 1));
    if (p[i] === "*") return at(i + 1, j) || (more && path[j] !== "/" && at(i, j + 1));
    if (p[i] === "{") {
      const close = p.indexOf("}", i);
      const after = close === -1 ? p.length : close + 1;
      for (let k = j; k < path.length && path[k] !== "/"; k++) if (at(after, k + 1)) return true;
      return false;
    }
    return more && path[j] === p[i] && at(i + 1, j + 1);
  };
  return at(0, 0);
}

/** The regex globs compiled to before (with the `s` flag: `**` crosses any character). */
function formerRegex(pattern: string): RegExp {
  const relative = pattern.startsWith(`${BASE}/`) ? pattern.slice(BASE.length) : pattern;
  let out = "";
  for (let i = 0; i < relative.length; i++) {
    const ch = relative[i]!;
    if (ch === "*" && relative[i + 1] === "*") {
      out += ".*";
      i++;
    } else if (ch === "*") out += "[^/]*";
    else if (ch === "{") {
      const end = relative.indexOf("}", i);
      out += "[^/]+";
      i = end === -1 ? relative.length : end;
    } else out += ch.replace(/[.+?^$()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}/?$`, "s");
}

const patternArb = fc
  .tuple(fc.boolean(), fc.array(fc.constantFrom("/", "a", "b", ".", "*", "**", "{id}", "{", "}", "-"), { maxLength: 10 }))
  .map(([based, parts]) => `${based ? BASE : ""}/${parts.join("")}`);
const pathArb = fc.array(fc.constantFrom("/", "a", "b", ".", "-", "{", "}", "*", "\n"), { maxLength: 12 }).map((parts) => `/${parts.join("")}`);

describe("pathGlob", () => {
  it("agrees with the reference matcher and with the former regex", () => {
    fc.assert(
      fc.property(patternArb, pathArb, (pattern, path) => {
        const got = pathGlob(pattern).test(path);
        expect(got).toBe(reference(pattern, path));
        expect(got).toBe(formerRegex(pattern).test(path));
      }),
      { numRuns: 5000 },
    );
  });

  it("agrees on paths built to match (so that matches are not rare)", () => {
    const filled = patternArb.chain((pattern) =>
      fc.tuple(fc.constant(pattern), fc.array(fc.constantFrom("", "a", "ab", "/", "a/b"), { minLength: 8, maxLength: 8 })),
    );
    fc.assert(
      fc.property(filled, ([pattern, fills]) => {
        let k = 0;
        const path = pattern
          .slice(pattern.startsWith(`${BASE}/`) ? BASE.length : 0)
          .replace(/\*\*|\*|\{[^}]*\}?/g, (token) => (token === "**" ? fills[k++ % 8]! : fills[k++ % 8]!.replace(/\//g, "") || (token.startsWith("{") ? "x" : "")));
        expect(pathGlob(pattern).test(path)).toBe(reference(pattern, path));
        expect(reference(pattern, path)).toBe(formerRegex(pattern).test(path));
      }),
      { numRuns: 3000 },
    );
  });

  it.each<[string, string, boolean]>([
    ["/customers/{id}", "/customers/42", true],
    ["/customers/{id}", "/customers/42/", true],
    ["/customers/{id}", "/customers/", false],
    ["/customers/{id}", "/customers/42//", false],
    ["/customers/*", "/customers/", true],
    ["/customers/*", "/customers/42/activities", false],
    ["/customers/**", "/customers/42/activities", true],
    ["/cust**", "/customers/42", true],
    ["/earn-*", "/earn-rules", true],
    ["/rest_api/v1/tiers/{id}", "/tiers/2", true],
    ["/rest_api/v1", "/rest_api/v1", true],
  ])("%s against %s: %s", (pattern, path, expected) => {
    expect(pathGlob(pattern).test(path)).toBe(expected);
  });

  // Each of these took a backtracking regex from seconds to hours; the timeout only makes a
  // regression fail instead of hanging the run.
  it("matches the patterns a backtracking matcher chokes on", () => {
    const segment = "a".repeat(100);
    expect(pathGlob("/*a*a*a*a*a*a*b").test(`/${segment}`)).toBe(false);
    expect(pathGlob("/*a*a*a*a*a*a*b").test(`/${segment}b`)).toBe(true);
    expect(pathGlob("/****************x").test(`/customers/${"1".repeat(60)}/activities`)).toBe(false);
    expect(pathGlob("/****************x").test(`/customers/${"1".repeat(60)}/x`)).toBe(true);
    const long = `/${"*a".repeat(MAX_GLOB_LENGTH / 2 - 1)}b`;
    expect(long.length).toBeLessThanOrEqual(MAX_GLOB_LENGTH);
    expect(pathGlob(long).test(`/${"a".repeat(8000)}`)).toBe(false);
  });
});
