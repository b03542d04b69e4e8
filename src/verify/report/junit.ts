/**
 * The JUnit XML report CI servers read: one testsuite, one testcase per check; a failure carries
 * expected, observed and the request; a skip or a waiver is `skipped` with its reason.
 * @module
 */
import { escapeXml } from "../../coverage/formats.js";
import type { Report } from "./types.js";


export function junitReport(report: Report): string {
  const { fail, skip, waived } = report.summary;
  const cases = report.checks.map((check) => {
    const open = `  <testcase classname="loyalty-sim.verify.${check.id.split(".")[0]}" name="${escapeXml(`${check.id}: ${check.title}`)}">`;
    if (check.status === "pass") return `${open}</testcase>`;
    if (check.status === "fail") {
      const body = [`expected: ${check.expected}`, `observed: ${check.observed}`, ...(check.request ? [`request: ${check.request}`] : []), `basis: ${check.basis}`].join("\n");
      return `${open}\n    <failure message="${escapeXml(check.observed ?? "")}" type="${check.basis}">${escapeXml(body)}</failure>\n  </testcase>`;
    }
    return `${open}\n    <skipped message="${escapeXml(check.reason ?? "")}"/>\n  </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuite name="loyalty-sim verify" tests="${report.checks.length}" failures="${fail}" errors="0" skipped="${skip + waived}" timestamp="${report.startedAt}">`,
    "  <properties>",
    `    <property name="target" value="${escapeXml(report.target)}"/>`,
    `    <property name="mode" value="${report.mode}"/>`,
    `    <property name="requests" value="${report.requests}"/>`,
    "  </properties>",
    ...cases,
    "</testsuite>",
    "",
  ].join("\n");
}
