/**
 * Rewards: redeem (spend stamps for a code), grant (a code at no cost), and the life of a code:
 * use (no refund) and void (refund what it cost).
 * @module
 */
import type { CodeRecord, CustomerRecord, RewardRecord } from "../store/types.js";
import { findTier, requireChangeable, requireReward, type EngineContext, type ProgramId } from "./context.js";
import { DomainError, invalidField } from "./errors.js";
import { applyStampChange, requireCustomer } from "./ledger.js";
import { MAX_CUSTOMER_CODES, MAX_STAMPS, requireStampAmount } from "./limits.js";
import { CODE_LENGTH, randomCodeSuffix } from "./random.js";
import { codeView, isListed, rewardView, type Reward, type RewardCode } from "./views.js";

export interface RedemptionResult {
  code: string;
  name: string;
  stampBalance: number;
}

export function listRewards(ctx: EngineContext): Reward[] {
  return ctx.store.data.program.rewards.filter(isListed).map(rewardView);
}

export function getReward(ctx: EngineContext, id: ProgramId): Reward {
  return rewardView(requireReward(ctx, id));
}

/** Refuses a write that would give the customer more than MAX_CUSTOMER_CODES codes; called before anything changes. */
export function requireRoomForCodes(ctx: EngineContext, customer: CustomerRecord, more: number): void {
  const held = ctx.store.codesOf(customer.id).length;
  if (held + more <= MAX_CUSTOMER_CODES) return;
  const message = `Customer ${customer.id} holds ${held} reward codes, and ${more} more would make ${held + more}: one customer may hold at most ${MAX_CUSTOMER_CODES} (codes are never removed); reset the shop (POST /__sim/reset) or use another customer`;
  throw new DomainError("VALIDATION_ERROR", message, [{ path: "id", message }]);
}

/** Draws of one length before a code grows a character (six characters give about 10^9 codes). */
const DRAWS_PER_LENGTH = 4;

/**
 * A code string the shop has not issued, drawn from the shop's random source. Another draw after a
 * collision, and a longer code after a few: a length has finitely many codes, so it always ends.
 */
function newCodeText(ctx: EngineContext): string {
  const prefix = ctx.store.data.program.settings.codePrefix;
  for (let draw = 0; ; draw++) {
    const text = `${prefix}-${randomCodeSuffix(ctx.random, CODE_LENGTH + Math.floor(draw / DRAWS_PER_LENGTH))}`;
    if (!ctx.store.hasCodeText(text)) return text;
  }
}

/** Writes the ledger entry and the code of a redemption or grant. */
export function issueCode(
  ctx: EngineContext,
  customer: CustomerRecord,
  reward: RewardRecord,
  cost: number,
  label: string,
): CodeRecord {
  requireRoomForCodes(ctx, customer, 1);
  // `-cost` would store -0 for a free code; the ledger keeps a plain 0.
  applyStampChange(ctx, customer, { kind: cost > 0 ? "redeem" : "grant", change: cost > 0 ? -cost : 0, label });
  return ctx.store.addCode({
    customerId: customer.id,
    rewardId: reward.id,
    name: reward.name,
    code: newCodeText(ctx),
    used: false,
    voided: false,
    cost,
    createdAt: ctx.clock.now(),
  });
}

/** The stamp cost of a reward: its price, or the requested amount for a variable reward. */
function costOf(reward: RewardRecord, variableAmount: number | undefined): number {
  if (reward.exchangeType !== "variable") return reward.price;
  if (variableAmount === undefined) {
    throw invalidField("variable_amount", `is required: reward ${reward.id} is a variable-amount reward`);
  }
  const min = reward.minAmount ?? 1;
  const max = reward.maxAmount ?? MAX_STAMPS;
  if (variableAmount < min || variableAmount > max) {
    throw invalidField("variable_amount", `must be between ${min} and ${max} for reward ${reward.id}`);
  }
  return variableAmount;
}

export function redeemReward(ctx: EngineContext, id: string, rewardId: number, variableAmount?: number): RedemptionResult {
  if (variableAmount !== undefined) requireStampAmount("variable_amount", variableAmount);
  const customer = requireCustomer(ctx, id);
  const reward = requireReward(ctx, rewardId);
  requireChangeable(customer);
  if (reward.tierId !== undefined) {
    const needed = findTier(ctx, reward.tierId)!;
    const current = findTier(ctx, customer.vipTierId ?? -1);
    if (!current || current.milestone < needed.milestone) {
      throw new DomainError(
        "REWARD_NOT_FOUND",
        `Reward ${reward.id} is only available to ${needed.name} tier members and above`,
        undefined,
        { kind: "tierRequired", rewardId: String(reward.id), requiredTierId: String(needed.id), customerTierId: current ? String(current.id) : null },
      );
    }
  }
  const cost = costOf(reward, variableAmount);
  if (customer.balance < cost) {
    throw new DomainError(
      "INSUFFICIENT_STAMPS",
      `Customer ${customer.id} has ${customer.balance} stamps; ${reward.name} costs ${cost}`,
      undefined,
      { kind: "insufficientStamps", customerId: customer.id, balance: customer.balance, price: cost, rewardId: String(reward.id) },
    );
  }
  const code = issueCode(ctx, customer, reward, cost, `Redeemed ${reward.name}`);
  return { code: code.code, name: code.name, stampBalance: customer.balance };
}

export function grantReward(ctx: EngineContext, id: string, rewardId: number, variableAmount?: number): RedemptionResult {
  if (variableAmount !== undefined) requireStampAmount("variable_amount", variableAmount);
  const customer = requireCustomer(ctx, id);
  const reward = requireReward(ctx, rewardId);
  requireChangeable(customer);
  if (reward.exchangeType === "variable" && variableAmount !== undefined) costOf(reward, variableAmount);
  const code = issueCode(ctx, customer, reward, 0, `Granted ${reward.name}`);
  return { code: code.code, name: code.name, stampBalance: customer.balance };
}

export function listRewardCodes(ctx: EngineContext, id: string, availableOnly: boolean): RewardCode[] {
  requireCustomer(ctx, id);
  const codes = ctx.store.codesOf(id);
  return (availableOnly ? codes.filter((c) => !c.used) : codes).map(codeView);
}

function requireCode(ctx: EngineContext, customerId: string, codeId: ProgramId): CodeRecord {
  const code = /^\d{1,15}$/.test(String(codeId)) ? ctx.store.code(Number(codeId)) : undefined;
  // A code of another customer is "not found", as production answers.
  if (!code || code.customerId !== customerId) {
    throw new DomainError("REWARD_CODE_NOT_FOUND", `Reward code ${codeId} not found for customer ${customerId}`);
  }
  return code;
}

/** Marks the code used (deactivated on the platform). Using it again changes nothing. */
export function useRewardCode(ctx: EngineContext, id: string, codeId: ProgramId): RewardCode {
  requireCustomer(ctx, id);
  const code = requireCode(ctx, id, codeId);
  ctx.store.updateCode(code, { used: true });
  return codeView(code);
}

/**
 * Refunds what the code cost and deactivates it. A voided code reads back `used: true`: it can no
 * longer be used, which is what `used` tells an app.
 */
export function voidRewardCode(ctx: EngineContext, id: string, codeId: ProgramId): RewardCode {
  const customer = requireCustomer(ctx, id);
  const code = requireCode(ctx, id, codeId);
  const state = { kind: "codeNotVoidable" as const, codeId: String(code.id), used: code.used, voided: code.voided };
  if (code.voided) throw new DomainError("VOID_FAILED", `Reward code ${codeId} was already voided`, undefined, state);
  if (code.used) throw new DomainError("VOID_FAILED", `Reward code ${codeId} was already used and cannot be voided`, undefined, state);
  requireChangeable(customer);
  if (code.cost > 0) {
    applyStampChange(ctx, customer, { kind: "refund", change: code.cost, label: `Refund for voided ${code.name}` });
  }
  ctx.store.updateCode(code, { voided: true, used: true });
  return codeView(code);
}
