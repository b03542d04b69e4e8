/**
 * The source's program as a fixture: what production answers is copied exactly (ids included, so
 * ids an app hard-codes keep working); what it does not answer is inferred from the data where the
 * data shows it, else the bundled program's setting, and each such value is listed as an assumption.
 * @module
 */
import type { z } from "zod";
import { DAY_MS, isoTimestamp } from "../engine/clock.js";
import { defaultFixturePath, loadFixtureFile } from "../program/load.js";
import type { fixtureSchema } from "../program/schema.js";
import type { ExpirySetting } from "../store/types.js";
import type { SourceCustomer, SourceData } from "./read.js";

export type FixtureInput = z.input<typeof fixtureSchema>;
type RewardInput = FixtureInput["rewards"][number];

export interface Assumption {
  /** The fixture's field, as a fixture error would name it: `shop.expiry`, `rewards[7].tierId`. */
  path: string;
  value: unknown;
  why: string;
}

export interface MappedProgram {
  fixture: Pick<FixtureInput, "shop" | "tiers" | "earnRules" | "rewards" | "beacons"> & { access?: FixtureInput["access"] };
  assumptions: Assumption[];
  /** The reward a code names (codes carry the reward's name, not its id). */
  rewardIdOf: (name: string) => number | undefined;
}

const EXPIRED = /^(\d+) (.+) expired$/;
/** The shape the fixture format takes for a code prefix. */
const PREFIX = /^[A-Z0-9]+(-[A-Z0-9]+)*$/;

export function mapProgram(source: SourceData, rateLimit: number | undefined): MappedProgram {
  const defaults = loadFixtureFile(defaultFixturePath()).program;
  const assumptions: Assumption[] = [];
  const assume = (path: string, value: unknown, why: string) => assumptions.push({ path, value, why });
  const allActivities = source.customers.flatMap((c) => c.activities);
  const allCodes = source.customers.flatMap((c) => c.codes);

  const plural = source.shop.stampBrandingPlural;
  const singularSeen = allActivities.map((a) => EXPIRED.exec(a.label)).find((m) => m?.[1] === "1")?.[2];
  const singular = singularSeen ?? (plural.length > 1 && plural.endsWith("s") ? plural.slice(0, -1) : plural);
  assume("shop.stampBrandingSingular", singular, singularSeen !== undefined ? 'read from a "1 ... expired" activity' : "production shows only the plural: the plural without its final s");
  const manual = defaults.settings.manualAdjustmentLabel;
  assume("shop.manualAdjustmentLabel", manual, "production does not show the label of an award without a comment: the simulator's default");
  const codePrefix = inferPrefix(allCodes.map((c) => c.code)) ?? { value: defaults.settings.codePrefix, why: "no issued code shows a prefix: the simulator's default" };
  assume("shop.codePrefix", codePrefix.value, codePrefix.why);
  const expiry = inferExpiry(source.customers, defaults.settings.expiry);
  assume("shop.expiry", expiry.value, expiry.why);

  // Looked up through maps, not searched: the source decides how many there are.
  const rewards: RewardInput[] = source.rewards.map((r) => reward(r));
  const known = new Set(rewards.map((r) => r.id));
  // Tier-locked and POS-only rewards are left out of GET /rewards; a tier's rewards show the first.
  for (const tier of [...source.tiers].sort((a, b) => a.milestone - b.milestone)) {
    for (const r of tier.rewards) {
      if (known.has(Number(r.id))) continue;
      known.add(Number(r.id));
      rewards.push({ ...reward(r), tierId: Number(tier.id) });
      assume(`rewards[${rewards.length - 1}].tierId`, Number(tier.id), `reward ${r.id} is granted by tier ${tier.id} (${tier.name}) but not in GET /rewards, which leaves out tier-locked and POS-only rewards: locked to the lowest tier granting it`);
    }
  }
  const ids = new Map<string, number>();
  for (const r of rewards) if (!ids.has(r.name)) ids.set(r.name, r.id);
  const byName = (name: string) => ids.get(name);
  let nextId = rewards.reduce((max, r) => Math.max(max, r.id), 0) + 1;
  const spentOn = new Map<string, number>();
  for (const a of allActivities) if (a.stampChange < 0 && !spentOn.has(a.label)) spentOn.set(a.label, -a.stampChange);
  for (const name of new Set(allCodes.map((c) => c.name))) {
    if (byName(name) !== undefined) continue;
    const spent = spentOn.get(`Redeemed ${name}`);
    ids.set(name, nextId);
    rewards.push({ id: nextId++, name, price: spent ?? 1, exchangeType: "stamps", posOnly: true });
    assume(`rewards[${rewards.length - 1}]`, rewards.at(-1), `codes were issued for "${name}", which no listed or tier reward is: a POS-only reward, priced ${spent !== undefined ? "as a redemption of it cost" : "1 (no redemption of it was read)"}; its id is made up`);
  }
  rewards.forEach((r, i) => {
    if (r.exchangeType === "variable") assume(`rewards[${i}].minAmount/maxAmount`, null, "production does not show a variable reward's bounds: none (any amount from 1 to 2147483647)");
  });

  const earnRules = source.earnRules.map((r, i) => {
    const named = defaults.earnRules.find((d) => d.name === r.name);
    const like = named ?? defaults.earnRules.find((d) => d.type === r.type);
    const limit = like?.limit ?? { kind: "none" as const };
    const whose = named ? `its namesake's in the bundled program` : like ? `the bundled program's for a rule of type ${r.type}` : "none (the bundled program has no rule of its name or type)";
    assume(`earnRules[${i}].limit`, limit, `production does not show earn-rule limits: ${whose}`);
    return { id: Number(r.id), name: r.name, type: r.type, step: r.step, multiplier: r.multiplier, ...(r.iconUrl !== undefined && { iconUrl: r.iconUrl }), limit };
  });

  const { programName, currencySymbol, currency, stampCardValue } = source.shop;
  return {
    fixture: {
      shop: { programName, currencySymbol, currency, stampBrandingSingular: singular, stampBrandingPlural: plural, stampCardValue, manualAdjustmentLabel: manual, codePrefix: codePrefix.value, expiry: expiry.value },
      ...(rateLimit !== undefined && { access: { rateLimit } }),
      tiers: source.tiers.map((t) => ({
        id: Number(t.id),
        name: t.name,
        milestone: t.milestone,
        multiplier: t.multiplier,
        ...(t.iconUrl !== undefined && { iconUrl: t.iconUrl }),
        benefits: t.benefits,
        rewardIds: t.rewards.map((r) => Number(r.id)),
      })),
      earnRules,
      rewards,
      beacons: source.beacons.map((b) => ({ ...b, id: Number(b.id) })),
    },
    assumptions,
    rewardIdOf: byName,
  };
}

function reward(r: SourceData["rewards"][number]): RewardInput {
  return { id: Number(r.id), name: r.name, price: r.price, exchangeType: r.exchangeType, ...(r.iconUrl !== undefined && { iconUrl: r.iconUrl }) };
}

/** The prefix most issued codes share (all before their last `-`), when one fits the fixture format. */
function inferPrefix(codes: string[]): { value: string; why: string } | undefined {
  const counts = new Map<string, number>();
  for (const code of codes) {
    const cut = code.lastIndexOf("-");
    const prefix = cut > 0 ? code.slice(0, cut) : "";
    if (PREFIX.test(prefix) && prefix.length <= 20) counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
  }
  const best = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
  return best && { value: best[0], why: `${best[1]} of the ${codes.length} issued codes read start with it` };
}

/** Newest first: the last earn or spend (an expiry moves no clock). */
function lastMovement(c: SourceCustomer): number | undefined {
  const a = c.activities.find((entry) => entry.stampChange !== 0 && !EXPIRED.test(entry.label));
  return a && Date.parse(a.createdAt);
}

/**
 * Expiry from `stampsExpireAt` (shown only while expiry is on and the balance positive): rolling
 * when it lies the same whole number of days after each customer's last movement; fixed when one
 * such number fits an earning of each; off when customers with stamps show none.
 */
function inferExpiry(customers: readonly SourceCustomer[], fallback: ExpirySetting): { value: ExpirySetting; why: string } {
  const showing = customers.filter((c) => c.customer.stampsExpireAt !== undefined);
  const holding = customers.filter((c) => c.customer.stampBalance > 0).length;
  if (showing.length === 0) {
    if (holding > 0) return { value: { mode: "off" }, why: `none of the ${holding} customers read with stamps shows stampsExpireAt` };
    return { value: fallback, why: "no customer read has stamps, so none shows stampsExpireAt: the simulator's default" };
  }
  const days = (c: SourceCustomer, from: number) => (Date.parse(c.customer.stampsExpireAt!) - from) / DAY_MS;
  const rolling = new Set(showing.map((c) => {
    const last = lastMovement(c);
    return last === undefined ? Number.NaN : days(c, last);
  }));
  const [only] = rolling;
  if (rolling.size === 1 && Number.isInteger(only) && only! >= 1) {
    return { value: { mode: "rolling", days: only! }, why: `stampsExpireAt of each of the ${showing.length} customers showing it is ${only} days after their last earn or spend` };
  }
  let common: Set<number> | undefined;
  for (const c of showing) {
    const fits = new Set(c.activities.filter((a) => a.stampChange > 0).map((a) => days(c, Date.parse(a.createdAt))).filter((d) => Number.isInteger(d) && d >= 1));
    common = common ? new Set([...common].filter((d) => fits.has(d))) : fits;
  }
  const fixed = [...(common ?? [])].sort((a, b) => a - b)[0];
  if (fixed !== undefined) return { value: { mode: "fixed", days: fixed }, why: `stampsExpireAt of each of the ${showing.length} customers showing it is ${fixed} days after one of their earnings` };
  return { value: fallback, why: `stampsExpireAt of ${showing.length} customers fits neither rolling nor fixed expiry of whole days (their history may be cut): the simulator's default` };
}

/** The newest instant the data read holds: generated customers' history ends there. */
export function newestInstant(source: SourceData): string | undefined {
  let newest = Number.NEGATIVE_INFINITY;
  for (const c of source.customers) {
    for (const a of c.activities) newest = Math.max(newest, Date.parse(a.createdAt));
    for (const code of c.codes) newest = Math.max(newest, Date.parse(code.createdAt));
  }
  return Number.isFinite(newest) ? isoTimestamp(newest) : undefined;
}
