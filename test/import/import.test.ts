/**
 * `loyalty-sim import` from a simulator standing in for production (issue 30, Done when): the
 * file loads; the imported simulator answers the program as the source does and holds each
 * customer with the source's balance, cards, tier, state, activities and codes; no marked
 * personal value or code is in the file; one salt gives the same file twice.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixedClock } from "../../src/engine/clock.js";
import { runImport, type ImportOptions } from "../../src/import/index.js";
import { OPENING_LABEL } from "../../src/import/customers.js";
import { createSimulator } from "../../src/index.js";
import { dir, MARKED, startSource } from "../support/import.js";
import { NOW } from "../support/sim.js";

type Json = Record<string, any>;
let outs = 0;

async function importFrom(source: ReturnType<typeof startSource>, options: Partial<ImportOptions> = {}) {
  const out = join(dir, `imported-${outs++}.json`);
  const result = await runImport({ ...source.credentials, out, customers: "all", salt: "a salt", ...options }, source.deps);
  return { result, out, text: readFileSync(out, "utf8") };
}

/** The imported file served, on the source's instant. */
function serve(out: string) {
  const sim = createSimulator({ fixtures: out, customers: 0, logLevel: "silent", newClock: () => fixedClock(NOW) });
  return async (path: string) => {
    const res = await sim.fetch(`${sim.baseUrl}${path}`, { headers: { "X-Api-Key": sim.apiKey, "X-Api-Secret": sim.apiSecret } });
    expect(res.status).toBe(200);
    return (await res.json()) as Json;
  };
}

const source = startSource();
const sourceIds: string[] = (await source.get("/customers?limit=1000")).data.map((c: Json) => c.id);

describe("issue 30: loyalty-sim import", () => {
  it("writes a fixture whose program answers as the source's: /shop, /tiers, /earn-rules, /rewards, /beacons (apart from timestamps)", async () => {
    const { out, result } = await importFrom(source);
    expect(result.kind).toBe("written");
    const imported = serve(out);
    for (const path of ["/shop", "/tiers", "/earn-rules", "/rewards", "/beacons"]) {
      const [a, b] = [await source.get(path), await imported(path)];
      expect(b.data, path).toEqual(a.data);
    }
  });

  it("holds every customer with the source's balance, cards, tier, state, merge, expiry, activity count and codes", async () => {
    const { out } = await importFrom(source);
    const imported = serve(out);
    expect((await imported("/customers?limit=1000")).data.map((c: Json) => c.id)).toEqual(sourceIds);
    expect(sourceIds).toHaveLength(24);
    const kept = ["id", "stampBalance", "cards", "stampsToNextReward", "stampsExpireAt", "vipTierId", "vipTierName", "state", "mergedIntoCustomerId", "nextReward"];
    const pick = (c: Json) => Object.fromEntries(kept.filter((k) => k in c).map((k) => [k, c[k]]));
    for (const id of sourceIds) {
      const [a, b] = [(await source.get(`/customers/${id}`)).data, (await imported(`/customers/${id}`)).data];
      expect(pick(b), id).toEqual(pick(a));
      const history = async (get: typeof imported) => {
        const page = await get(`/customers/${id}/activities?limit=1000&hasCount=true`);
        return { count: page.meta.pagination.count, entries: page.data.map((x: Json) => [x.stampChange, x.createdAt]) };
      };
      expect(await history(imported), id).toEqual(await history(source.get));
      const codes = async (get: typeof imported) => (await get(`/customers/${id}/reward-codes`)).data.map((c: Json) => [c.name, c.used, c.createdAt]);
      expect(await codes(imported), id).toEqual(await codes(source.get));
    }
  });

  it("leaves no marked name, email, phone number or code in the file, and no credential; birthdays are other days", async () => {
    const { text } = await importFrom(source);
    expect(text).not.toMatch(/marked/i);
    for (const phone of MARKED.phones) expect(text).not.toContain(phone);
    const codes = [];
    for (const id of sourceIds) codes.push(...(await source.get(`/customers/${id}/reward-codes`)).data.map((c: Json) => c.code as string));
    expect(codes).toEqual(expect.arrayContaining(MARKED.codes));
    for (const code of codes) expect(text).not.toContain(code);
    for (const secret of [source.credentials.apiKey, source.credentials.apiSecret]) expect(text).not.toContain(secret);
    const file = JSON.parse(text) as Json;
    for (const c of file.customers as Json[]) {
      const real = (await source.get(`/customers/${c.id}`)).data;
      expect(c.dateOfBirth, c.id).not.toBe(real.dateOfBirth ?? "never");
    }
  });

  it("keeps formats: emails stay emails (one shared email stays shared, in any case), codes keep their shape, phone numbers their pattern", async () => {
    const file = JSON.parse((await importFrom(source)).text) as Json;
    const byId = (id: string): Json => (file.customers as Json[]).find((c) => c.id === id)!;
    const [ada, ben, cy, dee] = [byId("7000000000001"), byId("7000000000002"), byId("7000000000003"), byId("7000000000004")];
    expect(ben.email).toBe(ada.email);
    expect(cy.email).not.toBe(ada.email);
    for (const c of file.customers as Json[]) {
      expect(c.email).toMatch(/^[a-z]+\.[a-z]+\d*@example\.(com|net|org)$/);
      if (c.dateOfBirth !== undefined) expect(c.dateOfBirth).toMatch(/^\d{2}-\d{2}$/);
      for (const code of c.rewardCodes) expect(code.code).toMatch(/^LOYAL-[A-Z0-9]{6}$/);
    }
    expect(dee.activities.map((a: Json) => a.label)).toEqual([
      expect.stringMatching(/^Gift from [A-Z][a-z]+ [A-Z][A-Za-z' -]+ \([a-z]+\.[a-z]+\d*@example\.(com|net|org)\)$/),
      expect.stringMatching(/^Call back on \(\d{3}\) \d{3}-\d{4}$/),
      "Redeemed Free cookie at the counter",
    ]);
    expect(dee.activities[0].label).toContain(`${ada.firstName} ${ada.lastName}`);
    expect(dee.activities[0].label).toContain(ada.email);
  });

  it("gives the same file for the same salt, and other fakes for another salt", async () => {
    const [first, second, other] = [await importFrom(source), await importFrom(source), await importFrom(source, { salt: "another salt" })];
    expect(second.text).toBe(first.text);
    expect(other.text).not.toBe(first.text);
    const emails = (text: string) => (JSON.parse(text).customers as Json[]).map((c) => c.email);
    expect(emails(other.text).filter((e, i) => e === emails(first.text)[i])).toEqual([]);
  });

  it("cuts each history to the newest --activities, after one opening-balance entry: balance = the ledger's sum", async () => {
    const { out, text } = await importFrom(source, { activities: "5" });
    const ada = (JSON.parse(text).customers as Json[]).find((c) => c.id === "7000000000001")!;
    expect(ada.activities.map((a: Json) => [a.label, a.stampChange, a.createdAt])).toEqual([
      [OPENING_LABEL, 13, "2026-10-04T09:00:00+00:00"],
      ["Redeemed Free coffee of your choice", -10, "2026-10-04T09:00:00+00:00"],
      ["Place an order", 9, "2026-10-05T09:00:00+00:00"],
      [expect.stringMatching(/^Sorry [A-Z][a-z]+, phone \+\d{2} \d{4} \d{6}$/), 5, "2026-10-06T09:00:00+00:00"],
      ["Place an order", 10, "2026-10-07T09:00:00+00:00"],
      ["Redeemed Free extra shot or syrup", -5, "2026-10-08T09:00:00+00:00"],
    ]);
    const imported = serve(out);
    expect((await imported("/customers/7000000000001")).data.stampBalance).toBe(22);
    expect((await imported("/customers/7000000000001/activities?hasCount=true")).meta.pagination.count).toBe(6);
  });

  it("reads --customers N, oldest first, and each customer one of them was merged into", async () => {
    const { text, result } = await importFrom(source, { customers: "3" });
    expect((JSON.parse(text).customers as Json[]).map((c) => c.id)).toEqual(sourceIds.slice(0, 3));
    expect(result).toMatchObject({ kind: "written", customers: 3, mergeTargets: 0 });
    // Cy, listed first here, was merged into Ada: Ada comes along, so the reference holds.
    const cyFirst = startSource({ customers: 0, change: (file) => file.customers.unshift(...file.customers.splice(2, 1)) });
    const merged = await importFrom(cyFirst, { customers: "1" });
    expect((JSON.parse(merged.text).customers as Json[]).map((c) => [c.id, c.mergedIntoCustomerId])).toEqual([
      ["7000000000003", "7000000000001"],
      ["7000000000001", undefined],
    ]);
    expect(merged.result).toMatchObject({ kind: "written", customers: 2, mergeTargets: 1 });
    const none = await importFrom(source, { customers: "0" });
    expect(JSON.parse(none.text).customers).toEqual([]);
  });
});
