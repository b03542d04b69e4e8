/**
 * From answers to the report's checks: each check judged (or skipped, with why its steps were not
 * sent), then the waivers applied to the failures they cover.
 * @module
 */
import { describeProblems, Judge, type Check, type Problem } from "./checks/check.js";
import type { Answers, Vars } from "./plan.js";
import { failureOf } from "./runner.js";
import type { CheckReport } from "./report/types.js";
import { covers, describeWaiver, isExpired, type Waiver } from "./waivers.js";

/** A check's verdict before waivers: its problems kept apart, so a waiver can take some. */
interface Verdict {
  report: CheckReport;
  problems: Problem[];
}

function judgeOne(check: Check, answers: Answers, vars: Vars): Verdict {
  const base = { id: check.id, title: check.title, basis: check.basis, expected: check.expected };
  const notSent = check.steps.find((key) => !answers.has(key));
  if (notSent !== undefined) {
    return { report: { ...base, status: "skip", observed: null, request: null, reason: answers.skipped(notSent) ?? `step ${notSent} was not sent` }, problems: [] };
  }
  const judge = new Judge();
  try {
    check.judge({ answers, vars }, judge);
  } catch (error) {
    // A bug in a check, met on an answer no one foresaw: that check fails, the run goes on.
    const first = check.steps[0];
    judge.problem(`could not read the answer of ${first !== undefined ? answers.get(first).request : "the run"}: ${failureOf(error)}`);
  }
  const first = check.steps[0];
  const request = judge.problems.find((p) => p.request !== undefined)?.request ?? (first !== undefined ? answers.get(first).request : null);
  const failed = judge.problems.length > 0;
  return {
    report: {
      ...base,
      expected: judge.expected ?? check.expected,
      status: failed ? "fail" : "pass",
      observed: failed ? describeProblems(judge.problems) : (judge.observed ?? null),
      request,
      reason: null,
    },
    problems: judge.problems,
  };
}

/** The checks' reports, with the waivers applied; which waivers matched nothing and which expired. */
export function judgeChecks(checks: readonly Check[], answers: Answers, vars: Vars, waivers: Waiver[], today: string) {
  const matched = new Set<Waiver>();
  const reports = checks.map((check) => {
    const { report, problems } = judgeOne(check, answers, vars);
    if (report.status !== "fail") return report;
    const applying = waivers.filter((w) => problems.some((p) => covers(w, check.id, p.request)));
    applying.forEach((w) => matched.add(w));
    const live = applying.filter((w) => !isExpired(w, today));
    const left = problems.filter((p) => !live.some((w) => covers(w, check.id, p.request)));
    if (live.length === 0) return report;
    const reason = `waived: ${live.map(describeWaiver).join("; ")}`;
    if (left.length === 0) return { ...report, status: "waived" as const, reason };
    return { ...report, observed: describeProblems(left), request: left.find((p) => p.request)?.request ?? report.request, reason: `partly ${reason}` };
  });
  return {
    reports,
    unmatched: waivers.filter((w) => !matched.has(w) && !isExpired(w, today)),
    expired: waivers.filter((w) => isExpired(w, today)),
  };
}
