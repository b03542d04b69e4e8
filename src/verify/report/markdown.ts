/**
 * The Markdown report, for a pull request comment or a job summary: the counts, a table of every
 * check, then the details of those that did not pass.
 * @module
 */
import { describeState } from "../restore.js";
import { cell } from "../scrub.js";
import { describeWaiver } from "../waivers.js";
import type { Report } from "./types.js";

const ICON = { pass: "pass", fail: "**FAIL**", skip: "skip", waived: "waived" } as const;

export function markdownReport(report: Report): string {
  const { pass, fail, skip, waived } = report.summary;
  const lines = [
    `# loyalty-sim verify: ${report.target}`,
    "",
    `${report.mode === "write" ? "Read and write" : "Read"} checks, started ${report.startedAt}: **${pass} pass, ${fail} fail, ${skip} skip, ${waived} waived**, ${report.requests} requests.`,
    "",
    "| status | check | basis | title |",
    "|---|---|---|---|",
    ...report.checks.map((c) => `| ${ICON[c.status]} | \`${c.id}\` | ${c.basis} | ${cell(c.title)} |`),
  ];
  const notable = report.checks.filter((c) => c.status !== "pass");
  if (notable.length > 0) lines.push("", "## Details");
  for (const c of notable) {
    lines.push("", `### \`${c.id}\` (${c.status}, ${c.basis})`, "", `- expected: ${cell(c.expected)}`);
    if (c.observed !== null) lines.push(`- observed: ${cell(c.observed)}`);
    if (c.request) lines.push(`- request: \`${c.request}\``);
    if (c.reason) lines.push(`- ${c.status === "skip" ? "skipped" : "waiver"}: ${cell(c.reason)}`);
  }
  if (report.customer) {
    const { id, before, after, restore } = report.customer;
    lines.push("", "## The customer", "", `- ${id} before: ${describeState(before)}`, `- after: ${describeState(after)}`);
    if (restore.length > 0) lines.push("- **not as found**; to restore it, send:", ...restore.map((r) => `  - \`${r}\``));
  }
  if (report.waivers.expired.length + report.waivers.unmatched.length > 0) lines.push("", "## Waivers", "");
  for (const w of report.waivers.expired) lines.push(`- expired (the run fails): ${cell(describeWaiver(w))}`);
  for (const w of report.waivers.unmatched) lines.push(`- matched nothing: ${cell(describeWaiver(w))}`);
  return `${lines.join("\n")}\n`;
}
