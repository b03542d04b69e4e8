/**
 * The program's reference data: the shop, tiers, earn rules, rewards and beacons, each listed and
 * (where production has the route) read by id.
 * @module
 */
import type { Step } from "../plan.js";
import { listOf, stringField } from "../read.js";
import { dataOf, show, succeeded, type Check } from "./check.js";
import { fieldsCheck } from "./fields.js";

/** Binds the first listed record's id as `name`, or says why there is none. */
const firstId = (name: string, what: string): Pick<Step, "bind" | "binds"> => ({
  binds: [name],
  bind(answer, { vars }) {
    const first = stringField(listOf(dataOf(answer))?.[0], "id");
    if (answer.status === 200 && first !== undefined) vars.set(name, first);
    else vars.miss(name, `the shop lists no ${what} (GET answered ${answer.status})`);
  },
});

export const shop: Step = { key: "shop", phase: "read", op: "getShop" };
export const tiers: Step = { key: "tiers", phase: "read", op: "listTiers", ...firstId("tier", "tier") };
const tier: Step = { key: "tier", phase: "read", op: "getTier", params: { id: "{tier}" } };
const earnRules: Step = { key: "earn-rules", phase: "read", op: "listEarnRules", ...firstId("earnRule", "earn rule") };
const earnRule: Step = { key: "earn-rule", phase: "read", op: "getEarnRule", params: { id: "{earnRule}" } };
export const rewards: Step = { key: "rewards", phase: "read", op: "listRewards", ...firstId("reward", "reward") };
const reward: Step = { key: "reward", phase: "read", op: "getReward", params: { id: "{reward}" } };
const beacons: Step = { key: "beacons", phase: "read", op: "listBeacons" };

export const programSteps: Step[] = [shop, tiers, tier, earnRules, earnRule, rewards, reward, beacons];

const FIELDS = "every field the contract gives the record, of its type, null fields left out, no field the contract lacks";

export const programChecks: Check[] = [
  fieldsCheck("read.shop.fields", "The shop record has the contract's fields", [shop], FIELDS),
  fieldsCheck("read.tiers.fields", "VIP tiers, listed and read by id, have the contract's fields", [tiers, tier], FIELDS),
  {
    id: "read.tiers.order",
    title: "VIP tiers are listed by milestone",
    basis: "documented",
    phase: "read",
    expected: "milestones in ascending order",
    steps: [tiers.key],
    judge({ answers }, judge) {
      const answer = answers.get(tiers.key);
      if (!succeeded(judge, answer)) return;
      const milestones = judge.list(answer)?.map((t) => t.milestone);
      if (!milestones) return;
      // Numbers only: Number() of a hostile object would call its own valueOf.
      const sorted = [...milestones].sort((a, b) => (typeof a === "number" ? a : Number.NaN) - (typeof b === "number" ? b : Number.NaN));
      if (milestones.some((m, i) => m !== sorted[i])) judge.problem(`milestones ${show(milestones)}`, answer.request);
      judge.observed = `milestones ${show(milestones)}`;
    },
  },
  fieldsCheck("read.earn-rules.fields", "Earn rules, listed and read by id, have the contract's fields", [earnRules, earnRule], FIELDS),
  fieldsCheck("read.rewards.fields", "Rewards, listed and read by id, have the contract's fields", [rewards, reward], FIELDS),
  fieldsCheck("read.beacons.fields", "Beacons have the contract's fields", [beacons], FIELDS),
];
