/**
 * The write steps, in pairs that leave the customer as found: award 1 then adjust -1; redeem the
 * cheapest affordable reward then void its code; grant then void; another tier then the one it
 * had. Between them, refusals that change nothing. Each pair's second half runs only when the
 * first half was sent; whatever is left undone is named by the restore instructions.
 * @module
 */
import { TargetError, type Exchange } from "../../client.js";
import type { Answers, BindContext, Step } from "../../plan.js";
import { dataOf } from "../check.js";
import { UNKNOWN_ID } from "../errors.js";

/** The notes verify writes on its own changes: the customer sees the first two in their history. */
export const NOTES = {
  award: "loyalty-sim verify: 1 stamp, taken back at once",
  adjust: "loyalty-sim verify: the stamp taken back",
  internal: "loyalty-sim verify",
};

interface Reward {
  id?: unknown;
  name?: unknown;
  price?: unknown;
  exchangeType?: unknown;
}

/** Listed rewards with a fixed price in stamps (a variable reward's price is the amount asked), cheapest first. */
export function fixedPriceRewards(answers: Answers): { id: string; name: string; price: number }[] {
  const listed = (answers.data("rewards") as Reward[] | undefined) ?? [];
  return listed
    .filter((r) => typeof r.id === "string" && typeof r.price === "number" && r.exchangeType !== "variable")
    .map((r) => ({ id: r.id as string, name: String(r.name), price: r.price as number }))
    .sort((a, b) => a.price - b.price);
}

const customerPath = { id: "{customer}" };
const step = (key: string, op: Step["op"], extra: Partial<Step> = {}): Step => ({ key, phase: "write", op, params: customerPath, ...extra });
/** Binds `name` when the step succeeded: the half of a pair that undoes it may go. */
const sent = (name: string, what: string) => (answer: Exchange, { vars }: BindContext) =>
  answer.status === 200 ? vars.set(name, "1") : vars.miss(name, `${what} answered ${answer.status}`);
/** Binds the id of the customer's code whose text is `codeVar`'s. */
const findCode = (codeVar: string, idVar: string) => (answer: Exchange, { vars }: BindContext) => {
  const found = ((dataOf(answer) as { id?: unknown; code?: unknown }[] | undefined) ?? []).find((c) => c.code === vars.get(codeVar));
  if (typeof found?.id === "string") vars.set(idVar, found.id);
  else vars.miss(idVar, `the code ${vars.get(codeVar)} is not among the customer's reward codes`);
};
/** Binds the discount code a redemption or a grant issued. */
const issued = (name: string, what: string) => (answer: Exchange, { vars }: BindContext) => {
  const code = (dataOf(answer) as { code?: unknown } | undefined)?.code;
  if (answer.status === 200 && typeof code === "string") vars.set(name, code);
  else vars.miss(name, `${what} answered ${answer.status}`);
};

/** The first request of a write run: the customer must exist and be active, or nothing is written. */
export const precheck = step("write.precheck", "getCustomer", {
  bind(answer, { vars }) {
    const customer = vars.get("customer");
    if (answer.status === 404) throw new TargetError(`customer ${customer} is not found at the target (404): check --customer`);
    const data = dataOf(answer) as { state?: unknown; mergedIntoCustomerId?: unknown } | undefined;
    if (answer.status !== 200 || !data) return;
    if (data.mergedIntoCustomerId !== undefined) throw new TargetError(`customer ${customer} was merged into ${String(data.mergedIntoCustomerId)}: writes need an active customer; nothing was written`);
    if (data.state !== "active") throw new TargetError(`customer ${customer} is ${String(data.state)}: writes need an active customer; nothing was written`);
  },
});

export const before = step("before.customer", "getCustomer", {
  bind(answer, { vars, answers }) {
    const data = dataOf(answer) as { stampBalance?: unknown; vipTierId?: unknown } | undefined;
    if (answer.status !== 200 || typeof data?.stampBalance !== "number") throw new TargetError(`could not read customer ${vars.get("customer")} before writing (answered ${answer.status}): nothing was written`);
    const balance = data.stampBalance;
    const rewards = fixedPriceRewards(answers);
    const affordable = rewards.filter((r) => r.price <= balance);
    if (affordable[0]) vars.set("cheapest", affordable[0].id);
    else vars.miss("cheapest", `the customer's ${balance} stamps afford no listed reward${rewards[0] ? ` (the cheapest costs ${rewards[0].price})` : ""}`);
    const dear = rewards.find((r) => r.price > balance);
    if (dear) vars.set("overpriced", dear.id);
    else vars.miss("overpriced", `every listed reward costs at most the customer's ${balance} stamps: pick a customer with fewer to check INSUFFICIENT_STAMPS`);
    if (rewards[0]) vars.set("grantable", rewards[0].id);
    else vars.miss("grantable", "the shop lists no fixed-price reward");
    const tier = data.vipTierId;
    const tiers = ((answers.data("tiers") as { id?: unknown }[] | undefined) ?? []).map((t) => String(t.id));
    if (typeof tier !== "number") {
      vars.miss("before.tier", "the customer has no VIP tier, and production offers no way to remove one (POST /customers/{id}/tier only sets a tier): run with a customer who has a tier to check tier changes");
      return;
    }
    vars.set("before.tier", String(tier));
    const other = tiers.find((id) => id !== String(tier));
    if (other) vars.set("otherTier", other);
    else vars.miss("otherTier", "the shop has one tier: there is no other to set");
  },
});

const activities = (key: string, needs: string[] = []) => step(key, "listActivities", { query: { limit: "1", hasCount: "true" }, needs });
const codes = (key: string, needs: string[], extra: Partial<Step> = {}) => step(key, "listRewardCodes", { needs, ...extra });
const available = (key: string, needs: string[]) => codes(key, needs, { query: { available: "true" } });
const customerRead = (key: string, needs: string[]) => step(key, "getCustomer", { needs });
const stamps = (stampCount: number, note?: string) => () => ({ stamps: stampCount, ...(note !== undefined && { comment: note, internal_comment: NOTES.internal }) });
const reward = (name: string) => (value: (name: string) => string) => ({ reward_product_id: Number(value(name)) });
const voidOf = (key: string, codeVar: string, bind?: Step["bind"]) => step(key, "voidRewardCode", { params: { id: "{customer}", codeId: `{${codeVar}}` }, ...(bind && { bind }) });

export const writeSteps: Step[] = [
  before,
  codes("before.codes", []),
  activities("before.activities"),
  step("award", "awardStamps", { body: stamps(1, NOTES.award), bind: sent("awarded", "the award") }),
  customerRead("award.customer", ["awarded"]),
  activities("award.activities", ["awarded"]),
  step("adjust", "adjustStamps", { needs: ["awarded"], body: stamps(-1, NOTES.adjust), bind: sent("adjusted", "the adjustment") }),
  activities("adjust.activities", ["adjusted"]),
  step("award.zero", "awardStamps", { body: stamps(0) }),
  step("adjust.zero", "adjustStamps", { body: stamps(0) }),
  step("redeem", "redeemReward", { needs: ["cheapest"], body: reward("cheapest"), bind: issued("redeemed.code", "the redemption") }),
  customerRead("redeem.customer", ["redeemed.code"]),
  activities("redeem.activities", ["redeemed.code"]),
  codes("redeem.codes", ["redeemed.code"], { bind: findCode("redeemed.code", "redeemed.codeId") }),
  available("redeem.available", ["redeemed.code"]),
  voidOf("void", "redeemed.codeId", sent("voided", "the void")),
  customerRead("void.customer", ["redeemed.codeId"]),
  activities("void.activities", ["redeemed.codeId"]),
  codes("void.codes", ["redeemed.codeId"]),
  available("void.available", ["redeemed.codeId"]),
  voidOf("void.twice", "redeemed.codeId", undefined),
  step("void.unknown", "voidRewardCode", { params: { id: "{customer}", codeId: UNKNOWN_ID } }),
  step("redeem.unknown", "redeemReward", { body: () => ({ reward_product_id: Number(UNKNOWN_ID) }) }),
  step("redeem.overpriced", "redeemReward", { needs: ["overpriced"], body: reward("overpriced"), bind: issued("overpriced.code", "the over-priced redemption") }),
  // Sent only when the target let the over-priced redemption through: its code is voided again.
  codes("overpriced.codes", ["overpriced.code"], { bind: findCode("overpriced.code", "overpriced.codeId") }),
  voidOf("overpriced.void", "overpriced.codeId", sent("overpriced.voided", "the void of the over-priced code")),
  step("grant", "grantReward", { needs: ["grantable"], body: reward("grantable"), bind: issued("granted.code", "the grant") }),
  codes("grant.codes", ["granted.code"], { bind: findCode("granted.code", "granted.codeId") }),
  voidOf("grant.void", "granted.codeId", sent("grant.voided", "the void of the granted code")),
  customerRead("grant.customer", ["granted.code"]),
  step("tier.unknown", "setCustomerTier", { body: () => ({ tier_id: Number(UNKNOWN_ID) }) }),
  step("tier.set", "setCustomerTier", { needs: ["before.tier", "otherTier"], body: (value) => ({ tier_id: Number(value("otherTier")) }), bind: (_answer, { vars }) => vars.set("tier.sent", "1") }),
  step("tier.back", "setCustomerTier", { needs: ["tier.sent", "before.tier"], body: (value) => ({ tier_id: Number(value("before.tier")) }), bind: sent("tier.restored", "setting the tier back") }),
  customerRead("after.customer", []),
  codes("after.codes", []),
];
