import { describe, expect, it } from "vitest";
import { fixedClock } from "../../src/engine/clock.js";
import { ShopEngine } from "../../src/engine/shop-engine.js";
import { seededRandom } from "../../src/engine/random.js";
import { parseConfig } from "../../src/config.js";
import { generateShopData } from "../../src/program/generate.js";
import { buildSimulator } from "../../src/simulator/simulator.js";
import { ShopStore } from "../../src/store/shop-store.js";
import type { ActivityKind, ShopData } from "../../src/store/types.js";
import { createTestSim, defaultSpec, NOW } from "../support/sim.js";

const generate = (seed: number, customers = 50): ShopData => generateShopData(defaultSpec({ seed, customers }));
const shopOf = (data: ShopData) => new ShopEngine(new ShopStore(data), fixedClock(NOW), seededRandom(1));
const EARNING: ReadonlySet<ActivityKind> = new Set(["award", "adjust", "earn"]);
const SEEDS = [1, 2, 3];
const datasets = new Map(SEEDS.map((seed) => [seed, generate(seed)]));
const data = (seed: number) => datasets.get(seed)!;

describe("determinism", () => {
  it("the same seed gives byte-identical data", () => {
    expect(JSON.stringify(generate(1))).toBe(JSON.stringify(data(1)));
    expect(JSON.stringify(generate(42, 20))).toBe(JSON.stringify(generate(42, 20)));
  });

  it("whatever the engine's clock says", () => {
    const a = createTestSim({ seed: 5 });
    const b = createTestSim({ seed: 5, now: NOW + 123_456_789 });
    expect(JSON.stringify(b.shop.store.data)).toBe(JSON.stringify(a.shop.store.data));
  });

  it("another seed gives other data", () => {
    expect(JSON.stringify(data(2))).not.toBe(JSON.stringify(data(1)));
    const first = (d: ShopData) => d.customers[0]!;
    expect([first(data(2)).id, first(data(2)).email]).not.toEqual([first(data(1)).id, first(data(1)).email]);
  });

  it("the simulator's default is 50 customers", () => {
    const { shop } = buildSimulator(parseConfig({}), { newClock: () => fixedClock(NOW) });
    expect(shop.store.data.customers).toHaveLength(50);
    expect(JSON.stringify(shop.store.data)).toBe(JSON.stringify(data(1)));
  });
});

/** Rolling 365 days: whoever has not moved stamps for a year loses them at the first read. */
const YEAR_MS = 365 * 86_400_000;
const staleAtNow = (d: ShopData) =>
  d.customers.filter((c) => !c.excluded && c.balance > 0 && c.lastMovementAt !== undefined && c.lastMovementAt + YEAR_MS <= NOW);

describe.each(SEEDS)("seed %i, 50 customers", (seed) => {
  const d = data(seed);
  const shop = shopOf(structuredClone(d));
  const { tiers, rewards } = d.program;

  it("has 13-digit ids, strictly increasing in creation order, and creation order is time order", () => {
    expect(d.customers).toHaveLength(50);
    for (const c of d.customers) expect(c.id).toMatch(/^[1-9]\d{12}$/);
    for (let i = 1; i < d.customers.length; i++) {
      expect(BigInt(d.customers[i]!.id) > BigInt(d.customers[i - 1]!.id)).toBe(true);
      expect(d.customers[i]!.createdAt).toBeGreaterThanOrEqual(d.customers[i - 1]!.createdAt);
    }
  });

  it("has realistic people: names, lower-case emails, some birthdays and phones", () => {
    for (const c of d.customers) {
      expect(c.firstName.length).toBeGreaterThan(1);
      expect(c.lastName.length).toBeGreaterThan(1);
      expect(c.email).toMatch(/^[^@\sA-Z]+@[^@\sA-Z]+\.[a-z]{2,}$/);
      if (c.dateOfBirth !== undefined) expect(c.dateOfBirth).toMatch(/^(0[1-9]|[12]\d)-(0[1-9]|1[0-2])$/);
    }
    const withBirthday = d.customers.filter((c) => c.dateOfBirth !== undefined).length;
    const withPhone = d.customers.filter((c) => c.phone !== undefined).length;
    expect(withBirthday).toBeGreaterThan(10);
    expect(withBirthday).toBeLessThan(50);
    expect(withPhone).toBeGreaterThan(10);
    expect(withPhone).toBeLessThan(50);
    expect(new Set(d.customers.map((c) => `${c.firstName} ${c.lastName}`)).size).toBeGreaterThan(40);
  });

  it("keeps every balance equal to its ledger, in time order, within the history", () => {
    expect(shop.ledgerMismatches()).toEqual([]);
    for (const c of d.customers) {
      const ledger = shop.store.activitiesOf(c.id);
      expect(c.balance).toBeGreaterThanOrEqual(0);
      ledger.forEach((a, i) => {
        expect(a.createdAt).toBeGreaterThanOrEqual(i === 0 ? c.createdAt : ledger[i - 1]!.createdAt);
        expect(a.createdAt).toBeLessThanOrEqual(Date.parse("2026-11-01T00:00:00Z"));
      });
    }
  });

  it("gives every customer the tier its earned total reaches (generation never sets one manually)", () => {
    let tiered = 0;
    for (const c of d.customers) {
      const ledger = shop.store.activitiesOf(c.id);
      expect(ledger.some((a) => a.kind === "tier")).toBe(false);
      const earned = ledger.filter((a) => EARNING.has(a.kind) && a.stampChange > 0).reduce((s, a) => s + a.stampChange, 0);
      expect(c.earned).toBe(earned);
      const reached = tiers.filter((t) => t.milestone <= earned).at(-1);
      expect(c.vipTierId).toBe(reached?.id);
      if (reached) tiered++;
    }
    // Regulars (about 8% of customers) reach Bronze or beyond.
    expect(tiered).toBeGreaterThanOrEqual(2);
  });

  it("has codes from real redemptions, some used and some not", () => {
    const redemptions = d.activities.filter((a) => a.kind === "redeem");
    expect(d.codes.length).toBe(redemptions.length);
    for (const code of d.codes) {
      const reward = rewards.find((r) => r.id === code.rewardId)!;
      expect(code.code).toMatch(/^LOYAL-[A-HJ-NP-Z2-9]{6}$/);
      expect([code.name, code.cost, code.voided]).toEqual([reward.name, reward.price, false]);
      const activity = redemptions.find((a) => a.customerId === code.customerId && a.createdAt === code.createdAt);
      expect(activity).toMatchObject({ label: `Redeemed ${reward.name}`, stampChange: -reward.price });
    }
    expect(d.codes.filter((c) => c.used).length).toBeGreaterThanOrEqual(2);
    expect(d.codes.filter((c) => !c.used).length).toBeGreaterThanOrEqual(1);
  });

  it("has at least one removed customer; merged ones are frozen at 0 and point at a kept customer", () => {
    expect(d.customers.filter((c) => c.excluded).length).toBeGreaterThanOrEqual(1);
    for (const c of d.customers.filter((m) => m.mergedIntoCustomerId !== undefined)) {
      const into = shop.store.customer(c.mergedIntoCustomerId!)!;
      expect(into.id).not.toBe(c.id);
      expect(c.balance).toBe(0);
      expect(c.excluded).toBe(false);
      expect(shop.getCustomer(c.id).value).toMatchObject({ state: "active", stampBalance: 0, mergedIntoCustomerId: into.id });
      const moved = shop.store.activitiesOf(c.id).filter((a) => a.kind === "merge");
      expect(moved.map((a) => a.label)).toEqual(moved.length ? [`Merged into customer ${into.id}`] : []);
      const received = shop.store.activitiesOf(into.id).filter((a) => a.label === `Merged from customer ${c.id}`);
      expect(received.map((a) => a.stampChange)).toEqual(moved.map((a) => -a.stampChange));
    }
  });

  it("stays consistent when every customer is read at the test clock (expiry settled)", () => {
    const live = shopOf(structuredClone(d));
    for (const c of d.customers) live.getCustomer(c.id);
    expect(live.ledgerMismatches()).toEqual([]);
    const stale = staleAtNow(d);
    for (const c of live.store.data.customers) {
      const wasStale = stale.some((s) => s.id === c.id);
      const before = d.customers.find((s) => s.id === c.id)!;
      expect(c.balance).toBe(wasStale ? 0 : before.balance);
      const last = live.store.activitiesOf(c.id).at(-1);
      if (wasStale) expect(last).toMatchObject({ kind: "expire", stampChange: -before.balance, createdAt: before.lastMovementAt! + YEAR_MS });
    }
  });
});

describe("across seeds 1..3", () => {
  it("some customers' stamps expire at the test clock", () => {
    expect(SEEDS.reduce((n, seed) => n + staleAtNow(data(seed)).length, 0)).toBeGreaterThanOrEqual(1);
  });
});

describe("the default seed (1)", () => {
  const d = data(1);

  it("has shared emails, found case-insensitively, plus removed and merged customers", () => {
    const shop = shopOf(structuredClone(d));
    const byEmail = new Map<string, ShopData["customers"]>();
    for (const c of d.customers) byEmail.set(c.email, [...(byEmail.get(c.email) ?? []), c]);
    const shared = [...byEmail.values()].filter((group) => group.length > 1);
    expect(shared.length).toBeGreaterThanOrEqual(1);
    for (const group of shared) {
      const found = shop.listCustomers({ email: group[0]!.email.toUpperCase() }, { limit: 10, hasCount: true });
      expect(found.items.map((c) => c.id)).toEqual(group.map((c) => c.id));
    }
    expect(d.customers.filter((c) => c.excluded).length).toBeGreaterThanOrEqual(1);
    expect(d.customers.filter((c) => c.mergedIntoCustomerId !== undefined).length).toBeGreaterThanOrEqual(1);
  });
});
