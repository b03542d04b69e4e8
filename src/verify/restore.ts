/**
 * The write run's customer before and after, and the exact requests that put it back when the two
 * differ: void the codes the run left active, then adjust the balance by what is still missing,
 * then set the tier back. When the customer was not read after the run (the run stopped, or the
 * target answered that read badly), the run's own record of what it wrote says what is undone;
 * where the record cannot tell whether a write took effect, the line says what to read first.
 * @module
 */
import { API_BASE } from "../http/base.js";
import { show } from "./checks/check.js";
import { charged, rewardOf } from "./checks/writes/codes.js";
import { issuedCodes, readsAsCode, stampsAdded, tierMoved } from "./checks/writes/record.js";
import type { Answers, Vars } from "./plan.js";
import { field, listOf, numberField, recordOf, recordsOf, stringField, type Rec } from "./read.js";

export interface CustomerState {
  balance: number | null;
  /** The VIP tier's id, or null without one. */
  tier: number | null;
  tierName: string | null;
  /** Codes listed, used ones included (the API deletes none); null when the list did not read. */
  codes: number | null;
  /** Ids of the codes not used; null when the list did not read. */
  active: string[] | null;
}

/**
 * The state read by a customer step and a codes step; null when the customer was not answered as a
 * record. Only what reads as the contract has it counts (a balance of safe integers, every code a
 * record with an id of digits and a boolean `used`): anything else is not read, and the restore lines
 * come from the run's record instead of from a state that cannot be trusted.
 */
export function stateOf(answers: Answers, customerStep: string, codesStep: string): CustomerState | null {
  const customer = answers.data(customerStep);
  if (!answers.has(customerStep) || answers.get(customerStep).status !== 200 || recordOf(customer) === undefined) return null;
  const listed = answers.has(codesStep) && answers.get(codesStep).status === 200 ? listOf(answers.data(codesStep)) : undefined;
  const codes = listed?.every(readsAsCode) ? (listed as Rec[]) : undefined;
  const [balance, tier] = [field(customer, "stampBalance"), field(customer, "vipTierId")];
  return {
    balance: Number.isSafeInteger(balance) ? (balance as number) : null,
    tier: Number.isSafeInteger(tier) ? (tier as number) : null,
    tierName: stringField(customer, "vipTierName") ?? null,
    codes: codes?.length ?? null,
    active: codes?.filter((c) => c.used === false).map((c) => c.id as string) ?? null,
  };
}

export function describeState(state: CustomerState | null): string {
  if (!state) return "not read";
  const tier = state.tier === null ? "no tier" : `tier ${state.tier}${state.tierName ? ` (${state.tierName})` : ""}`;
  const codes = state.active === null ? "codes not read" : `${state.codes} codes (${state.active.length} active)`;
  return `balance ${state.balance ?? "?"}, ${codes}, ${tier}`;
}

/** The forms of a restore line (docs/verify.md lists them). */
const LINES = {
  void: (base: string, id: string) => `POST ${base}/reward-codes/${id}/void`,
  voidNew: (base: string, active: string[] | null) =>
    `POST ${base}/reward-codes/{each id GET ${base}/reward-codes?available=true lists that was not active before the run (${active === null ? "which were is not known" : active.length === 0 ? "none was" : active.join(", ")})}/void`,
  adjust: (base: string, stamps: number) => `POST ${base}/stamps/adjust {"stamps": ${stamps}}`,
  checkBalance: (base: string, balance: number) => `GET ${base}, then if its stampBalance is not ${balance}: POST ${base}/stamps/adjust {"stamps": ${balance} minus that stampBalance}`,
  tier: (base: string, tier: number) => `POST ${base}/tier {"tier_id": ${tier}}`,
};

/**
 * The requests that give the customer back the state it had, in order; none when nothing differs.
 * `after` is null when the run did not read it: the run's own record says what is undone.
 */
export function restoreRequests(customer: string, before: CustomerState, after: CustomerState | null, answers: Answers, vars: Vars): string[] {
  const base = `${API_BASE}/customers/${customer}`;
  const seen = after !== null && after.balance !== null && after.active !== null && before.active !== null;
  const lines = seen ? fromDifference(base, before, after, answers, vars) : fromRecord(base, before, answers, vars);
  // Without a read after, the record cannot tell whether the award reached a milestone: setting the customer's own tier again is safe either way.
  const moved = seen ? after.tier !== before.tier : tierMoved(answers);
  if (moved && before.tier !== null) lines.push(LINES.tier(base, before.tier));
  else if (moved && seen) lines.push(`the customer had no tier and now has ${after.tierName ?? after.tier}: production offers no way to remove a tier through the API; remove it in the shop's admin`);
  return lines;
}

/** The codes active after and not before voided (each refunds what it cost), then the balance adjusted by what is still missing. */
function fromDifference(base: string, before: CustomerState, after: CustomerState, answers: Answers, vars: Vars): string[] {
  const wasActive = new Set(before.active);
  const toVoid = after.active!.filter((id) => !wasActive.has(id));
  const refunds = toVoid.map((id) => costOf(id, answers, vars));
  const lines = toVoid.map((id) => LINES.void(base, id));
  if (before.balance === null) return lines;
  if (refunds.some((cost) => cost === undefined)) lines.push(LINES.checkBalance(base, before.balance));
  else {
    const missing = before.balance - (after.balance! + refunds.reduce<number>((sum, cost) => sum + cost!, 0));
    if (missing !== 0) lines.push(LINES.adjust(base, missing));
  }
  return lines;
}

/** Every code the run may have issued and not voided, voided; the stamp writes taken back. */
function fromRecord(base: string, before: CustomerState, answers: Answers, vars: Vars): string[] {
  const lines: string[] = [];
  const left = issuedCodes(answers, vars).filter((c) => !c.voided);
  for (const code of left) if (code.id !== undefined) lines.push(LINES.void(base, code.id));
  // A code the run could not find by its text (or got none of) is found as the one active now and not before.
  if (left.some((c) => c.id === undefined)) lines.push(LINES.voidNew(base, before.active));
  const added = stampsAdded(answers);
  if (before.balance === null) return lines;
  if (added === undefined) lines.push(LINES.checkBalance(base, before.balance));
  else if (added !== 0) lines.push(LINES.adjust(base, -added));
  return lines;
}

/** What voiding an active code refunds: what the run paid for it, when the run issued it. */
function costOf(id: string, answers: Answers, vars: Vars): number | undefined {
  const text = stringField((recordsOf(answers.data("after.codes")) ?? []).find((c) => c.id === id), "code");
  const issued = issuedCodes(answers, vars).find((c) => c.id === id || (text !== undefined && c.text === text));
  if (issued?.issue === "grant") return 0;
  if (issued?.issue === "redeem") return charged(answers) ?? rewardOf(answers, vars, "cheapest")?.price;
  if (issued?.issue === "redeem.overpriced") return overpricedCharge(answers) ?? rewardOf(answers, vars, "overpriced")?.price;
  return undefined;
}

/** What an over-priced redemption the target let through took (it should have been refused). */
function overpricedCharge(answers: Answers): number | undefined {
  const after = numberField(answers.data("redeem.overpriced"), "stampBalance");
  const prior = numberField(answers.data("void.customer"), "stampBalance");
  return after !== undefined && prior !== undefined ? prior - after : undefined;
}
