/**
 * One simulator on a port for the whole run; each test file makes its own shop in it (file-shop.ts).
 * At the end, each shop's coverage report (docs/coverage.md): printed as Markdown (and added to the
 * CI job summary), the run failed under the threshold or on a duplicate write.
 */
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { coverageFailures, formatCoverage, startSimulator, type CoverageReport } from "loyalty-sim";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  interface ProvidedContext {
    loyaltyUrl: string;
    /** Where the files that run together meet (meet.ts). */
    meetingDir: string;
  }
}

/** Each file shop's share of the 224 cells: its tests read and award for one customer. */
const MIN_PERCENT = 1;

export default async function setup(project: TestProject) {
  // No hourly quota: a watch-mode run passes 1000 requests in an hour. Shops made later take it too.
  const sim = await startSimulator({ rateLimit: "off" });
  const meetingDir = mkdtempSync(join(tmpdir(), "vitest-app-"));
  project.provide("loyaltyUrl", sim.url);
  project.provide("meetingDir", meetingDir);
  return async () => {
    const saved = readdirSync(meetingDir).filter((file) => file.startsWith("coverage-"));
    const reports = [await sim.control.coverage(), ...saved.map((file) => JSON.parse(readFileSync(join(meetingDir, file), "utf8")) as CoverageReport)];
    await sim.close();
    rmSync(meetingDir, { recursive: true, force: true });
    const met = reports.filter((report) => report.summary.covered > 0);
    const markdown = met.map((report) => formatCoverage(report, "markdown")).join("\n");
    console.log(markdown);
    if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, markdown);
    const failures = met.flatMap((report) => coverageFailures(report, { min: MIN_PERCENT }).map((why) => `shop ${report.shop}: ${why}`));
    if (met.length === 0) failures.push("no request reached the simulator");
    if (failures.length > 0) throw new Error(`loyalty-sim coverage: ${failures.join("; ")}`);
  };
}
