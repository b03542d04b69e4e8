/**
 * The text summary a person (or a CI log) reads: one line per check, the details of each that did
 * not pass, the customer before and after, the waivers, the counts.
 * @module
 */
import { describeState } from "../restore.js";
import { describeWaiver } from "../waivers.js";
import { REQUEST_BUDGET } from "../client.js";
import type { Report } from "./types.js";

const MARK = { pass: "pass", fail: "FAIL", skip: "skip", waived: "waived" } as const;

export function textReport(report: Report): string {
  const width = Math.max(...report.checks.map((c) => c.id.length));
  const lines = [`loyalty-sim verify: ${report.target}, ${report.mode === "write" ? `read and write checks, customer ${report.customer?.id}` : "read checks"}`, ""];
  for (const check of report.checks) {
    lines.push(`${MARK[check.status].padEnd(6)} ${check.id.padEnd(width)}  ${check.title}${check.status === "pass" ? "" : ` [${check.basis}]`}`);
    const indent = " ".repeat(7);
    if (check.status === "fail") {
      lines.push(`${indent}expected: ${check.expected}`, `${indent}observed: ${check.observed}`);
      if (check.request) lines.push(`${indent}request:  ${check.request}`);
      if (check.basis === "model") lines.push(`${indent}(a model check: production's docs are silent here and the simulator guessed; production answers otherwise)`);
    }
    if (check.reason) lines.push(`${indent}${check.status === "skip" ? "skipped: " : ""}${check.reason}`);
  }
  lines.push("");
  if (report.customer) {
    const { id, before, after, restore } = report.customer;
    lines.push(`Customer ${id}: before the run ${describeState(before)}; after it ${describeState(after)}`);
    if (restore.length > 0) lines.push(`THE CUSTOMER IS NOT AS IT WAS FOUND. To restore it, send:`, ...restore.map((r) => `  ${r}`));
  }
  for (const waiver of report.waivers.expired) lines.push(`Expired waiver (the run fails): ${describeWaiver(waiver)}`);
  for (const waiver of report.waivers.unmatched) lines.push(`Waiver that matched nothing: ${describeWaiver(waiver)}`);
  lines.push(...report.notes);
  const { pass, fail, skip, waived } = report.summary;
  lines.push(`${report.checks.length} checks: ${pass} pass, ${fail} fail, ${skip} skip, ${waived} waived; ${report.requests} requests (at most ${REQUEST_BUDGET})`);
  return `${lines.join("\n")}\n`;
}
