/**
 * The coverage report's formats on a known session: docs/coverage.md's Markdown example is what
 * the session gives; the text and JSON formats; the failures `--min` and duplicates give.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { coverageFailures, formatCoverage } from "../../src/index.js";
import { ROOT } from "../support/cli.js";
import { exampleSession } from "./example-session.js";

describe("issue 29: the coverage report's formats", () => {
  it("writes the Markdown docs/coverage.md shows, and text and JSON of the same report", async () => {
    const report = await exampleSession();
    const page = readFileSync(join(ROOT, "docs/coverage.md"), "utf8");
    const example = /```markdown\n([\s\S]*?)```/.exec(page)![1];
    expect(formatCoverage(report, "markdown")).toBe(example);
    expect(JSON.parse(formatCoverage(report, "json"))).toEqual(report);
    const text = formatCoverage(report, "text").split("\n");
    expect(text.slice(0, 3)).toEqual([
      "loyalty-sim coverage, shop 1: 6 of 224 cells (2.7%) met; 1 duplicate write",
      "",
      `DUPLICATE WRITE awardStamps for customer ${report.duplicateWrites[0]!.customerId}: visit-1 lost its answer after it committed, visit-1-retry wrote it again (without an Idempotency-Key)`,
    ]);
    expect(text).toContain("redeemReward 1/14");
    expect(text).toContain("  forced only:  INSUFFICIENT_STAMPS");
  });

  it("fails under the minimum and on a duplicate write, unless allowed", async () => {
    const report = await exampleSession();
    expect(coverageFailures(report)).toEqual(["1 duplicate write(s): a write was sent again after its answer was lost"]);
    expect(coverageFailures(report, { min: 2.7, allowDuplicates: true })).toEqual([]);
    expect(coverageFailures(report, { min: 2.8, allowDuplicates: true })).toEqual(["coverage 2.7% is under the minimum of 2.8%"]);
  });
});
