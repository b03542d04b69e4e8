/**
 * The check of a `--data` file at load (persistence/state-schema.ts): a file the server wrote passes;
 * each kind of damage is named by the path of the field at fault.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config.js";
import { buildSimulator } from "../../src/simulator/simulator.js";
import { type DataFileError, readDataFile } from "../../src/persistence/data-file.js";
import { stateProblems } from "../../src/persistence/state-schema.js";

type Json = any;
const dir = mkdtempSync(join(tmpdir(), "loyalty-sim-schema-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A file as the server writes it. */
const written: Json = await (async () => {
  const file = join(dir, "state.json");
  const sim = buildSimulator(parseConfig({ customers: 12, seed: 5, data: file }));
  await sim.dataFile!.flush();
  return JSON.parse(readFileSync(file, "utf8"));
})();

const problemsAfter = (edit: (data: Json, state: Json) => void) => {
  const state = structuredClone(written);
  edit(state.shops[0].data, state);
  return stateProblems(state);
};

describe("stateProblems", () => {
  it("finds none in a file the server wrote", () => {
    expect(written.shops[0].data.codes.length).toBeGreaterThan(0);
    expect(stateProblems(written)).toEqual([]);
  });

  it.each<[string, (data: Json, state: Json) => void, string]>([
    ["an unknown key", (d) => (d.customers[1].nickname = "x"), "shops[0].data.customers[1].nickname: unknown key (not in the format)"],
    ["a customer id that is not digits", (d) => (d.customers[0].id = "abc"), "shops[0].data.customers[0].id: must be 1 to 20 digits"],
    ["a negative balance", (d) => (d.customers[0].balance = -1), "shops[0].data.customers[0].balance: Too small: expected number to be >=0"],
    ["an activity out of order", (d) => (d.activities[4].id = 99), "shops[0].data.activities[4].id: must be 5: activity ids run 1, 2, 3... in file order"],
    ["a wrong nextActivityId", (d) => (d.nextActivityId = 3), `shops[0].data.nextActivityId: must be ${written.shops[0].data.activities.length + 1}, one past the last activity id`],
    ["an activity of no customer", (d) => (d.activities[0].customerId = "42"), "shops[0].data.activities[0].customerId: no customer has id 42"],
    ["an unknown earn rule", (d) => (d.activities.find((a: Json) => a.earnRuleId !== undefined).earnRuleId = 999), "no earn rule has id 999"],
    ["a code of no customer", (d) => (d.codes[0].customerId = "42"), "shops[0].data.codes[0].customerId: no customer has id 42"],
    ["a code of no reward", (d) => (d.codes[0].rewardId = 999), "shops[0].data.codes[0].rewardId: no reward has id 999"],
    ["a duplicate code id", (d) => d.codes.push({ ...d.codes[0] }), `shops[0].data.codes[${written.shops[0].data.codes.length}].id: duplicate code id ${written.shops[0].data.codes[0].id}`],
    ["a code id past nextCodeId", (d) => (d.nextCodeId = d.codes[0].id), `shops[0].data.codes[0].id: must be below nextCodeId (${written.shops[0].data.codes[0].id})`],
    ["an unknown tier", (d) => (d.customers[0].vipTierId = 77), "shops[0].data.customers[0].vipTierId: no tier has id 77"],
    ["a merge into no one", (d) => (d.customers[0].mergedIntoCustomerId = "42"), "shops[0].data.customers[0].mergedIntoCustomerId: no customer has id 42"],
    ["data of another shop", (d) => (d.id = "2"), "shops[0].data.id: must equal spec.id (1)"],
    ["a program that breaks the fixture rules", (d) => (d.program.tiers[1].rewardIds = [555]), "shops[0].data.program.tiers[1].rewardIds[0]: no reward has id 555"],
    ["a reference date before 1970", (_, s) => (s.shops[0].spec.referenceDate = -5), "shops[0].spec.referenceDate: must be an instant (epoch ms) from 1970-01-01T00:00:00+00:00 to 9999-12-31T23:59:59+00:00"],
  ])("names %s", (_, edit, line) => {
    const problems = problemsAfter(edit);
    expect(problems.some((p) => p === line || p.endsWith(`: ${line}`))).toBe(true);
  });

  it("a data file error lists the first 20 problems", () => {
    const file = join(dir, "broken.json");
    const state = structuredClone(written);
    state.shops[0].data.activities.forEach((a: Json) => (a.createdAt = -1));
    writeFileSync(file, JSON.stringify(state));
    const error = (() => {
      try {
        readDataFile(file);
      } catch (e) {
        return e as DataFileError;
      }
      throw new Error("expected a DataFileError");
    })();
    expect(error.problems).toHaveLength(21);
    expect(error.problems[0]).toBe("shops[0].data.activities[0].createdAt: must be an instant (epoch ms) from 1970-01-01T00:00:00+00:00 to 9999-12-31T23:59:59+00:00");
    expect(error.problems[20]).toBe("... and more (the first 20 are listed)");
  });
});
