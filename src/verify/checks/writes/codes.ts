/**
 * Redeem the cheapest affordable reward, then void its code; grant a reward, then void that code;
 * and the refusals around them (a second void, an unknown code, an unknown or over-priced reward).
 * @module
 */
import { OPERATIONS } from "../../../contract/index.js";
import type { Answers, Step, Vars } from "../../plan.js";
import { field, listOf } from "../../read.js";
import { dataOf, show, succeeded, type Check, type Judge } from "../check.js";
import { errorCheck } from "../errors.js";
import { BALANCE_STEPS, codeNamed, judgeNewest, lastBalance, stepsBefore, writeCheck } from "./ledger.js";
import { fixedPriceRewards, writeSteps } from "./steps.js";

const stepOf = (key: string): Step => writeSteps.find((s) => s.key === key)!;

/** The reward a step redeemed or granted, as listed. */
export function rewardOf(answers: Answers, vars: Vars, name: string): { id: string; name: string; price: number } | undefined {
  return fixedPriceRewards(answers).find((r) => r.id === vars.get(name));
}

/** What the redemption took: the balance before it less the balance it answered. */
export function charged(answers: Answers): number | undefined {
  const prior = lastBalance(answers, stepsBefore(BALANCE_STEPS, "redeem"));
  const after = lastBalance(answers, ["redeem"]);
  return prior === undefined || after === undefined ? undefined : prior - after;
}

/** A redemption or a grant: the result's fields, the reward's name, the balance `change` from before. */
function judgeIssue(judge: Judge, answers: Answers, key: string, reward: { name: string } | undefined, change: number): void {
  const prior = lastBalance(answers, stepsBefore(BALANCE_STEPS, key));
  const answer = answers.get(key);
  judge.expected = `a code for ${show(reward?.name)}, stampBalance ${prior === undefined ? "?" : prior + change} (${prior} ${change < 0 ? "-" : "+"} ${Math.abs(change)})`;
  if (!succeeded(judge, answer)) return;
  const data = dataOf(answer);
  const [code, stampBalance] = [field(data, "code"), field(data, "stampBalance")];
  judge.fields(OPERATIONS.redeemReward.answer.schema, data, "data", answer);
  if (typeof code !== "string" || code === "") judge.problem(`code: ${show(code)}, expected a discount code`, answer.request);
  judge.equal("name", field(data, "name"), reward?.name, answer.request);
  if (prior !== undefined) judge.equal("stampBalance", stampBalance, prior + change, answer.request);
  judge.observed = `code issued, balance ${prior} -> ${show(stampBalance)}`;
}

/** The customer read after `key` has the balance `key` answered (or, for a void, the one before the redemption). */
function judgeReadBack(judge: Judge, answers: Answers, readKey: string, wanted: number | undefined): void {
  const read = answers.get(readKey);
  if (!succeeded(judge, read)) return;
  judge.equal("the customer's stampBalance", field(dataOf(read), "stampBalance"), wanted, read.request);
}

export const codeChecks: Check[] = [
  writeCheck({
    id: "write.redeem.charge",
    title: "Redeeming the cheapest affordable reward takes exactly its price",
    basis: "documented",
    expected: "a discount code, stampBalance less the reward's listed price",
    steps: ["redeem", "redeem.customer"],
    judge({ answers, vars }, judge) {
      const reward = rewardOf(answers, vars, "cheapest");
      judgeIssue(judge, answers, "redeem", reward, -(reward?.price ?? Number.NaN));
      judgeReadBack(judge, answers, "redeem.customer", lastBalance(answers, ["redeem"]));
    },
  }),
  writeCheck({
    id: "write.redeem.activity",
    title: 'A redemption adds one activity "Redeemed <reward>" of minus its price',
    basis: "model",
    expected: "one activity added: stampChange minus the price, label Redeemed <reward>",
    steps: ["redeem.activities"],
    judge({ answers, vars }, judge) {
      const reward = rewardOf(answers, vars, "cheapest");
      judgeNewest(judge, answers, "redeem.activities", { stampChange: -(reward?.price ?? Number.NaN), label: `Redeemed ${reward?.name}` });
    },
  }),
  writeCheck({
    id: "write.redeem.code-listed",
    title: "The redeemed code is listed unused, and available",
    basis: "documented",
    expected: "the code among the customer's codes with used false, one code more than before, and in ?available=true",
    steps: ["redeem.codes", "redeem.available", "before.codes"],
    judge({ answers, vars }, judge) {
      const code = vars.get("redeemed.code");
      const [all, some] = [answers.get("redeem.codes"), answers.get("redeem.available")];
      if (!succeeded(judge, all) || !succeeded(judge, some)) return;
      const [allCodes, availableCodes] = [judge.list(all), judge.list(some)];
      if (!allCodes || !availableCodes) return;
      const listed = codeNamed(answers, "redeem.codes", code);
      if (!listed) judge.problem(`code ${show(code)} is not listed`, all.request);
      else judge.equal("used", listed.used, false, all.request);
      judge.equal("codes listed", allCodes.length, (listOf(answers.data("before.codes"))?.length ?? Number.NaN) + 1, all.request);
      if (!codeNamed(answers, "redeem.available", code)) judge.problem(`code ${show(code)} is not available`, some.request);
      judge.observed = `code listed, used ${show(listed?.used)}`;
    },
  }),
  writeCheck({
    id: "write.redeem.void-refund",
    title: "Voiding the redeemed code refunds what the redemption took",
    basis: "documented",
    expected: "the voided code answered, and the balance back to what it was before the redemption",
    steps: ["void", "void.customer"],
    judge({ answers, vars }, judge) {
      const answer = answers.get("void");
      const wanted = lastBalance(answers, stepsBefore(BALANCE_STEPS, "redeem"));
      judge.expected = `the voided code, and the balance back to ${wanted} (the redemption took ${charged(answers)})`;
      if (succeeded(judge, answer)) {
        judge.fields(OPERATIONS.voidRewardCode.answer.schema, dataOf(answer), "data", answer);
        judge.equal("id", field(dataOf(answer), "id"), vars.get("redeemed.codeId"), answer.request);
      }
      judgeReadBack(judge, answers, "void.customer", wanted);
      judge.observed = `balance ${lastBalance(answers, ["redeem"])} -> ${lastBalance(answers, ["void.customer"])}`;
    },
  }),
  writeCheck({
    id: "write.redeem.void-activity",
    title: 'A void adds one activity "Refund for voided <reward>" of what the redemption took',
    basis: "model",
    expected: "one activity added: stampChange what the redemption took, label Refund for voided <reward>",
    steps: ["void.activities"],
    judge({ answers, vars }, judge) {
      judgeNewest(judge, answers, "void.activities", { stampChange: charged(answers) ?? Number.NaN, label: `Refund for voided ${rewardOf(answers, vars, "cheapest")?.name}` });
    },
  }),
  writeCheck({
    id: "write.redeem.void-state",
    title: "A voided code reads used: true and is no longer available",
    basis: "model",
    expected: "the code listed with used true, and not in ?available=true",
    steps: ["void.codes", "void.available"],
    judge({ answers, vars }, judge) {
      const code = vars.get("redeemed.code");
      const listed = codeNamed(answers, "void.codes", code);
      if (!listed) judge.problem(`code ${show(code)} is not listed`, answers.get("void.codes").request);
      else judge.equal("used", listed.used, true, answers.get("void.codes").request);
      if (codeNamed(answers, "void.available", code)) judge.problem(`code ${show(code)} is still available`, answers.get("void.available").request);
      judge.observed = `used ${show(listed?.used)}, not available`;
    },
  }),
  errorCheck("write.redeem.void-twice", "Voiding the code a second time is 422 VOID_FAILED", [stepOf("void.twice")], "VOID_FAILED"),
  errorCheck("write.void.unknown-code", "Voiding an unknown code is 404 REWARD_CODE_NOT_FOUND", [stepOf("void.unknown")], "REWARD_CODE_NOT_FOUND"),
  errorCheck("write.redeem.unknown-reward", "Redeeming an unknown reward is 404 REWARD_NOT_FOUND", [stepOf("redeem.unknown")], "REWARD_NOT_FOUND"),
  errorCheck("write.redeem.over-priced", "Redeeming a reward dearer than the balance is 422 INSUFFICIENT_STAMPS", [stepOf("redeem.overpriced")], "INSUFFICIENT_STAMPS"),
  writeCheck({
    id: "write.grant.balance",
    title: "Granting a reward issues a code and leaves the balance",
    basis: "documented",
    expected: "a discount code, stampBalance unchanged, the code listed",
    steps: ["grant", "grant.codes"],
    judge({ answers, vars }, judge) {
      judgeIssue(judge, answers, "grant", fixedPriceRewards(answers).find((r) => r.id === vars.get("grantable")), 0);
      if (!codeNamed(answers, "grant.codes", vars.get("granted.code"))) judge.problem(`code ${show(vars.get("granted.code"))} is not listed`, answers.get("grant.codes").request);
    },
  }),
  writeCheck({
    id: "write.grant.void",
    title: "Voiding a granted code refunds nothing",
    basis: "documented",
    expected: "the voided code answered, the balance unchanged (the code cost nothing)",
    steps: ["grant.void", "grant.customer"],
    judge({ answers }, judge) {
      const wanted = lastBalance(answers, ["grant"]);
      judge.expected = `the voided code, the balance still ${wanted}`;
      succeeded(judge, answers.get("grant.void"));
      judgeReadBack(judge, answers, "grant.customer", wanted);
      judge.observed = `balance ${wanted} -> ${lastBalance(answers, ["grant.customer"])}`;
    },
  }),
];
