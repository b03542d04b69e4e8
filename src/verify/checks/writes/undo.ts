/**
 * What the run sends when a pair was left half done (the half that undoes it failed, was skipped,
 * or the run stopped between the two): only undos whose inputs are known and that are safe to send
 * again. Setting the customer's own tier and voiding a code change nothing the second time; an
 * adjustment is sent only when the award stands and no adjustment may have gone.
 * @module
 */
import type { Answers, Step, Vars } from "../../plan.js";
import { ISSUES, awardStands, issuedCodes, tierMoved } from "./record.js";
import { codeIdOf, codes, NOTES, stamps, step, voidOf } from "./steps.js";
import { dataOf } from "../check.js";

export interface UndoStep {
  step: Step;
  /** Whether it is owed, from the run's record at its turn. */
  owed(answers: Answers, vars: Vars): boolean;
}

const unnamed = (answers: Answers, vars: Vars) => issuedCodes(answers, vars).filter((c) => !c.voided && c.id === undefined && c.text !== undefined);

/** Finds the ids of the issued codes known by their text only. */
const findIds: Step = codes("undo.codes", [], {
  binds: ISSUES.map((c) => c.id),
  bind(answer, { vars }) {
    for (const issue of ISSUES) {
      const id = vars.get(issue.id) === undefined ? codeIdOf(dataOf(answer), vars.get(issue.text)) : undefined;
      if (id !== undefined) vars.set(issue.id, id);
    }
  },
});

const voidOwed = (issue: string) => (answers: Answers, vars: Vars) => issuedCodes(answers, vars).some((c) => c.issue === issue && !c.voided && c.id !== undefined);

/** In order: the stamp back, the codes found and voided, the tier set back. */
export const UNDO_STEPS: UndoStep[] = [
  { step: step("undo.adjust", "adjustStamps", { body: stamps(-1, NOTES.adjust) }), owed: awardStands },
  { step: findIds, owed: (answers, vars) => unnamed(answers, vars).length > 0 },
  { step: voidOf("undo.void.redeemed", "redeemed.codeId"), owed: voidOwed("redeem") },
  { step: voidOf("undo.void.overpriced", "overpriced.codeId"), owed: voidOwed("redeem.overpriced") },
  { step: voidOf("undo.void.granted", "granted.codeId"), owed: voidOwed("grant") },
  { step: step("undo.tier", "setCustomerTier", { needs: ["before.tier"], body: (value) => ({ tier_id: Number(value("before.tier")) }) }), owed: tierMoved },
];
