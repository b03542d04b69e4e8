/**
 * Answers as large as the bound allows end in seconds (issue 35, hostile checks): the import's own
 * work on what it read grows with its size, never with its square, so a tier granting 150,000
 * rewards, a customer holding 20,000 codes or a chain of merges through 200,000 customers cannot keep
 * it at 100% CPU for hours.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runImportCli } from "../../src/cli/import.js";
import { hostileFetch, ORIGIN, type HostileShop } from "../support/hostile-source.js";
import { dir, startSource } from "../support/import.js";

type Json = any;
let outs = 0;
const stand = startSource({ customers: 0 });
const program = async (): Promise<HostileShop["program"]> => ({
  shop: (await stand.get("/shop")).data,
  tiers: (await stand.get("/tiers")).data,
  earnRules: (await stand.get("/earn-rules")).data,
  rewards: (await stand.get("/rewards")).data,
  beacons: (await stand.get("/beacons")).data,
});
const ada = { id: "81", firstName: "Ada", lastName: "Lovelace", email: "ada@personal.test", stampBalance: 0, cards: 0, stampsToNextReward: 1, state: "active" };

async function importShop(shop: HostileShop, more: string[] = []) {
  const source = hostileFetch(shop, { spoils: [], customerPages: "normal", activityPages: "normal", merging: "none", retryAfter: undefined }, 1000);
  let clock = Date.UTC(2026, 10, 23);
  const said = { out: "", err: "" };
  const io = { out: (t: string) => (said.out += t), err: (t: string) => (said.err += t), progress: () => {} };
  const argv = ["--from", ORIGIN, "--out", join(dir, `sizes-${outs++}.json`), "--salt", "s", "--api-key", "k", "--api-secret", "secret", ...more];
  const code = await runImportCli(argv, {}, io, { fetch: source.fetch, now: () => clock, sleep: async (ms) => void (clock += ms) });
  return { code, ...said, requests: source.seen.requests };
}

describe("issue 35: answers as large as the bound allows", () => {
  it("a tier granting 150,000 rewards GET /rewards leaves out: each locked to it, in seconds", async () => {
    const shop = { program: await program(), customers: [], hidden: [] } as HostileShop;
    shop.program.tiers[0].rewards = Array.from({ length: 150_000 }, (_, i) => ({ id: String(100_000 + i), name: `R${i}`, price: 1, exchangeType: "stamps" }));
    const run = await importShop(shop);
    expect(run.code).toBe(0);
    expect(run.out.match(/^ {2}rewards\[\d+\]\.tierId = 1: /gm)).toHaveLength(150_000);
  });

  it("a customer holding 20,000 codes stops the import once they are read: exit 1, nothing written", async () => {
    const codes = Array.from({ length: 20_000 }, (_, i) => ({ id: String(i + 1), name: `Gift ${i}`, code: `LOYAL-${i}`, used: true, createdAt: "2026-10-01T09:00:00+00:00" }));
    const run = await importShop({ program: await program(), customers: [{ record: ada, activities: [], codes }], hidden: [] });
    expect(run.code).toBe(1);
    expect(run.err).toBe("loyalty-sim import: customer 81 holds 20000 reward codes, more than the 1000 a customer may hold in a fixture (docs/limits.md): nothing was written; import fewer customers, with --customers N\n");
    expect(run.requests).toBe(8);
  });

  it("a chain of merges through 200,000 listed customers that comes back round: stopped once the list is read", async () => {
    const n = 200_000;
    const customers = Array.from({ length: n }, (_, i) => ({ record: { ...ada, id: String(1_000_000 + i), mergedIntoCustomerId: String(1_000_000 + ((i + 1) % n)) }, activities: [], codes: [] }));
    const run = await importShop({ program: await program(), customers, hidden: [] }, ["--customers", "all"]);
    expect(run.code).toBe(1);
    expect(run.err).toBe("loyalty-sim import: customer 1000000 was merged into customer 1000001, who was merged into ..., who was merged into customer 1199999, who was merged back into customer 1000000: the source's merges go round; nothing was written\n");
    expect(run.requests).toBe(5 + n / 1000);
    // Seconds when linear (6 s on 2 busy cores); it took 72 s when each step searched the chain.
  });

  it("a customer id of 100,000 digits stops the import once listed: exit 1, before its history is asked for", async () => {
    const run = await importShop({ program: await program(), customers: [{ record: { ...ada, id: "9".repeat(100_000) }, activities: [], codes: [] }], hidden: [] });
    expect(run.code).toBe(1);
    expect(run.err).toBe("loyalty-sim import: the source lists a customer id of 100000 digits; a fixture holds ids of 1 to 20 digits, so nothing was written\n");
    expect(run.requests).toBe(6);
  });
});
