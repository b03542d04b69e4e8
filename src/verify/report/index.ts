/**
 * The reports, by format, and the one place their text is written out. The report's data is made
 * safe before any renderer sees it (`safeReport`: no credential in any string, control characters
 * escaped), and each rendered text goes through `redact` as a last guard, which looks for every
 * form a renderer may write a credential in: no credential reaches a file or a log whatever an
 * answer held.
 * @module
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { ReportFormat } from "../options.js";
import { escapeControls, mapStrings, redactForms, secretForms } from "../scrub.js";
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

/** The text with each secret (3 characters or more), as it is and as any format escapes it, replaced by `[redacted]`. */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  return redactForms(text, secretForms(secrets));
}

/** The report as every renderer takes it: each string without a credential in any form, its control characters escaped. */
export function safeReport(report: Report, secrets: readonly (string | undefined)[]): Report {
  const forms = secretForms(secrets);
  return mapStrings(report, (text) => escapeControls(redactForms(text, forms)));
}

export function renderReport(report: Report, format: ReportFormat): string {
  return RENDER[format](report);
}

/** Writes each report asked for, from the report made safe and redacted once more, making its folder when needed. */
export function writeReports(report: Report, reports: readonly { format: ReportFormat; file: string }[], secrets: readonly (string | undefined)[]): void {
  const safe = safeReport(report, secrets);
  for (const { format, file } of reports) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, redact(renderReport(safe, format), secrets));
  }
}
