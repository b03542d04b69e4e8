/**
 * The write steps, in pairs that leave the customer as found: award 1 then adjust -1; redeem the
 * cheapest affordable reward then void its code; grant then void; another tier then the one it
 * had. Between them, refusals that change nothing. Each pair's second half runs only when the
 * first half was sent; whatever is left undone is named by the restore instructions.
 * @module
 */
import { TargetError, type Exchange } from "../../client.js";
import type { Answers, Step } from "../../plan.js";
import { field, listOf, recordOf, recordsOf, stringField } from "../../read.js";
import { dataOf, show } from "../check.js";
import { readsAsCode } from "./record.js";
import { UNKNOWN_ID } from "../errors.js";

/** The notes verify writes on its own changes: the customer sees the first two in their history. */
export const NOTES = {
  award: "loyalty-sim verify: 1 stamp, taken back at once",
  adjust: "loyalty-sim verify: the stamp taken back",
  internal: "loyalty-sim verify",
};

/** Ids verify writes back into a body (`reward_product_id`, `tier_id`): digits that make a safe integer. */
const writableId = (id: unknown): id is string => typeof id === "string" && /^\d{1,15}$/.test(id);

/** Listed rewards with a fixed price in stamps (a variable reward's price is the amount asked), cheapest first. */
export function fixedPriceRewards(answers: Answers): { id: string; name: string; price: number }[] {
  return (recordsOf(answers.data("rewards")) ?? [])
    .flatMap((r) => (writableId(r.id) && typeof r.price === "number" && Number.isSafeInteger(r.price) && r.exchangeType !== "variable" ? [{ id: r.id, name: typeof r.name === "string" ? r.name : show(r.name), price: r.price }] : []))
    .sort((a, b) => a.price - b.price);
}

const customerPath = { id: "{customer}" };
export const step = (key: string, op: Step["op"], extra: Partial<Step> = {}): Step => ({ key, phase: "write", op, params: customerPath, ...extra });
export type Binding = Pick<Step, "bind" | "binds">;
/** Binds `name` when the step succeeded: the half of a pair that undoes it may go. */
export const sent = (name: string, what: string): Binding => ({
  binds: [name],
  bind: (answer, { vars }) => (answer.status === 200 ? vars.set(name, "1") : vars.miss(name, `${what} answered ${answer.status}`)),
});
/** Binds the id of the customer's code whose text is `codeVar`'s. */
const findCode = (codeVar: string, idVar: string): Binding => ({
  binds: [idVar],
  bind(answer, { vars }) {
    const id = codeIdOf(dataOf(answer), vars.get(codeVar));
    if (id !== undefined) vars.set(idVar, id);
    else vars.miss(idVar, `the code ${show(vars.get(codeVar))} is not among the customer's reward codes (${answer.request} answered ${answer.status})`);
  },
});
/** The id of the code with the text `code` in a reward-codes answer's data, when it is listed with one. */
export function codeIdOf(data: unknown, code: string | undefined): string | undefined {
  const found = (recordsOf(data) ?? []).find((c) => code !== undefined && c.code === code);
  return readsAsCode(found) ? (found!.id as string) : undefined;
}
/** Binds the discount code a redemption or a grant issued. */
const issued = (name: string, what: string): Binding => ({
  binds: [name],
  bind(answer, { vars }) {
    const code = stringField(dataOf(answer), "code");
    if (answer.status === 200 && code !== undefined) vars.set(name, code);
    else vars.miss(name, `${what} answered ${answer.status}${answer.status === 200 ? " without a code" : ""}`);
  },
});

/** The first request of a write run: the customer must exist and be active, or nothing is written. */
export const precheck = step("write.precheck", "getCustomer", {
  bind(answer, { vars }) {
    const customer = vars.get("customer");
    if (answer.status === 404) throw new TargetError(`customer ${customer} is not found at the target (404): check --customer`);
    const data = recordOf(dataOf(answer));
    if (answer.status !== 200 || !data) return;
    if (data.mergedIntoCustomerId !== undefined) throw new TargetError(`customer ${customer} was merged into ${show(data.mergedIntoCustomerId)}: writes need an active customer; nothing was written`);
    if (data.state !== "active") throw new TargetError(`customer ${customer} is ${typeof data.state === "string" && /^\w{1,20}$/.test(data.state) ? data.state : show(data.state)}: writes need an active customer; nothing was written`);
  },
});

/** What the run restores must read the same each time: an earlier read of the customer that says otherwise, if any. */
function differentRead(answers: Answers, answer: Exchange): string | undefined {
  const readable = (value: unknown) => value === undefined || Number.isSafeInteger(value);
  for (const key of ["write.precheck", "customer"]) {
    if (!answers.has(key) || answers.get(key).status !== 200 || !recordOf(answers.data(key))) continue;
    for (const name of ["stampBalance", "vipTierId"]) {
      const [was, is] = [field(answers.data(key), name), field(dataOf(answer), name)];
      if (readable(was) && was !== is) return `${name} ${show(was)} by ${answers.get(key).request}, ${show(is)} by ${answer.request}`;
    }
  }
  return undefined;
}

export const before = step("before.customer", "getCustomer", {
  binds: ["cheapest", "overpriced", "grantable", "before.tier", "otherTier"],
  bind(answer, { vars, answers }) {
    const data = dataOf(answer);
    const balance = field(data, "stampBalance");
    if (answer.status !== 200 || typeof balance !== "number" || !Number.isSafeInteger(balance)) throw new TargetError(`could not read customer ${vars.get("customer")} before writing (${answer.request} answered ${answer.status}${answer.status === 200 ? " without an integer stampBalance" : ""}): nothing was written`);
    const differs = differentRead(answers, answer);
    if (differs) throw new TargetError(`customer ${vars.get("customer")} read differently before writing: ${differs}: nothing was written; run verify again`);
    const rewards = fixedPriceRewards(answers);
    const affordable = rewards.filter((r) => r.price <= balance);
    if (affordable[0]) vars.set("cheapest", affordable[0].id);
    else vars.miss("cheapest", `the customer's ${balance} stamps afford no listed reward${rewards[0] ? ` (the cheapest costs ${rewards[0].price})` : ""}`);
    const dear = rewards.find((r) => r.price > balance);
    if (dear) vars.set("overpriced", dear.id);
    else vars.miss("overpriced", `every listed reward costs at most the customer's ${balance} stamps: pick a customer with fewer to check INSUFFICIENT_STAMPS`);
    if (rewards[0]) vars.set("grantable", rewards[0].id);
    else vars.miss("grantable", "the shop lists no fixed-price reward");
    const tier = field(data, "vipTierId");
    // What the run restores must be read right: a tier it cannot read is never written over.
    if (tier !== undefined && !(Number.isSafeInteger(tier) && (tier as number) >= 0)) {
      throw new TargetError(`could not read customer ${vars.get("customer")} before writing (${answer.request} answered vipTierId ${show(tier)}): nothing was written`);
    }
    const tiers = (recordsOf(answers.data("tiers")) ?? []).map((t) => t.id).filter(writableId);
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
export const codes = (key: string, needs: string[], extra: Partial<Step> = {}) => step(key, "listRewardCodes", { needs, ...extra });
const available = (key: string, needs: string[]) => codes(key, needs, { query: { available: "true" } });
const customerRead = (key: string, needs: string[]) => step(key, "getCustomer", { needs });
export const stamps = (stampCount: number, note?: string) => () => ({ stamps: stampCount, ...(note !== undefined && { comment: note, internal_comment: NOTES.internal }) });
const reward = (name: string) => (value: (name: string) => string) => ({ reward_product_id: Number(value(name)) });
export const voidOf = (key: string, codeVar: string, binding?: Binding) => step(key, "voidRewardCode", { params: { id: "{customer}", codeId: `{${codeVar}}` }, ...binding });

/** The write run's last reads: the customer as the run leaves it (after the undo steps owed, if any). */
export const FINAL_READS: Step[] = [customerRead("after.customer", []), codes("after.codes", [])];

export const writeSteps: Step[] = [
  before,
  codes("before.codes", [], {
    bind(answer, { vars }) {
      const listed = listOf(dataOf(answer));
      if (answer.status !== 200 || !listed?.every(readsAsCode)) {
        throw new TargetError(`could not read customer ${vars.get("customer")}'s reward codes before writing (${answer.request} answered ${answer.status}${answer.status === 200 ? ", not a list of codes each with an id of digits and a boolean used" : ""}): nothing was written`);
      }
    },
  }),
  activities("before.activities"),
  step("award", "awardStamps", { body: stamps(1, NOTES.award), ...sent("awarded", "the award") }),
  customerRead("award.customer", ["awarded"]),
  activities("award.activities", ["awarded"]),
  step("adjust", "adjustStamps", { needs: ["awarded"], body: stamps(-1, NOTES.adjust), ...sent("adjusted", "the adjustment") }),
  activities("adjust.activities", ["adjusted"]),
  step("award.zero", "awardStamps", { body: stamps(0) }),
  step("adjust.zero", "adjustStamps", { body: stamps(0) }),
  step("redeem", "redeemReward", { needs: ["cheapest"], body: reward("cheapest"), ...issued("redeemed.code", "the redemption") }),
  customerRead("redeem.customer", ["redeemed.code"]),
  activities("redeem.activities", ["redeemed.code"]),
  codes("redeem.codes", ["redeemed.code"], findCode("redeemed.code", "redeemed.codeId")),
  available("redeem.available", ["redeemed.code"]),
  voidOf("void", "redeemed.codeId", sent("voided", "the void")),
  customerRead("void.customer", ["redeemed.codeId"]),
  activities("void.activities", ["redeemed.codeId"]),
  codes("void.codes", ["redeemed.codeId"]),
  available("void.available", ["redeemed.codeId"]),
  voidOf("void.twice", "redeemed.codeId", undefined),
  step("void.unknown", "voidRewardCode", { params: { id: "{customer}", codeId: UNKNOWN_ID } }),
  step("redeem.unknown", "redeemReward", { body: () => ({ reward_product_id: Number(UNKNOWN_ID) }) }),
  step("redeem.overpriced", "redeemReward", { needs: ["overpriced"], body: reward("overpriced"), ...issued("overpriced.code", "the over-priced redemption") }),
  // Sent only when the target let the over-priced redemption through: its code is voided again.
  codes("overpriced.codes", ["overpriced.code"], findCode("overpriced.code", "overpriced.codeId")),
  voidOf("overpriced.void", "overpriced.codeId", sent("overpriced.voided", "the void of the over-priced code")),
  step("grant", "grantReward", { needs: ["grantable"], body: reward("grantable"), ...issued("granted.code", "the grant") }),
  codes("grant.codes", ["granted.code"], findCode("granted.code", "granted.codeId")),
  voidOf("grant.void", "granted.codeId", sent("grant.voided", "the void of the granted code")),
  customerRead("grant.customer", ["granted.code"]),
  step("tier.unknown", "setCustomerTier", { body: () => ({ tier_id: Number(UNKNOWN_ID) }) }),
  step("tier.set", "setCustomerTier", { needs: ["before.tier", "otherTier"], body: (value) => ({ tier_id: Number(value("otherTier")) }), binds: ["tier.sent"], bind: (_answer, { vars }) => vars.set("tier.sent", "1") }),
  step("tier.back", "setCustomerTier", { needs: ["tier.sent", "before.tier"], body: (value) => ({ tier_id: Number(value("before.tier")) }), ...sent("tier.restored", "setting the tier back") }),
  ...FINAL_READS,
];
