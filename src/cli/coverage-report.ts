/** @module `--coverage-report FILE`: every shop's coverage, written once as the server shuts down. */
import { writeFileSync } from "node:fs";
import { formatCoverage, formatOfFile } from "../coverage/formats.js";
import type { BuiltSimulator } from "../simulator/simulator.js";

/** Writes the report of every shop summed; a failed write is said, and does not stop the shutdown. */
export function writeCoverageReport(sim: { built: BuiltSimulator; engine: BuiltSimulator["engine"] }, file: string): void {
  const { built, engine } = sim;
  const report = built.coverage.report("all", engine.shops().map((shop) => shop.id));
  try {
    writeFileSync(file, formatCoverage(report, formatOfFile(file)));
    console.log(`loyalty-sim: coverage report written to ${file} (${report.summary.percent}% of cells met, ${report.duplicateWrites.length} duplicate write(s))`);
  } catch (error) {
    console.error(`loyalty-sim: could not write the coverage report ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
