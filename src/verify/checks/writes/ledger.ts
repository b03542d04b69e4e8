/**
 * What the write checks share: the balance each step left, the ledger's newest activity and its
 * count, the codes a step listed.
 * @module
 */
import type { Answers } from "../../plan.js";
import { field, listOf, numberField, recordsOf } from "../../read.js";
import { dataOf, show, type Check, type Judge } from "../check.js";
import { paginationOf } from "../pagination.js";

/** The balance the last of `keys` (in the run's order) answered, from a stamp result, a redemption or a customer. */
export function lastBalance(answers: Answers, keys: string[]): number | undefined {
  for (const key of [...keys].reverse()) {
    if (!answers.has(key)) continue;
    const exchange = answers.get(key);
    const balance = numberField(dataOf(exchange), "stampBalance");
    if (exchange.status === 200 && balance !== undefined) return balance;
  }
  return undefined;
}

/** The balance-bearing steps, in the run's order: what a check takes as the balance before its own step. */
export const BALANCE_STEPS = ["before.customer", "award", "award.customer", "adjust", "redeem", "redeem.customer", "void.customer", "grant", "grant.customer"];
/** The ledger reads, in the run's order. */
export const LEDGER_STEPS = ["before.activities", "award.activities", "adjust.activities", "redeem.activities", "void.activities"];

/** The steps of `order` before `key`. */
export const stepsBefore = (order: string[], key: string) => order.slice(0, order.indexOf(key));

/** The newest activity is `wanted`, and it is the only one added since the ledger read before it. */
export function judgeNewest(judge: Judge, answers: Answers, key: string, wanted: { stampChange: number; label: string }): void {
  const answer = answers.get(key);
  const newest = listOf(dataOf(answer))?.[0];
  const count = paginationOf(answer)?.count;
  const prior = stepsBefore(LEDGER_STEPS, key).reverse().find((k) => answers.has(k));
  const priorCount = prior === undefined ? undefined : paginationOf(answers.get(prior))?.count;
  if (typeof count === "number" && typeof priorCount === "number") judge.equal("activities added", count - priorCount, 1, answer.request);
  else judge.problem(`the ledger's count is unknown (${show(priorCount)} before, ${show(count)} after)`, answer.request);
  judge.equal("newest activity's stampChange", field(newest, "stampChange"), wanted.stampChange, answer.request);
  judge.equal("newest activity's label", field(newest, "label"), wanted.label, answer.request);
  judge.expected = `one activity added: stampChange ${wanted.stampChange}, label ${show(wanted.label)}`;
  judge.observed = `${typeof count === "number" && typeof priorCount === "number" ? count - priorCount : "?"} added, the newest ${show(newest)}`;
}

/** A code of a reward-codes answer, by its text. */
export function codeNamed(answers: Answers, key: string, code: string | undefined): Readonly<Record<string, unknown>> | undefined {
  return code === undefined ? undefined : (recordsOf(answers.data(key)) ?? []).find((c) => c.code === code);
}

/** A write check: basis, phase and the steps; the judge sees answers and vars. */
export const writeCheck = (check: Omit<Check, "phase">): Check => ({ ...check, phase: "write" });
