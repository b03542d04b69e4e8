/**
 * Award 1, adjust -1: each moves the balance by exactly its amount and adds one activity with the
 * note sent as its label; `stamps: 0` is refused and changes nothing.
 * @module
 */
import { OPERATIONS } from "../../../contract/index.js";
import type { Step } from "../../plan.js";
import { field } from "../../read.js";
import { dataOf, show, succeeded, type Check, type Judge } from "../check.js";
import { errorCheck } from "../errors.js";
import type { JudgeContext } from "../check.js";
import { BALANCE_STEPS, judgeNewest, lastBalance, stepsBefore, writeCheck } from "./ledger.js";
import { NOTES, writeSteps } from "./steps.js";

const stepOf = (key: string): Step => writeSteps.find((s) => s.key === key)!;

/** The stamp result of `key` moved the balance by `change`, and `readBack` (when given) reads the same balance. */
export function judgeStampResult(judge: Judge, { answers, vars }: JudgeContext, key: string, change: number, readBack?: string): void {
  const prior = lastBalance(answers, stepsBefore(BALANCE_STEPS, key));
  const answer = answers.get(key);
  judge.expected = `stampChange ${change}, stampBalance ${prior === undefined ? "?" : prior + change}${readBack ? ", and the customer reads the same" : ""}`;
  if (!succeeded(judge, answer)) return;
  const data = dataOf(answer);
  const [stampChange, stampBalance] = [field(data, "stampChange"), field(data, "stampBalance")];
  judge.fields(OPERATIONS.awardStamps.answer.schema, data, "data", answer);
  judge.equal("customerId", field(data, "customerId"), vars.get("customer"), answer.request);
  judge.equal("stampChange", stampChange, change, answer.request);
  if (prior !== undefined) judge.equal("stampBalance", stampBalance, prior + change, answer.request);
  if (readBack) {
    const read = answers.get(readBack);
    judge.equal("the customer's stampBalance", field(dataOf(read), "stampBalance"), stampBalance, read.request);
  }
  judge.observed = `stampChange ${show(stampChange)}, balance ${prior} -> ${show(stampBalance)}`;
}

export const stampChecks: Check[] = [
  writeCheck({
    id: "write.award.balance",
    title: "Awarding 1 stamp adds exactly 1 to the balance",
    basis: "documented",
    expected: "stampChange 1, stampBalance one more than before",
    steps: ["award", "award.customer"],
    judge: (context, judge) => judgeStampResult(judge, context, "award", 1, "award.customer"),
  }),
  writeCheck({
    id: "write.award.activity",
    title: "An award adds one activity labelled with its comment",
    basis: "documented",
    expected: "one activity added: stampChange 1, label the comment sent",
    steps: ["award.activities"],
    judge: ({ answers }, judge) => judgeNewest(judge, answers, "award.activities", { stampChange: 1, label: NOTES.award }),
  }),
  writeCheck({
    id: "write.adjust.balance",
    title: "Adjusting by -1 takes exactly 1 from the balance",
    basis: "documented",
    expected: "stampChange -1, stampBalance one less than after the award",
    steps: ["adjust"],
    judge: (context, judge) => judgeStampResult(judge, context, "adjust", -1),
  }),
  writeCheck({
    id: "write.adjust.activity",
    title: "An adjustment adds one activity labelled with its comment",
    basis: "documented",
    expected: "one activity added: stampChange -1, label the comment sent",
    steps: ["adjust.activities"],
    judge: ({ answers }, judge) => judgeNewest(judge, answers, "adjust.activities", { stampChange: -1, label: NOTES.adjust }),
  }),
  errorCheck("write.stamps.zero", "stamps: 0 is 422 VALIDATION_ERROR on award and on adjust", [stepOf("award.zero"), stepOf("adjust.zero")], "VALIDATION_ERROR"),
];
