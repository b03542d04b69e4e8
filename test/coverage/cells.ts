/** @module What coverage tests compare: the cells some request met. */
import type { CoverageReport } from "../../src/index.js";

/** Every cell some request met, as [operation, outcome, count, forced, rest, graphql]. */
export function metCells(report: CoverageReport) {
  return Object.entries(report.operations).flatMap(([op, { cells }]) => cells.filter((c) => c.count > 0).map((c) => [op, c.outcome, c.count, c.forced, c.rest, c.graphql]));
}
