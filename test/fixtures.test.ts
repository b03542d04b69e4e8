import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { defaultFixturePath, FixtureError, loadFixtureFile, parseFixture } from "../src/program/load.js";
import { toProgram, type FixtureFile } from "../src/program/schema.js";

const raw = (): FixtureFile => JSON.parse(readFileSync(defaultFixturePath(), "utf8")) as FixtureFile;

describe("default fixture", () => {
  const { program, access, referenceDate } = loadFixtureFile(defaultFixturePath());

  it("describes a paid shop with API access and rolling one-year expiry", () => {
    expect(access).toEqual({
      apiKey: "sim_key",
      apiSecret: "sim_secret",
      apiAccess: true,
      plan: "paid",
      rateLimit: 1000,
    });
    expect(program.settings.expiry).toEqual({ mode: "rolling", days: 365 });
    expect(program.settings.stampCardValue).toBe(10);
    expect(referenceDate).toBe(Date.UTC(2026, 10, 1));
  });

  it("has at least four tiers in milestone order, each granting one or two existing rewards", () => {
    expect(program.tiers.length).toBeGreaterThanOrEqual(4);
    const milestones = program.tiers.map((t) => t.milestone);
    expect(milestones).toEqual([...milestones].sort((a, b) => a - b));
    const rewardIds = new Set(program.rewards.map((r) => r.id));
    for (const tier of program.tiers) {
      expect(tier.rewardIds.length).toBeGreaterThanOrEqual(1);
      expect(tier.rewardIds.length).toBeLessThanOrEqual(2);
      for (const id of tier.rewardIds) expect(rewardIds.has(id)).toBe(true);
    }
  });

  it("has an earn rule of every common type", () => {
    expect(program.earnRules.length).toBeGreaterThanOrEqual(6);
    const types = new Set(program.earnRules.map((r) => r.type));
    for (const type of ["order", "social", "birthday", "signup", "review", "referral"]) {
      expect(types, type).toContain(type);
    }
    const limits = new Set(program.earnRules.map((r) => r.limit.kind));
    expect(limits).toEqual(new Set(["lifetime", "period"]));
  });

  it("has listed rewards of every exchange type plus hidden POS-only and tier-locked ones", () => {
    const listed = program.rewards.filter((r) => !r.posOnly && r.tierId === undefined);
    expect(listed.length).toBeGreaterThanOrEqual(6);
    expect(program.rewards.length - listed.length).toBeGreaterThanOrEqual(2);
    const exchangeTypes = new Set(program.rewards.map((r) => r.exchangeType));
    expect(exchangeTypes).toEqual(new Set(["stamps", "cards", "variable"]));
    expect(program.rewards.some((r) => r.posOnly)).toBe(true);
    const gold = program.tiers.find((t) => t.name === "Gold");
    expect(program.rewards.some((r) => r.tierId === gold?.id)).toBe(true);
    const variable = program.rewards.find((r) => r.exchangeType === "variable");
    expect(variable).toMatchObject({ minAmount: 1, maxAmount: 100 });
  });

  it("has two beacons", () => {
    expect(program.beacons).toHaveLength(2);
  });
});

describe("toProgram", () => {
  it("fills in access defaults and keeps an explicit null rate limit", () => {
    const file = raw();
    delete file.access;
    delete file.generation;
    expect(toProgram(file).access.rateLimit).toBe(1000);
    expect(toProgram(file).referenceDate).toBe(Date.parse("2026-11-01T00:00:00+00:00"));
    expect(toProgram({ ...file, access: { rateLimit: null, plan: "free" } }).access).toMatchObject({
      apiKey: "sim_key",
      plan: "free",
      rateLimit: null,
    });
  });

  it("sorts tiers by milestone", () => {
    const file = raw();
    file.tiers.reverse();
    expect(toProgram(file).program.tiers.map((t) => t.milestone)).toEqual([25, 75, 150, 300]);
  });
});

describe("broken fixtures", () => {
  const cases: [string, (f: FixtureFile) => void, string][] = [
    ["duplicate reward id", (f) => void (f.rewards[2]!.id = f.rewards[0]!.id), "rewards[2].id"],
    ["tier granting an unknown reward", (f) => void f.tiers[1]!.rewardIds.push(999), "tiers[1].rewardIds[1]"],
    ["reward locked to an unknown tier", (f) => void (f.rewards[3]!.tierId = 42), "rewards[3].tierId"],
    ["negative price", (f) => void (f.rewards[2]!.price = -5), "rewards[2].price"],
    ["unknown key", (f) => Object.assign(f.shop, { colour: "red" }), "shop.colour"],
    [
      "earn rule with a bad limit period",
      (f) => void (f.earnRules[0]!.limit = { kind: "period", count: 1, period: "month" as "day" }),
      "earnRules[0].limit.period",
    ],
    ["duplicate milestone", (f) => void (f.tiers[1]!.milestone = 25), "tiers[1].milestone"],
    ["bounds on a non-variable reward", (f) => void (f.rewards[0]!.maxAmount = 3), "rewards[0].maxAmount"],
    [
      "variable reward with min above max",
      (f) => void Object.assign(f.rewards[5]!, { minAmount: 50, maxAmount: 10 }),
      "rewards[5].minAmount",
    ],
    ["cards reward of a part card", (f) => void (f.rewards[1]!.price = 15), "rewards[1].price: must be a whole"],
    ["variable default out of bounds", (f) => void (f.rewards[5]!.price = 500), "rewards[5].price: must lie"],
    ["missing field", (f) => void Reflect.deleteProperty(f.shop, "currency"), "shop.currency: required"],
    // Stamp counts and tier ids are GraphQL Ints (issue 26, case 7).
    ["a milestone beyond 2^31-1", (f) => void (f.tiers[3]!.milestone = 2 ** 31), "tiers[3].milestone: must be at most 2147483647, the most stamps a balance may hold (production's GraphQL API types stamp counts as 32-bit integers)"],
    ["a variable reward's bound beyond 2^31-1", (f) => void (f.rewards[5]!.maxAmount = 2 ** 31), "rewards[5].maxAmount: must be at most 2147483647"],
    ["a card of more stamps than a balance holds", (f) => void (f.shop.stampCardValue = 2 ** 31), "shop.stampCardValue: must be at most 2147483647"],
    ["a tier id beyond 2^31-1", (f) => void (f.tiers[0]!.id = 2 ** 31), "tiers[0].id: must be at most 2147483647: GraphQL's Customer.vipTierId is a 32-bit Int"],
    [
      "an earn rule that would award more than a balance holds at the top tier",
      (f) => void (f.earnRules[0]!.step = 2 ** 30),
      "earnRules[0].multiplier: step x multiplier x the highest tier multiplier (2) is 2147483648, beyond 2147483647, the most stamps a balance may hold (production's GraphQL API types stamp counts as 32-bit integers)",
    ],
    [
      "no listed reward",
      (f) => f.rewards.forEach((r) => void (r.posOnly = true)),
      "rewards: needs at least one reward",
    ],
  ];

  it.each(cases)("rejects %s", (_name, breakIt, path) => {
    const file = raw();
    breakIt(file);
    expect(() => parseFixture(file, "broken.json")).toThrow(FixtureError);
    expect(() => parseFixture(file, "broken.json")).toThrow(`  - ${path}`);
  });

  it("lists every problem and says what to do", () => {
    const file = raw();
    file.rewards[0]!.price = 0;
    file.beacons[1]!.id = file.beacons[0]!.id;
    const message = (() => {
      try {
        parseFixture(file, "broken.json");
      } catch (error) {
        return (error as Error).message;
      }
      return "";
    })();
    expect(message).toMatch(/^Fixture broken\.json is not a valid fixture:\n/);
    expect(message).toContain("  - rewards[0].price: ");
    expect(message).toContain("  - beacons[1].id: duplicate beacon id 301");
    expect(message).toContain("omit --fixtures to use the default program");
  });
});

describe("loadFixtureFile", () => {
  const dir = mkdtempSync(join(tmpdir(), "loyalty-sim-fixtures-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("rejects invalid JSON, naming the file and the parser's complaint", () => {
    const path = join(dir, "bad.json");
    writeFileSync(path, '{ "shop": { "programName": "Oops", } }');
    expect(() => loadFixtureFile(path)).toThrow(FixtureError);
    expect(() => loadFixtureFile(path)).toThrow(`Fixture ${path} is not valid JSON:\n  - `);
    expect(() => loadFixtureFile(path)).toThrow(/JSON[^]*position|Unexpected token|Expected/);
  });

  it("reports a missing file", () => {
    expect(() => loadFixtureFile(join(dir, "missing.json"))).toThrow(/cannot be read:\n  - ENOENT/);
  });

  it("validates file contents with the same rules", () => {
    const path = join(dir, "unknown-key.json");
    writeFileSync(path, JSON.stringify({ ...raw(), extra: true }));
    expect(() => loadFixtureFile(path)).toThrow("  - extra: unknown key");
  });
});
