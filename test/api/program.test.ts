import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { defaultFixturePath } from "../../src/program/load.js";
import { createTestSim, expectError } from "../support/sim.js";

const TS = "2026-11-23T12:00:00+00:00";
const ICON = (name: string) => `https://cdn.example.com/loyalty/icons/${name}.svg`;

/** The raw fixture file: expected values are read from it, never from the engine. */
const fixture = JSON.parse(readFileSync(defaultFixturePath(), "utf8"));
type Raw = Record<string, unknown> & { id: number };
const rewardJson = (id: number) => {
  const { id: _, minAmount, maxAmount, tierId, posOnly, ...rest } = fixture.rewards.find((r: Raw) => r.id === id);
  return { id: String(id), ...rest };
};
const tierJson = (t: Raw & { rewardIds: number[] }) => {
  const { rewardIds, ...rest } = t;
  return { ...rest, id: String(t.id), rewards: rewardIds.map(rewardJson) };
};
const earnRuleJson = (r: Raw) => {
  const { limit, ...rest } = r;
  return { ...rest, id: String(r.id) };
};

describe("GET /tiers and /tiers/{id}", () => {
  const sim = createTestSim();

  it("lists the four tiers by milestone, each with its rewards, and meta.count", async () => {
    const res = await sim.call("GET", "/tiers");
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({ success: true, data: fixture.tiers.map(tierJson), meta: { count: 4 }, timestamp: TS });
    expect(res.body.data.map((t: { id: string; name: string; milestone: number; multiplier: number }) => [t.id, t.name, t.milestone, t.multiplier])).toEqual([
      ["1", "Bronze", 25, 1],
      ["2", "Silver", 75, 1.25],
      ["3", "Gold", 150, 1.5],
      ["4", "Platinum", 300, 2],
    ]);
    expect(res.body.data.map((t: { rewards: { id: string }[] }) => t.rewards.map((r) => r.id))).toEqual([["101"], ["103"], ["102", "107"], ["105", "109"]]);
  });

  it("GET /tiers/3 is Gold with the tier-locked pastry box", async () => {
    const res = await sim.call("GET", "/tiers/3");
    expect(res.body).toStrictEqual({
      success: true,
      data: {
        id: "3",
        name: "Gold",
        milestone: 150,
        multiplier: 1.5,
        iconUrl: ICON("tier-gold"),
        benefits: "Earn 1.5x stamps, a free coffee, and access to the Gold pastry box.",
        rewards: [
          { id: "102", name: "Free coffee of your choice", price: 10, exchangeType: "cards", iconUrl: ICON("coffee") },
          { id: "107", name: "Gold pastry box (4 pastries)", price: 25, exchangeType: "stamps", iconUrl: ICON("pastry-box") },
        ],
      },
      timestamp: TS,
    });
  });

  it.each(fixture.tiers.map((t: Raw) => t.id) as number[])("GET /tiers/%i equals its entry in the list", async (id) => {
    const res = await sim.call("GET", `/tiers/${id}`);
    expect(res.body.data).toStrictEqual(tierJson(fixture.tiers.find((t: Raw) => t.id === id)));
  });

  it("omits a tier's iconUrl when it has none", async () => {
    const bare = createTestSim({ program: (p) => delete p.tiers[1]!.iconUrl });
    const res = await bare.call("GET", "/tiers/2");
    expect(Object.keys(res.body.data)).toEqual(["id", "name", "milestone", "multiplier", "benefits", "rewards"]);
  });

  it.each([["99", "Tier 99 not found"], ["0", "Tier 0 not found"]])("GET /tiers/%s is 404 TIER_NOT_FOUND", async (id, message) => {
    expectError(await sim.call("GET", `/tiers/${id}`), 404, "TIER_NOT_FOUND", message);
  });

  it.each(["abc", "1.5", "-1"])("GET /tiers/%s (not a number) is 404 TIER_NOT_FOUND", async (id) => {
    const res = await sim.call("GET", `/tiers/${id}`);
    expect([res.status, res.body.error.code, res.body.error.statusCode]).toEqual([404, "TIER_NOT_FOUND", 404]);
  });
});

describe("GET /earn-rules and /earn-rules/{id}", () => {
  const sim = createTestSim();

  it("lists the seven rules without their internal limits, with meta.count", async () => {
    const res = await sim.call("GET", "/earn-rules");
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({ success: true, data: fixture.earnRules.map(earnRuleJson), meta: { count: 7 }, timestamp: TS });
    expect(res.body.data.map((r: { id: string; type: string; step: number }) => [r.id, r.type, r.step])).toEqual([
      ["201", "order", 1],
      ["202", "social", 2],
      ["203", "social", 1],
      ["204", "birthday", 5],
      ["205", "signup", 3],
      ["206", "review", 2],
      ["207", "referral", 5],
    ]);
  });

  it("GET /earn-rules/203 is the Facebook share", async () => {
    const res = await sim.call("GET", "/earn-rules/203");
    expect(res.body).toStrictEqual({
      success: true,
      data: { id: "203", name: "Share us on Facebook", type: "social", step: 1, multiplier: 1, iconUrl: ICON("facebook") },
      timestamp: TS,
    });
  });

  it("omits an earn rule's iconUrl when it has none", async () => {
    const bare = createTestSim({ program: (p) => delete p.earnRules[0]!.iconUrl });
    const res = await bare.call("GET", "/earn-rules/201");
    expect(res.body.data).toStrictEqual({ id: "201", name: "Place an order", type: "order", step: 1, multiplier: 1 });
  });

  it("GET /earn-rules/999 is 404 EARN_RULE_NOT_FOUND, and so is a non-numeric id", async () => {
    expectError(await sim.call("GET", "/earn-rules/999"), 404, "EARN_RULE_NOT_FOUND", "Earn rule 999 not found");
    const res = await sim.call("GET", "/earn-rules/abc");
    expect([res.status, res.body.error.code]).toEqual([404, "EARN_RULE_NOT_FOUND"]);
  });
});

describe("GET /shop and /beacons", () => {
  const sim = createTestSim();

  it("GET /shop has the program name, currency and stamp branding", async () => {
    const res = await sim.call("GET", "/shop");
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({
      success: true,
      data: { programName: "Crumb & Bean Rewards", currencySymbol: "$", stampBrandingPlural: "stamps", stampCardValue: 10, currency: "USD" },
      timestamp: TS,
    });
  });

  it("GET /shop follows the program's settings", async () => {
    const beans = createTestSim({
      program: (p) => Object.assign(p.settings, { programName: "Bean Club", currencySymbol: "€", currency: "EUR", stampBrandingPlural: "beans", stampCardValue: 8 }),
    });
    const res = await beans.call("GET", "/shop");
    expect(res.body.data).toStrictEqual({ programName: "Bean Club", currencySymbol: "€", stampBrandingPlural: "beans", stampCardValue: 8, currency: "EUR" });
  });

  it("GET /beacons lists both beacons whole with meta.count", async () => {
    const res = await sim.call("GET", "/beacons");
    expect(res.status).toBe(200);
    expect(res.body).toStrictEqual({
      success: true,
      data: [
        { id: "301", name: "Double stamps weekend", message: "Earn double stamps on every order this weekend!", icon: "star", active: true },
        { id: "302", name: "Pumpkin season", message: "Pumpkin spice lattes are back: 2 extra stamps with every one.", icon: "gift", active: false },
      ],
      meta: { count: 2 },
      timestamp: TS,
    });
  });

  it("an empty program lists are empty with count 0", async () => {
    const empty = createTestSim({ program: (p) => void (p.beacons = []) });
    const res = await empty.call("GET", "/beacons");
    expect(res.body).toStrictEqual({ success: true, data: [], meta: { count: 0 }, timestamp: TS });
  });
});
