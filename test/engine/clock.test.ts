import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isoTimestamp } from "../../src/engine/clock.js";

/** What Date writes for the same instant, to the second, with production's `+00:00`. */
const viaDate = (ms: number) => `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, -5)}+00:00`;

describe("isoTimestamp", () => {
  it.each([
    [0, "1970-01-01T00:00:00+00:00"],
    [-1, "1969-12-31T23:59:59+00:00"],
    [Date.UTC(2024, 1, 29, 23, 59, 59, 999), "2024-02-29T23:59:59+00:00"],
    [Date.UTC(2100, 2, 1, 0, 0, 0), "2100-03-01T00:00:00+00:00"],
    [Date.UTC(2000, 11, 31, 12, 30, 5), "2000-12-31T12:30:05+00:00"],
    [Date.UTC(9999, 11, 31, 23, 59, 59), "9999-12-31T23:59:59+00:00"],
    [Date.UTC(10_000, 0, 1), "9999-12-31T23:59:59+00:00"],
    [Date.UTC(999, 0, 1), "0999-01-01T00:00:00+00:00"],
    [Date.parse("0000-01-01T00:00:00Z"), "0000-01-01T00:00:00+00:00"],
    [Date.parse("0000-01-01T00:00:00Z") - 1, "0000-01-01T00:00:00+00:00"],
  ])("%d is %s", (ms, text) => {
    expect(isoTimestamp(ms)).toBe(text);
  });

  it("agrees with Date for every instant of years 0 to 9999, and writes no other year (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.parse("0000-01-01T00:00:00Z"), max: Date.parse("9999-12-31T23:59:59.999Z") }), (ms) => {
        expect(isoTimestamp(ms)).toBe(viaDate(ms));
      }),
      { numRuns: 20_000 },
    );
    fc.assert(
      fc.property(fc.double(), (ms) => {
        expect(isoTimestamp(ms)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
      }),
      { numRuns: 20_000 },
    );
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1900, 0, 1), max: Date.UTC(2200, 0, 1) }), (ms) => {
        expect(isoTimestamp(ms)).toBe(viaDate(ms));
      }),
      { numRuns: 20_000 },
    );
  });
});
