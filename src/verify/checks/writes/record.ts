/**
 * The run's own record of what it wrote: each write's outcome (applied, refused, or unknown when
 * its answer was lost or is not one the contract has), the codes it issued and whether each was
 * voided, what its stamp writes added up to, whether the tier was set back. The undo steps and the
 * restore instructions are decided from it, never from a re-read of a target that failed.
 * @module
 */
import { RECORD_ID } from "../../../engine/pagination.js";
import type { Answers, Vars } from "../../plan.js";
import { at, field } from "../../read.js";

/** A code as the run trusts it to say what to void: an id of digits (it goes into a restore line a person pastes) and a boolean `used`. */
export function readsAsCode(code: unknown): boolean {
  const id = field(code, "id");
  return typeof id === "string" && RECORD_ID.test(id) && typeof field(code, "used") === "boolean";
}

/** `applied`: answered 200 at the first try; `refused`: an error envelope with a 4xx; `unknown`: it may or may not have taken effect (or twice). */
export type Outcome = "applied" | "refused" | "unknown";

/** What came of a write step; undefined when it was not sent. */
export function outcomeOf(answers: Answers, key: string): Outcome | undefined {
  if (answers.lost(key) !== undefined) return "unknown";
  if (!answers.has(key)) return undefined;
  const { status, body, tries } = answers.get(key);
  // A write answered 429 and sent again may have taken effect twice, if the target took the first.
  if (status === 200) return tries === undefined ? "applied" : "unknown";
  if (status >= 400 && status < 500 && typeof at(body, "error", "code") === "string") return "refused";
  return "unknown";
}

/** Whether a write may have taken effect. */
export const mayHaveWritten = (answers: Answers, key: string) => ["applied", "unknown"].includes(outcomeOf(answers, key) ?? "");
const applied = (answers: Answers, keys: readonly string[]) => keys.some((key) => outcomeOf(answers, key) === "applied");

/** The codes a run may issue: the step that issues each, where its text and id are bound, the steps that void it. */
export const ISSUES = [
  { issue: "redeem", text: "redeemed.code", id: "redeemed.codeId", voids: ["void", "undo.void.redeemed"] },
  { issue: "redeem.overpriced", text: "overpriced.code", id: "overpriced.codeId", voids: ["overpriced.void", "undo.void.overpriced"] },
  { issue: "grant", text: "granted.code", id: "granted.codeId", voids: ["grant.void", "undo.void.granted"] },
] as const;

export interface IssuedCode {
  /** The step that issued it. */
  issue: string;
  text: string | undefined;
  id: string | undefined;
  voided: boolean;
}

/** The codes the run may have issued (a lost answer may have issued one it cannot name). */
export function issuedCodes(answers: Answers, vars: Vars): IssuedCode[] {
  return ISSUES.filter((c) => mayHaveWritten(answers, c.issue)).map((c) => ({ issue: c.issue, text: vars.get(c.text), id: vars.get(c.id), voided: applied(answers, c.voids) }));
}

/** The stamp writes: what each adds to the balance when it is applied. */
const STAMP_WRITES: [key: string, change: number][] = [
  ["award", 1],
  ["adjust", -1],
  ["undo.adjust", -1],
];

/** What the run's stamp writes added to the balance, or undefined when one of them may or may not have. */
export function stampsAdded(answers: Answers): number | undefined {
  let added = 0;
  for (const [key, change] of STAMP_WRITES) {
    const outcome = outcomeOf(answers, key);
    if (outcome === "unknown") return undefined;
    if (outcome === "applied") added += change;
  }
  return added;
}

/** Whether the award stands with no adjustment taken back: the undo may send one. */
export const awardStands = (answers: Answers) => outcomeOf(answers, "award") === "applied" && ["adjust", "undo.adjust"].every((key) => [undefined, "refused"].includes(outcomeOf(answers, key)));

/** Whether another tier may have been set (by the run, or by the award reaching a milestone) and the customer's own was not set back. */
export const tierMoved = (answers: Answers) => (mayHaveWritten(answers, "tier.set") || mayHaveWritten(answers, "award")) && !applied(answers, ["tier.back", "undo.tier"]);
