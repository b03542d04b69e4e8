/**
 * Customers written by hand in a fixture (issue 30, item 1): the simulator starts with them, as
 * written, before `--customers` generated ones; a reset and a restart bring them back; every bad
 * field is refused at start, named by its path.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixedClock } from "../src/engine/clock.js";
import { createSimulator, startSimulator } from "../src/index.js";
import { stateProblems } from "../src/persistence/state-schema.js";
import { defaultFixturePath, parseFixture } from "../src/program/load.js";
import { NOW } from "./support/sim.js";

const dir = mkdtempSync(join(tmpdir(), "loyalty-sim-fixture-customers-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Json = Record<string, any>;
const AT = (day: number) => `2026-10-${String(day).padStart(2, "0")}T09:00:00+00:00`;

/** Ada: 9 stamps and one unused code. Ben: a removed Gold member. Cy: merged into Ada. */
function customers(): Json[] {
  return [
    {
      id: "6000000000001",
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@example.com",
      dateOfBirth: "10-12",
      stampBalance: 9,
      activities: [
        { label: "Join the program", stampChange: 3, createdAt: AT(1), earnRuleId: 205 },
        { label: "Welcome gift", stampChange: 16, createdAt: AT(2) },
        { label: "Redeemed Free coffee of your choice", stampChange: -10, createdAt: AT(3) },
      ],
      rewardCodes: [{ code: "LOYAL-ADA001", rewardId: 102, createdAt: AT(3) }],
    },
    {
      id: "6000000000002",
      firstName: "Ben",
      lastName: "Okafor",
      email: "ben@example.com",
      state: "removed",
      vipTierId: 3,
      stampBalance: 0,
      rewardCodes: [{ code: "LOYAL-BEN001", rewardId: 101, used: true, createdAt: AT(4) }],
    },
    { id: "6000000000003", firstName: "Cy", lastName: "Lovelace", email: "ada@example.com", mergedIntoCustomerId: "6000000000001", stampBalance: 0 },
  ];
}

function fixture(change: (file: Json) => void = () => {}): Json {
  const file = JSON.parse(readFileSync(defaultFixturePath(), "utf8")) as Json;
  file.customers = customers();
  change(file);
  return file;
}

let files = 0;
function simWith(file: Json, options: { customers?: number; data?: string } = {}) {
  const path = join(dir, `fixture-${files++}.json`);
  writeFileSync(path, JSON.stringify(file));
  const sim = createSimulator({ fixtures: path, customers: options.customers ?? 0, logLevel: "silent", ...(options.data && { data: options.data }), newClock: () => fixedClock(NOW) });
  const get = async (path: string) => {
    const res = await sim.fetch(`${sim.baseUrl}${path}`, { headers: { "X-Api-Key": sim.apiKey, "X-Api-Secret": sim.apiSecret } });
    return { status: res.status, body: (await res.json()) as Json };
  };
  return { sim, get };
}

describe("issue 30: customers written by hand in a fixture", () => {
  it("are served as written: balance, cards, tier, state, merge, birthday, history newest first, codes", async () => {
    const { get } = simWith(fixture());
    const ada = (await get("/customers/6000000000001")).body.data;
    expect(ada).toMatchObject({ firstName: "Ada", stampBalance: 9, cards: 0, state: "active", dateOfBirth: "10-12", stampsToNextReward: 1 });
    expect(ada).not.toHaveProperty("vipTierId");
    // Rolling expiry, 365 days after the last movement.
    expect(ada.stampsExpireAt).toBe("2027-10-03T09:00:00+00:00");
    const history = (await get("/customers/6000000000001/activities?limit=10")).body.data as Json[];
    expect(history.map((a) => [a.label, a.stampChange, a.createdAt])).toEqual([
      ["Redeemed Free coffee of your choice", -10, AT(3)],
      ["Welcome gift", 16, AT(2)],
      ["Join the program", 3, AT(1)],
    ]);
    expect((await get("/customers/6000000000001/reward-codes?available=true")).body.data).toEqual([
      { id: "100001", name: "Free coffee of your choice", code: "LOYAL-ADA001", used: false, createdAt: AT(3) },
    ]);
    expect((await get("/customers/6000000000002")).body.data).toMatchObject({ state: "removed", vipTierId: 3, vipTierName: "Gold", stampBalance: 0 });
    expect((await get("/customers/6000000000002/reward-codes?available=true")).body.data).toEqual([]);
    expect((await get("/customers/6000000000003")).body.data).toMatchObject({ mergedIntoCustomerId: "6000000000001", state: "active" });
    expect((await get("/customers?email=ADA@example.com")).body.data.map((c: Json) => c.id)).toEqual(["6000000000001", "6000000000003"]);
  });

  it("behave as the engine's own: a void refunds the code's cost (its reward's price), a once-only rule already earned is refused", async () => {
    const { sim } = simWith(fixture());
    const post = async (path: string, body?: unknown) => {
      const res = await sim.fetch(`${sim.baseUrl}${path}`, {
        method: "POST",
        headers: { "X-Api-Key": sim.apiKey, "X-Api-Secret": sim.apiSecret, ...(body !== undefined && { "Content-Type": "application/json" }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as Json };
    };
    expect((await post("/customers/6000000000001/reward-codes/100001/void")).body.data).toMatchObject({ code: "LOYAL-ADA001", used: true });
    expect((await sim.fetch(`${sim.baseUrl}/customers/6000000000001`, { headers: { "X-Api-Key": sim.apiKey, "X-Api-Secret": sim.apiSecret } }).then((r) => r.json() as Promise<Json>)).data.stampBalance).toBe(19);
    const again = await post("/customers/6000000000001/activities", { earn_rule_id: 205 });
    expect(again.status).toBe(422);
    expect(again.body.error.code).toBe("ACTIVITY_NOT_AWARDED");
    // A removed customer is refused as the engine refuses one.
    expect((await post("/customers/6000000000002/stamps/award", { stamps: 1 })).status).toBe(422);
  });

  it("come first; --customers N adds N generated after them, whose ids step past a fixture's id", async () => {
    const plain = createSimulator({ customers: 5, logLevel: "silent", newClock: () => fixedClock(NOW) });
    const generated = plain.engine.defaultShop().store.data.customers.map((c) => c.id);
    // A fixture customer holding the id the generator draws first.
    const { sim } = simWith(fixture((f) => {
      f.customers[0].id = generated[0];
      f.customers[2].mergedIntoCustomerId = generated[0];
    }), { customers: 5 });
    const ids = sim.engine.defaultShop().store.data.customers.map((c) => c.id);
    expect(ids.slice(0, 3)).toEqual([generated[0], "6000000000002", "6000000000003"]);
    expect(ids).toHaveLength(8);
    expect(new Set(ids).size).toBe(8);
    expect(ids[3]).toBe(String(BigInt(generated[0]!) + 1n));
    expect(ids.slice(4)).toEqual(generated.slice(1));
  });

  it("come back as written after a reset, and after a restart from --data (a reset there too: the file keeps them)", async () => {
    const path = join(dir, "restart.json");
    writeFileSync(path, JSON.stringify(fixture()));
    const data = join(dir, "state.json");
    const options = { fixtures: path, data, flushMs: 50, customers: 2, logLevel: "silent" as const, rateLimit: "off" as const };
    const balance = async (sim: { baseUrl: string; apiKey: string; apiSecret: string }) =>
      ((await (await fetch(`${sim.baseUrl}/customers/6000000000001`, { headers: { "X-Api-Key": sim.apiKey, "X-Api-Secret": sim.apiSecret } })).json()) as Json).data.stampBalance;
    const award = (sim: { baseUrl: string; apiKey: string; apiSecret: string }) =>
      fetch(`${sim.baseUrl}/customers/6000000000001/stamps/award`, { method: "POST", headers: { "X-Api-Key": sim.apiKey, "X-Api-Secret": sim.apiSecret, "Content-Type": "application/json" }, body: '{"stamps":5}' });
    const first = await startSimulator(options);
    await award(first);
    expect(await balance(first)).toBe(14);
    await first.control.reset();
    expect(await balance(first)).toBe(9);
    await award(first);
    await first.close();
    // The fixture is not read again: the file's shop, spec and all, is served.
    writeFileSync(path, "{}");
    const second = await startSimulator(options);
    try {
      expect(await balance(second)).toBe(14);
      await second.control.reset();
      expect(await balance(second)).toBe(9);
      expect(second.engine.defaultShop().store.customerCount).toBe(5);
    } finally {
      await second.close();
    }
  });
});

describe("issue 30: a --data file's fixture customers", () => {
  it("are checked as the file's own records: a balance that is not its ledger's sum is named in the spec", async () => {
    const path = join(dir, "checked.json");
    writeFileSync(path, JSON.stringify(fixture()));
    const data = join(dir, "checked-state.json");
    const sim = await startSimulator({ fixtures: path, data, customers: 0, logLevel: "silent", rateLimit: "off" });
    await sim.close();
    const saved = JSON.parse(readFileSync(data, "utf8")) as Json;
    expect(stateProblems(saved)).toEqual([]);
    saved.shops[0].spec.fixtureCustomers.customers[0].balance = 99;
    expect(stateProblems(saved)).toEqual(["shops[0].spec.fixtureCustomers.customers[0].balance: is 99, but the customer's ledger sums to 9"]);
  });
});

/** A fixture with one change to its customers, and the line the refusal must hold. */
const refused: [string, (file: Json) => void, string][] = [
  ["id: not digits", (f) => (f.customers[0].id = "ada"), "customers[0].id: must be 1 to 20 digits"],
  ["id: used twice", (f) => (f.customers[1].id = f.customers[0].id), "customers[1].id: duplicate customer id 6000000000001"],
  ["firstName: missing", (f) => delete f.customers[0].firstName, "customers[0].firstName: required"],
  ["email: not text", (f) => (f.customers[0].email = 7), "customers[0].email: Invalid input: expected string, received number"],
  ["an unknown field", (f) => (f.customers[0].points = 9), "customers[0].points: unknown key (not in the format)"],
  ["dateOfBirth: not dd-mm", (f) => (f.customers[0].dateOfBirth = "1990-12-10"), "customers[0].dateOfBirth: must be dd-mm, e.g. 05-06 for 5 June"],
  ["dateOfBirth: a day the month lacks", (f) => (f.customers[0].dateOfBirth = "30-02"), "customers[0].dateOfBirth: must be a day the month has (dd-mm)"],
  ["state: neither active nor removed", (f) => (f.customers[0].state = "frozen"), 'customers[0].state: Invalid option: expected one of "active"|"removed"'],
  ["mergedIntoCustomerId: no such customer", (f) => (f.customers[2].mergedIntoCustomerId = "6000000000009"), "customers[2].mergedIntoCustomerId: no customer has id 6000000000009"],
  ["mergedIntoCustomerId: itself", (f) => (f.customers[2].mergedIntoCustomerId = "6000000000003"), "customers[2].mergedIntoCustomerId: a customer cannot be merged into itself"],
  ["vipTierId: a tier that does not exist", (f) => (f.customers[1].vipTierId = 9), "customers[1].vipTierId: no tier has id 9"],
  ["stampBalance: not the ledger's sum", (f) => (f.customers[0].stampBalance = 10), "customers[0].stampBalance: is 10, but the customer's ledger sums to 9"],
  ["stampBalance: negative", (f) => (f.customers[1].stampBalance = -1), "customers[1].stampBalance: Too small: expected number to be >=0"],
  ["createdAt: no offset", (f) => (f.customers[0].createdAt = "2026-10-01 09:00"), "customers[0].createdAt: must be an ISO 8601 timestamp with an offset, e.g. 2026-06-05T12:00:00+00:00"],
  ["activities[].createdAt: out of order", (f) => (f.customers[0].activities[2].createdAt = AT(1)), "customers[0].activities[2].createdAt: is before activities[1].createdAt: a history is written oldest first"],
  ["activities[].stampChange: below a balance of 0", (f) => f.customers[0].activities.reverse().forEach((a: Json, i: number) => (a.createdAt = AT(i + 1))), "customers[0].activities[0].stampChange: takes the balance to -10: a balance is never below 0 (the history is written oldest first)"],
  ["activities[].stampChange: not an integer", (f) => (f.customers[0].activities[1].stampChange = 1.5), "customers[0].activities[1].stampChange: Invalid input: expected int, received number"],
  ["activities[].earnRuleId: no such rule", (f) => (f.customers[0].activities[0].earnRuleId = 299), "customers[0].activities[0].earnRuleId: no earn rule has id 299"],
  ["activities[].label: missing", (f) => delete f.customers[0].activities[1].label, "customers[0].activities[1].label: required"],
  ["rewardCodes[].rewardId: no such reward", (f) => (f.customers[0].rewardCodes[0].rewardId = 199), "customers[0].rewardCodes[0].rewardId: no reward has id 199"],
  ["rewardCodes[].code: used twice", (f) => (f.customers[1].rewardCodes[0].code = "LOYAL-ADA001"), "customers[1].rewardCodes[0].code: duplicate code LOYAL-ADA001 (first at customers[0].rewardCodes[0]): a shop issues each code once"],
  ["rewardCodes[].code: with a space", (f) => (f.customers[0].rewardCodes[0].code = "LOYAL ADA"), "customers[0].rewardCodes[0].code: must be a code without spaces, e.g. LOYAL-7Q2X9K"],
  ["rewardCodes[].used: false though voided", (f) => Object.assign(f.customers[0].rewardCodes[0], { used: false, voided: true }), "customers[0].rewardCodes[0].used: must not be false when voided is true: a voided code can no longer be used"],
  ["rewardCodes[].cost: negative", (f) => (f.customers[0].rewardCodes[0].cost = -5), "customers[0].rewardCodes[0].cost: Too small: expected number to be >=0"],
  [
    "rewardCodes: more than a customer may hold",
    (f) => (f.customers[1].rewardCodes = Array.from({ length: 1001 }, (_, i) => ({ code: `LOYAL-B${i}`, rewardId: 101, used: true, createdAt: AT(4) }))),
    "customers[1].rewardCodes: must hold at most 1000 codes: one customer may hold no more (every list of them is answered whole)",
  ],
];

describe("issue 30: a fixture's customers refused at start, each bad field named", () => {
  it("the customers above load", () => {
    expect(parseFixture(fixture(), "inline").customers?.customers).toHaveLength(3);
  });

  it.each(refused)("%s", (_, change, line) => {
    expect(() => parseFixture(fixture(change), "broken.json")).toThrow(`  - ${line}\n`);
  });
});
