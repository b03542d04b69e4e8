/**
 * A fixture's customers as the store's records: each history played through the engine's ledger
 * on a clock set to each entry's date, so the balance, the stamps earned towards tiers and the
 * expiry bookkeeping (rolling clock, fixed lots) are what the engine itself would keep. Done once,
 * when the fixture is read; the shop starts with a copy of them at every (re)generation.
 * @module
 */
import { fixedClock } from "../engine/clock.js";
import type { EngineContext } from "../engine/context.js";
import type { ShopSpec } from "../engine/engine.js";
import { applyStampChange } from "../engine/ledger.js";
import { seededRandom } from "../engine/random.js";
import { ShopStore } from "../store/shop-store.js";
import type { ActivityKind, CustomerRecord, Program, ShopData } from "../store/types.js";
import type { FixtureCustomer } from "./fixture-customers.js";
import { FIRST_CODE_ID } from "./records.js";

export type SeedRecords = NonNullable<ShopSpec["fixtureCustomers"]>;

/**
 * The records of checked fixture customers (fixtureCustomerIssues found nothing: every reference
 * resolves and no balance leaves 0..MAX_STAMPS). A removed customer's expiry is paused from the
 * reference date, when the fixture says they were removed.
 */
export function seedRecords(program: Program, customers: readonly FixtureCustomer[], referenceDate: number): SeedRecords {
  // A shop of the replay's own: nothing in it reads the access.
  const access = { apiKey: "fixture", apiSecret: "fixture", apiAccess: true, plan: "paid" as const, rateLimit: null };
  const data: ShopData = { id: "fixture", seed: 0, access, program, customers: [], activities: [], codes: [], nextActivityId: 1, nextCodeId: FIRST_CODE_ID };
  const clock = fixedClock(referenceDate);
  const ctx: EngineContext = { store: new ShopStore(data), clock, random: seededRandom(0) };
  for (const c of customers) {
    const history = c.activities ?? [];
    const record: CustomerRecord = {
      id: c.id,
      firstName: c.firstName,
      lastName: c.lastName,
      email: c.email,
      ...(c.phone !== undefined && { phone: c.phone }),
      ...(c.dateOfBirth !== undefined && { dateOfBirth: c.dateOfBirth }),
      platformState: "active",
      excluded: false,
      balance: 0,
      earned: 0,
      lots: [],
      createdAt: Date.parse(c.createdAt ?? history[0]?.createdAt ?? new Date(referenceDate).toISOString()),
    };
    ctx.store.addCustomer(record);
    for (const entry of history) {
      const at = Date.parse(entry.createdAt);
      clock.set(at);
      applyStampChange(ctx, record, {
        kind: kindOf(entry, program),
        change: entry.stampChange,
        label: entry.label,
        ...(entry.earnRuleId !== undefined && { earnRuleId: entry.earnRuleId }),
        at,
      });
    }
    // As written, not as the milestones of the history promoted them (a tier can be set by hand).
    ctx.store.updateCustomer(record, {
      vipTierId: c.vipTierId,
      mergedIntoCustomerId: c.mergedIntoCustomerId,
      ...(c.state === "removed" && { excluded: true, excludedAt: referenceDate }),
    });
    for (const code of c.rewardCodes ?? []) {
      const reward = program.rewards.find((r) => r.id === code.rewardId)!;
      ctx.store.addCode({
        customerId: c.id,
        rewardId: reward.id,
        name: reward.name,
        code: code.code,
        // A voided code reads back used, as the engine keeps it.
        used: code.used === true || code.voided === true,
        voided: code.voided === true,
        cost: code.cost ?? reward.price,
        createdAt: Date.parse(code.createdAt),
      });
    }
  }
  return { customers: data.customers, activities: data.activities, codes: data.codes };
}

/**
 * The ledger's kind of an entry, read from its label as the engine writes labels: it decides what
 * counts as earned towards tiers, and what moves the expiry clock. Under fixed expiry an expiry is
 * written as a spend, which takes the oldest lot as the engine's expiry does.
 */
function kindOf(entry: NonNullable<FixtureCustomer["activities"]>[number], program: Program): ActivityKind {
  const { label, stampChange: change } = entry;
  const settings = program.settings;
  if (entry.earnRuleId !== undefined) return "earn";
  if (change === 0) return label.startsWith("Granted ") ? "grant" : "tier";
  if (label.startsWith("Merged from customer ") || label.startsWith("Merged into customer ")) return "merge";
  if (change > 0) return label.startsWith("Refund for voided ") ? "refund" : "award";
  if (label.startsWith("Redeemed ")) return "redeem";
  const expired = new RegExp(`^\\d+ (${escape(settings.stampBrandingSingular)}|${escape(settings.stampBrandingPlural)}) expired$`);
  return expired.test(label) && settings.expiry.mode !== "fixed" ? "expire" : "adjust";
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
