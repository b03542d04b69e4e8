/**
 * For the tests of `loyalty-sim import`: a simulator standing in for production, started from the
 * bundled program with customers whose personal values are marked (names, emails, phone numbers in
 * labels, birthdays, codes), so a test can look for each in what the import wrote; its clock is the
 * test's own, moved by the importer's waits, so quotas and Retry-After cost no time.
 * @module
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { SimClock } from "../../src/engine/clock.js";
import { createSimulator } from "../../src/index.js";
import { defaultFixturePath } from "../../src/program/load.js";
import { NOW } from "./sim.js";

type Json = Record<string, any>;

export const dir = mkdtempSync(join(tmpdir(), "loyalty-sim-import-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const AT = (day: number, hour = 9) => `2026-10-${String(day).padStart(2, "0")}T${String(hour).padStart(2, "0")}:00:00+00:00`;

/** Every personal value the marked customers hold: none may be in an imported file (but with --keep-personal-data). */
export const MARKED = {
  names: ["Markedada", "Markedlovelace", "Markedben", "Markedokafor", "Markedcy", "Markeddee"],
  emails: ["marked.ada@personal.test", "MARKED.ADA@personal.test", "marked.ben@personal.test", "marked.dee@personal.test"],
  phones: ["+44 7700 900123", "(555) 867-5309"],
  codes: ["LOYAL-MK7Q2X", "LOYAL-MK9Z1A", "LOYAL-MKB3N4", "LOYAL-MKD5P6"],
};

/**
 * Ada: a long history (8 entries, so `--activities 5` cuts it), a Bronze member, one unused code and
 * one used. Ben: removed, shares Ada's email (in another case), a used code. Cy: merged into Ada.
 * Dee: labels naming Ada, a phone number and an email, and a code of a POS-only reward.
 */
export function markedCustomers(): Json[] {
  return [
    {
      id: "7000000000001",
      firstName: "Markedada",
      lastName: "Markedlovelace",
      email: "marked.ada@personal.test",
      dateOfBirth: "10-12",
      vipTierId: 1,
      stampBalance: 22,
      activities: [
        { label: "Join the program", stampChange: 3, createdAt: AT(1), earnRuleId: 205 },
        { label: "Place an order", stampChange: 4, createdAt: AT(2) },
        { label: "Place an order", stampChange: 6, createdAt: AT(3) },
        { label: "Redeemed Free coffee of your choice", stampChange: -10, createdAt: AT(4) },
        { label: "Place an order", stampChange: 9, createdAt: AT(5) },
        { label: "Sorry Markedada, phone +44 7700 900123", stampChange: 5, createdAt: AT(6) },
        { label: "Place an order", stampChange: 10, createdAt: AT(7) },
        { label: "Redeemed Free extra shot or syrup", stampChange: -5, createdAt: AT(8) },
      ],
      rewardCodes: [
        { code: "LOYAL-MK7Q2X", rewardId: 102, used: true, createdAt: AT(4) },
        { code: "LOYAL-MK9Z1A", rewardId: 101, createdAt: AT(8) },
      ],
    },
    {
      id: "7000000000002",
      firstName: "Markedben",
      lastName: "Markedokafor",
      email: "MARKED.ADA@personal.test",
      dateOfBirth: "29-02",
      state: "removed",
      vipTierId: 3,
      stampBalance: 0,
      activities: [
        { label: "Place an order", stampChange: 10, createdAt: AT(9) },
        { label: "Redeemed Free pastry", stampChange: -10, createdAt: AT(10) },
      ],
      rewardCodes: [{ code: "LOYAL-MKB3N4", rewardId: 103, used: true, createdAt: AT(10) }],
    },
    { id: "7000000000003", firstName: "Markedcy", lastName: "Markedlovelace", email: "marked.ben@personal.test", mergedIntoCustomerId: "7000000000001", stampBalance: 0 },
    {
      id: "7000000000004",
      firstName: "Markeddee",
      lastName: "Markedokafor",
      email: "marked.dee@personal.test",
      dateOfBirth: "01-05",
      stampBalance: 7,
      activities: [
        { label: "Gift from Markedada Markedlovelace (marked.ada@personal.test)", stampChange: 15, createdAt: AT(11) },
        { label: "Call back on (555) 867-5309", stampChange: 0, createdAt: AT(12) },
        { label: "Redeemed Free cookie at the counter", stampChange: -8, createdAt: AT(13) },
      ],
      rewardCodes: [{ code: "LOYAL-MKD5P6", rewardId: 108, createdAt: AT(13) }],
    },
  ];
}

let files = 0;
/** Writes `file` as a fixture in the test folder: its path. */
export function writeFixture(file: Json): string {
  const path = join(dir, `source-${files++}.json`);
  writeFileSync(path, JSON.stringify(file));
  return path;
}

/** The bundled program with the marked customers, and `change` applied. */
export function sourceFixture(change: (file: Json) => void = () => {}): Json {
  const file = JSON.parse(readFileSync(defaultFixturePath(), "utf8")) as Json;
  file.customers = markedCustomers();
  change(file);
  return file;
}

/**
 * An in-process simulator standing in for production: the marked customers, then `customers`
 * generated ones. Its clock is `clock.now`, moved only by `clock.sleep` (the importer's waits).
 */
export function startSource(options: { customers?: number; change?: (file: Json) => void } = {}) {
  const clock = { now: NOW, sleeps: [] as number[] };
  const sim = createSimulator({
    fixtures: writeFixture(sourceFixture(options.change)),
    customers: options.customers ?? 20,
    seed: 1,
    logLevel: "silent",
    newClock: () => new SimClock(() => clock.now),
  });
  /** What the importer is given: the stand-in's fetch, counting answers by status, and the test's clock. */
  const statuses: number[] = [];
  const deps = {
    fetch: (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      const res = await sim.fetch(input, init);
      statuses.push(res.status);
      return res;
    }) as typeof fetch,
    now: () => clock.now,
    sleep: async (ms: number) => {
      clock.sleeps.push(ms);
      clock.now += ms;
    },
  };
  const get = async (path: string) => {
    const res = await sim.fetch(`${sim.baseUrl}${path}`, { headers: { "X-Api-Key": sim.apiKey, "X-Api-Secret": sim.apiSecret } });
    return (await res.json()) as Json;
  };
  return { sim, clock, deps, statuses, get, credentials: { from: sim.baseUrl, apiKey: sim.apiKey, apiSecret: sim.apiSecret } };
}
