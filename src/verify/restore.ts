/**
 * The write run's customer before and after, and the exact requests that put them back when the
 * two differ (or when the run stopped half-way): void the codes the run left active, adjust the
 * balance by what is missing, set the tier back.
 * @module
 */
import { API_BASE } from "../http/base.js";
import type { Answers, Vars } from "./plan.js";

export interface CustomerState {
  balance: number | null;
  /** The VIP tier's id, or null without one. */
  tier: number | null;
  tierName: string | null;
  /** Codes listed, used ones included (the API deletes none). */
  codes: number;
  /** Ids of the codes not used. */
  active: string[];
}

interface Code {
  id?: unknown;
  used?: unknown;
}

/** The state read by a customer step and a codes step, or null when either was not answered. */
export function stateOf(answers: Answers, customerStep: string, codesStep: string): CustomerState | null {
  if (!answers.has(customerStep) || !answers.has(codesStep)) return null;
  const customer = answers.data(customerStep) as { stampBalance?: unknown; vipTierId?: unknown; vipTierName?: unknown } | undefined;
  const codes = answers.data(codesStep) as Code[] | undefined;
  if (!customer || !Array.isArray(codes)) return null;
  return {
    balance: typeof customer.stampBalance === "number" ? customer.stampBalance : null,
    tier: typeof customer.vipTierId === "number" ? customer.vipTierId : null,
    tierName: typeof customer.vipTierName === "string" ? customer.vipTierName : null,
    codes: codes.length,
    active: codes.filter((c) => c.used === false).map((c) => String(c.id)),
  };
}

export function describeState(state: CustomerState | null): string {
  if (!state) return "not read";
  const tier = state.tier === null ? "no tier" : `tier ${state.tier}${state.tierName ? ` (${state.tierName})` : ""}`;
  return `balance ${state.balance ?? "?"}, ${state.codes} codes (${state.active.length} active), ${tier}`;
}

/** The codes the run issued, with what each cost (a grant costs nothing), and whether the run voided it. */
function issuedCodes(vars: Vars, costs: { redeemed?: number; overpriced?: number }) {
  return [
    { id: vars.get("redeemed.codeId"), text: vars.get("redeemed.code"), cost: costs.redeemed, voided: vars.get("voided") !== undefined },
    { id: vars.get("overpriced.codeId"), text: vars.get("overpriced.code"), cost: costs.overpriced, voided: vars.get("overpriced.voided") !== undefined },
    { id: vars.get("granted.codeId"), text: vars.get("granted.code"), cost: 0, voided: vars.get("grant.voided") !== undefined },
  ].filter((c) => c.text !== undefined);
}

/**
 * The requests that give the customer back the state it had, in order; none when nothing differs.
 * `after` is null when the run stopped before reading it: the run's own record says what is undone.
 */
export function restoreRequests(customer: string, before: CustomerState, after: CustomerState | null, vars: Vars, costs: { redeemed?: number; overpriced?: number }): string[] {
  const base = `${API_BASE}/customers/${customer}`;
  const lines: string[] = [];
  let refunds = 0;
  const unknownRefund: string[] = [];
  const toVoid = after
    ? after.active.filter((id) => !before.active.includes(id)).map((id) => ({ id, cost: issuedCodes(vars, costs).find((c) => c.id === id)?.cost }))
    : issuedCodes(vars, costs).filter((c) => !c.voided).map((c) => ({ id: c.id, text: c.text, cost: c.cost }));
  for (const code of toVoid) {
    lines.push(code.id !== undefined ? `POST ${base}/reward-codes/${code.id}/void` : `POST ${base}/reward-codes/{the id of code ${(code as { text?: string }).text}}/void`);
    if (code.cost === undefined) unknownRefund.push(String(code.id));
    else refunds += code.cost;
  }
  const now = after ? after.balance : null;
  if (before.balance !== null) {
    if (now !== null) {
      const missing = before.balance - (now + refunds);
      if (missing !== 0) lines.push(`POST ${base}/stamps/adjust {"stamps": ${missing}}${unknownRefund.length > 0 ? ` (less what voiding ${unknownRefund.join(", ")} refunds: check the balance is ${before.balance} first)` : ""}`);
    } else if (vars.get("awarded") !== undefined && vars.get("adjusted") === undefined) {
      lines.push(`POST ${base}/stamps/adjust {"stamps": -1} (then check the balance is ${before.balance})`);
    }
  }
  const tierMoved = after ? after.tier !== before.tier : vars.get("tier.sent") !== undefined && vars.get("tier.restored") === undefined;
  if (tierMoved) {
    lines.push(
      before.tier !== null
        ? `POST ${base}/tier {"tier_id": ${before.tier}}`
        : `the customer had no tier and now has ${after?.tierName ?? after?.tier}: production offers no way to remove a tier through the API; remove it in the shop's admin`,
    );
  }
  return lines;
}
