/**
 * The coverage report written out: text for a terminal, JSON as the control API answers it,
 * Markdown for a CI job summary, JUnit XML (one test case per cell: untested cells skipped,
 * duplicate writes failed). The CLI, the server's `--coverage-report` and a test suite's
 * teardown write the same.
 * @module
 */
import { CATALOGUE } from "./catalogue.js";
import type { CoverageReport, DuplicateWrite } from "./report.js";

export const COVERAGE_FORMATS = ["text", "json", "markdown", "junit"] as const;
export type CoverageFormat = (typeof COVERAGE_FORMATS)[number];

export const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[ch]!).replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, "");

/** Each operation's catalogue cells, split by how they were met. */
function rows(report: CoverageReport) {
  return Object.entries(report.operations).map(([operation, { cells }]) => {
    const catalogue = new Set<string>(CATALOGUE.get(operation as never) ?? []);
    const own = cells.filter((cell) => catalogue.has(cell.outcome));
    return {
      operation,
      covered: own.filter((cell) => cell.count > 0).length,
      cells: own.length,
      tested: own.filter((cell) => cell.count > cell.forced).map((cell) => cell.outcome),
      forcedOnly: own.filter((cell) => cell.count > 0 && cell.count === cell.forced).map((cell) => cell.outcome),
      untested: own.filter((cell) => cell.count === 0).map((cell) => cell.outcome),
    };
  });
}

const headline = (r: CoverageReport) =>
  `${r.summary.covered} of ${r.summary.cells} cells (${r.summary.percent}%) met; ${r.duplicateWrites.length} duplicate write${r.duplicateWrites.length === 1 ? "" : "s"}`;
const shopName = (r: CoverageReport) => (r.shop === "all" ? "every shop" : `shop ${r.shop}`);
const duplicateLine = (d: DuplicateWrite) =>
  `${d.operation} for customer ${d.customerId ?? "(none)"}: ${d.first} lost its answer after it committed, ${d.repeat} wrote it again (${d.idempotencyKey ? "with" : "without"} an Idempotency-Key)`;

export function textCoverage(report: CoverageReport): string {
  const lines = [`loyalty-sim coverage, ${shopName(report)}: ${headline(report)}`, ""];
  for (const d of report.duplicateWrites) lines.push(`DUPLICATE WRITE ${duplicateLine(d)}`);
  if (report.duplicateWrites.length > 0) lines.push("");
  for (const row of rows(report)) {
    lines.push(`${row.operation} ${row.covered}/${row.cells}`);
    if (row.tested.length > 0) lines.push(`  tested:       ${row.tested.join(", ")}`);
    if (row.forcedOnly.length > 0) lines.push(`  forced only:  ${row.forcedOnly.join(", ")}`);
    if (row.untested.length > 0) lines.push(`  untested:     ${row.untested.join(", ")}`);
  }
  return `${lines.join("\n")}\n`;
}

const code = (outcomes: string[]) => outcomes.map((o) => `\`${o}\``).join(" ");

export function markdownCoverage(report: CoverageReport): string {
  const lines = [`# loyalty-sim coverage: ${shopName(report)}`, "", `**${headline(report)}**`, ""];
  if (report.duplicateWrites.length > 0) {
    lines.push("## Duplicate writes", "", "| operation | customer | lost answer | repeat | Idempotency-Key |", "|---|---|---|---|---|");
    for (const d of report.duplicateWrites) lines.push(`| ${d.operation} | ${d.customerId ?? ""} | \`${d.first}\` | \`${d.repeat}\` | ${d.idempotencyKey ? "yes" : "no"} |`);
    lines.push("");
  }
  lines.push("| operation | met | tested | forced only | untested |", "|---|---|---|---|---|");
  for (const row of rows(report)) lines.push(`| ${row.operation} | ${row.covered}/${row.cells} | ${code(row.tested)} | ${code(row.forcedOnly)} | ${code(row.untested)} |`);
  return `${lines.join("\n")}\n`;
}

export function junitCoverage(report: CoverageReport): string {
  const cases: string[] = [];
  let skipped = 0;
  for (const row of rows(report)) {
    const open = (outcome: string) => `  <testcase classname="loyalty-sim.coverage.${row.operation}" name="${escapeXml(`${row.operation} ${outcome}`)}">`;
    for (const outcome of [...row.tested, ...row.forcedOnly]) cases.push(`${open(outcome)}</testcase>`);
    for (const outcome of row.untested) cases.push(`${open(outcome)}\n    <skipped message="untested: no request met this outcome"/>\n  </testcase>`);
    skipped += row.untested.length;
  }
  for (const d of report.duplicateWrites) {
    const message = escapeXml(duplicateLine(d));
    cases.push(`  <testcase classname="loyalty-sim.coverage.duplicateWrites" name="${escapeXml(`duplicate ${d.operation} ${d.repeat}`)}">\n    <failure message="${message}" type="duplicateWrite">${message}</failure>\n  </testcase>`);
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuite name="loyalty-sim coverage" tests="${cases.length}" failures="${report.duplicateWrites.length}" errors="0" skipped="${skipped}">`,
    "  <properties>",
    `    <property name="shop" value="${escapeXml(report.shop)}"/>`,
    `    <property name="percent" value="${report.summary.percent}"/>`,
    "  </properties>",
    ...cases,
    "</testsuite>",
    "",
  ].join("\n");
}

/** The report in `format`. */
export function formatCoverage(report: CoverageReport, format: CoverageFormat): string {
  if (format === "json") return `${JSON.stringify(report, null, 2)}\n`;
  if (format === "markdown") return markdownCoverage(report);
  if (format === "junit") return junitCoverage(report);
  return textCoverage(report);
}

/** The format a file's name asks for: `.json`, `.md`, `.xml` (JUnit), else text. */
export function formatOfFile(file: string): CoverageFormat {
  if (/\.json$/i.test(file)) return "json";
  if (/\.(md|markdown)$/i.test(file)) return "markdown";
  if (/\.xml$/i.test(file)) return "junit";
  return "text";
}

/**
 * Whether the report fails a check: under `min` percent, or with a duplicate write (unless
 * `allowDuplicates`). The reasons, one a line; none when it passes.
 */
export function coverageFailures(report: CoverageReport, options: { min?: number; allowDuplicates?: boolean } = {}): string[] {
  const failures: string[] = [];
  if (options.min !== undefined && report.summary.percent < options.min) failures.push(`coverage ${report.summary.percent}% is under the minimum of ${options.min}%`);
  if (!options.allowDuplicates && report.duplicateWrites.length > 0) failures.push(`${report.duplicateWrites.length} duplicate write(s): a write was sent again after its answer was lost`);
  return failures;
}
