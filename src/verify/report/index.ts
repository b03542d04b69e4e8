/**
 * The reports, by format, and the one place their text is written out: every output of a run goes
 * through `redact`, so no credential reaches a file or a log whatever an answer held.
 * @module
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { ReportFormat } from "../options.js";
import { junitReport } from "./junit.js";
import { markdownReport } from "./markdown.js";
import type { Report } from "./types.js";

export { textReport } from "./text.js";
export { exitCodeOf, type CheckReport, type Report, type Status } from "./types.js";

const RENDER: Record<ReportFormat, (report: Report) => string> = {
  json: (report) => `${JSON.stringify(report, null, 2)}\n`,
  junit: junitReport,
  markdown: markdownReport,
};

/** The text with each secret (3 characters or more) replaced by `[redacted]`. */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) if (secret !== undefined && secret.length >= 3) out = out.split(secret).join("[redacted]");
  return out;
}

export function renderReport(report: Report, format: ReportFormat): string {
  return RENDER[format](report);
}

/** Writes each report asked for, redacted, making its folder when needed. */
export function writeReports(report: Report, reports: readonly { format: ReportFormat; file: string }[], secrets: readonly (string | undefined)[]): void {
  for (const { format, file } of reports) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, redact(renderReport(report, format), secrets));
  }
}
