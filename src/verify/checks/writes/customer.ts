/**
 * The customer's tier set and set back, an unknown tier refused, and the end of the write run: the
 * customer as it was found (balance, tier, active codes), or the requests that restore it.
 * @module
 */
import { OPERATIONS } from "../../../contract/index.js";
import { describeState, restoreRequests, stateOf, type CustomerState } from "../../restore.js";
import type { Answers, Step, Vars } from "../../plan.js";
import { field, recordsOf } from "../../read.js";
import { dataOf, succeeded, type Check, type Judge } from "../check.js";
import { errorCheck } from "../errors.js";
import { writeCheck } from "./ledger.js";
import { writeSteps } from "./steps.js";

const stepOf = (key: string): Step => writeSteps.find((s) => s.key === key)!;

function judgeTier(judge: Judge, answers: Answers, key: string, tierId: string | undefined): void {
  const answer = answers.get(key);
  if (!succeeded(judge, answer)) return;
  const data = dataOf(answer);
  judge.fields(OPERATIONS.setCustomerTier.answer.schema, data, "data", answer);
  const tier = (recordsOf(answers.data("tiers")) ?? []).find((t) => t.id === tierId);
  judge.equal("vipTierId", field(data, "vipTierId"), Number(tierId), answer.request);
  judge.equal("vipTierName", field(data, "vipTierName"), tier?.name, answer.request);
}

/** The customer before and after the writes, and the requests that restore it (none when it is as found). */
export function customerOutcome(answers: Answers, vars: Vars): { before: CustomerState | null; after: CustomerState | null; restore: string[] } {
  const before = stateOf(answers, "before.customer", "before.codes");
  const after = stateOf(answers, "after.customer", "after.codes");
  return { before, after, restore: before ? restoreRequests(vars.get("customer")!, before, after, answers, vars) : [] };
}

export const customerWriteChecks: Check[] = [
  errorCheck("write.tier.unknown", "Setting an unknown tier is 404 TIER_NOT_FOUND", [stepOf("tier.unknown")], "TIER_NOT_FOUND"),
  writeCheck({
    id: "write.tier.set-back",
    title: "Setting another tier, then the customer's own, answers each",
    basis: "documented",
    expected: "the customer with the other tier's vipTierId (an integer) and name, then with its own again",
    steps: ["tier.set", "tier.back"],
    judge({ answers, vars }, judge) {
      judgeTier(judge, answers, "tier.set", vars.get("otherTier"));
      judgeTier(judge, answers, "tier.back", vars.get("before.tier"));
      judge.observed = `tier ${vars.get("before.tier")} -> ${vars.get("otherTier")} -> ${vars.get("before.tier")}`;
    },
  }),
  writeCheck({
    id: "write.customer.restored",
    title: "The write run leaves the customer as it found it",
    basis: "documented",
    expected: "the same balance, tier and active codes after the run as before it (the voided codes stay listed: the API deletes none)",
    steps: ["before.customer", "before.codes", "after.customer", "after.codes"],
    judge({ answers, vars }, judge) {
      const { before, after, restore } = customerOutcome(answers, vars);
      judge.expected = `as before the run: ${describeState(before)}`;
      judge.observed = describeState(after);
      if (!before || !after || before.active === null || after.active === null) {
        judge.problem("the customer and its codes were not read before and after the run");
        if (restore.length > 0) judge.problem(`to restore it, send: ${restore.join("; then ")}`);
        return;
      }
      const request = answers.get("after.customer").request;
      if (after.balance !== before.balance) judge.problem(`balance ${before.balance} before, ${after.balance} after`, request);
      if (after.tier !== before.tier) judge.problem(`tier ${before.tier ?? "none"} before, ${after.tier ?? "none"} after`, request);
      const [wasActive, isActive] = [new Set(before.active), new Set(after.active)];
      const added = after.active.filter((id) => !wasActive.has(id));
      const gone = before.active.filter((id) => !isActive.has(id));
      if (added.length > 0 || gone.length > 0) judge.problem(`active codes: ${added.length > 0 ? `${added.join(", ")} left active` : ""}${added.length > 0 && gone.length > 0 ? "; " : ""}${gone.length > 0 ? `${gone.join(", ")} no longer active` : ""}`, answers.get("after.codes").request);
      if (judge.problems.length > 0 && restore.length > 0) judge.problem(`to restore it, send: ${restore.join("; then ")}`);
    },
  }),
];
