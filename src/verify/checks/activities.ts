/**
 * One customer's ledger and reward codes: the activities walked both ways, newest first; the codes
 * listed whole and with `available=true`.
 * @module
 */
import type { Step } from "../plan.js";
import { recordsOf } from "../read.js";
import { dataOf, show, succeeded, type Check } from "./check.js";
import { fieldsCheck } from "./fields.js";
import { walkCheck, walkSteps } from "./pagination.js";

export const activityWalk = walkSteps("activities", "listActivities", { params: { id: "{customer}" } });
const [page1, page2] = activityWalk;

export const codes: Step = { key: "codes", phase: "read", op: "listRewardCodes", params: { id: "{customer}" } };
const available: Step = { key: "codes.available", phase: "read", op: "listRewardCodes", params: { id: "{customer}" }, query: { available: "true" } };

export const activitySteps: Step[] = [...activityWalk, codes, available];

export const activityChecks: Check[] = [
  fieldsCheck("read.activities.fields", "Activities have the contract's fields", [page1], "each activity's fields, of their types, no field the contract lacks"),
  walkCheck("read.activities.pages", "Activities page forward with after and back with before", activityWalk),
  {
    id: "read.activities.order",
    title: "Activities are listed newest first",
    basis: "documented",
    phase: "read",
    expected: "createdAt never later than the activity listed before it, across the first two pages",
    steps: [page1.key],
    judge({ answers }, judge) {
      const pages = [page1, page2].filter((s) => answers.has(s.key)).map((s) => answers.get(s.key));
      const listed = pages.flatMap((p) => (recordsOf(dataOf(p)) ?? []).map((a) => ({ at: typeof a.createdAt === "string" ? Date.parse(a.createdAt) : Number.NaN, text: a.createdAt, request: p.request })));
      listed.forEach((a, i) => {
        if (i > 0 && !(a.at <= listed[i - 1]!.at)) judge.problem(`${show(a.text)} is listed after ${show(listed[i - 1]!.text)}`, a.request);
      });
      judge.observed = `${listed.length} activities, newest first`;
    },
  },
  fieldsCheck("read.reward-codes.fields", "Reward codes have the contract's fields", [codes, available], "each code's fields, of their types, no field the contract lacks"),
  {
    id: "read.reward-codes.available",
    title: "?available=true lists exactly the unused codes",
    basis: "documented",
    phase: "read",
    expected: "the codes with used false, and no other",
    steps: [codes.key, available.key],
    judge({ answers }, judge) {
      const [all, some] = [answers.get(codes.key), answers.get(available.key)];
      if (!succeeded(judge, all) || !succeeded(judge, some)) return;
      const [allCodes, availableCodes] = [judge.list(all), judge.list(some)];
      if (!allCodes || !availableCodes) return;
      // Ids as text before sorting: sort() would call a hostile object's own toString.
      const idText = (id: unknown) => (typeof id === "string" ? id : show(id));
      const unused = allCodes.filter((c) => c.used === false).map((c) => idText(c.id));
      const listed = availableCodes.map((c) => idText(c.id));
      judge.same("available codes", [...listed].sort(), [...unused].sort(), some.request);
      judge.observed = `${listed.length} of ${allCodes.length} codes available`;
    },
  },
];
