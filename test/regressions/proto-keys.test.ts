/**
 * Issue 17, case 9. Was: a `__proto__` key in a scenario's `match.body`, `match.headers` or
 * `match.query` was dropped when the scenario was read (zod rebuilds records without it), so the
 * rule matched every request; one nested in `match.body` matched any object there (the matcher
 * read the inherited `__proto__`). Such keys are now refused with 422, from JSON, YAML and files;
 * other names that objects inherit (`constructor`, `toString`) are plain data.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadScenarioFile } from "../../src/scenarios/load.js";
import { createTestSim, type TestSim } from "../support/sim.js";

const PROTO = "__proto__ cannot be a key here: it would be dropped, and the rule would match more requests (or send fewer headers) than it says; remove it";

/** Rules written as text, so that `__proto__` is a key (an object literal would set the prototype). */
const CASES: [where: string, rule: string, yamlRule: string, path: string][] = [
  ["match.body", '{"match":{"body":{"__proto__":{"x":1}}},"respond":{"status":418}}', "{ match: { body: { __proto__: { x: 1 } } }, respond: { status: 418 } }", "rules[0].match.body.__proto__"],
  ["match.body, nested", '{"match":{"body":{"a":[{"__proto__":{}}]}},"respond":{"status":418}}', "{ match: { body: { a: [ { __proto__: {} } ] } }, respond: { status: 418 } }", "rules[0].match.body.a[0].__proto__"],
  ["match.headers", '{"match":{"headers":{"__proto__":"x"}},"respond":{"status":418}}', '{ match: { headers: { __proto__: "x" } }, respond: { status: 418 } }', "rules[0].match.headers.__proto__"],
  ["match.query", '{"match":{"query":{"__proto__":"x"}},"respond":{"status":418}}', '{ match: { query: { __proto__: "x" } }, respond: { status: 418 } }', "rules[0].match.query.__proto__"],
  ["respond.headers", '{"respond":{"status":200,"headers":{"__proto__":"x"}}}', '{ respond: { status: 200, headers: { __proto__: "x" } } }', "rules[0].respond.headers.__proto__"],
];

/** A request each rule above would wrongly hit, had its `__proto__` key been dropped. */
async function unaffected(sim: TestSim) {
  const id = sim.activeCustomer();
  const award = await sim.call("POST", `/customers/${id}/stamps/award`, { body: { stamps: 1, a: [{}] } });
  expect([award.status, (await sim.call("GET", "/shop?x=1")).status]).toEqual([200, 200]);
}

describe("__proto__ keys are refused, never dropped", () => {
  it.each(CASES)("%s, as JSON and as YAML: 422 naming the key; nothing added", async (_, rule, yamlRule, path) => {
    const sim = createTestSim({ customers: 2 });
    const asJson = await sim.call("POST", "/__sim/scenarios", { rawBody: `{"name":"p","rules":[${rule}]}`, headers: { "Content-Type": "application/json" } });
    const asYaml = await sim.call("POST", "/__sim/scenarios", { rawBody: `name: p\nrules:\n  - ${yamlRule}\n`, headers: { "Content-Type": "application/yaml" } });
    const refusal = [422, [{ in: "body", path, message: PROTO }]];
    expect([[asJson.status, asJson.body.error.details], [asYaml.status, asYaml.body.error.details]]).toEqual([refusal, refusal]);
    expect((await sim.call("GET", "/__sim/scenarios")).body.scenarios).toEqual([]);
    await unaffected(sim);
  });

  it.each(CASES)("%s, in a scenario file (--scenario): the start stops, naming the file and the key", (_, rule, yamlRule, path) => {
    const dir = mkdtempSync(join(tmpdir(), "loyalty-sim-"));
    const json = join(dir, "p.json");
    const yaml = join(dir, "p.yaml");
    writeFileSync(json, `{"name":"p","rules":[${rule}]}`);
    writeFileSync(yaml, `name: p\nrules:\n  - ${yamlRule}\n`);
    expect(() => loadScenarioFile(json)).toThrow(`Scenario ${json} is not valid:\n  - ${path}: ${PROTO}\n`);
    expect(() => loadScenarioFile(yaml)).toThrow(`Scenario ${yaml} is not valid:\n  - ${path}: ${PROTO}\n`);
  });
});

describe("names objects inherit are data", () => {
  it.each<[string, object, (sim: TestSim, id: string, withIt: boolean) => Promise<number>]>([
    ["match.body constructor", { body: { constructor: "x" } }, async (sim, id, withIt) =>
      (await sim.call("POST", `/customers/${id}/stamps/award`, { body: withIt ? { stamps: 1, constructor: "x" } : { stamps: 1 }, unchecked: true })).status],
    ["match.body toString", { body: { toString: {} } }, async (sim, id, withIt) =>
      (await sim.call("POST", `/customers/${id}/stamps/award`, { body: withIt ? { stamps: 1, toString: {} } : { stamps: 1 }, unchecked: true })).status],
    ["match.query constructor", { query: { constructor: "y" } }, async (sim, _, withIt) => (await sim.call("GET", withIt ? "/shop?constructor=y" : "/shop", { unchecked: true })).status],
    ["match.headers constructor", { headers: { constructor: "z" } }, async (sim, _, withIt) =>
      (await sim.call("GET", "/shop", { headers: withIt ? { constructor: "z" } : {}, unchecked: true })).status],
  ])("%s matches only a request that has it", async (_, match, send) => {
    const sim = createTestSim({ customers: 2 });
    expect((await sim.call("POST", "/__sim/scenarios", { body: { name: "d", rules: [{ match, respond: { status: 418 } }] } })).status).toBe(201);
    const id = sim.activeCustomer();
    expect([await send(sim, id, false), await send(sim, id, true)]).toEqual([200, 418]);
  });
});
