/**
 * Issue 26, case 3. Was: the text of a scenario and its counts were bounded, the number of JSON
 * values it held was not. A 4 MiB `respond.body` of `[{},{},...]` holds 1.4 M objects (about 100 MB
 * of heap); the 46th such `POST /__sim/scenarios` killed the process, and each add blocked every
 * request for 1 to 12 s (the body parsed whole, then walked for its depth with a map of every
 * object it held). Now a scenario holds at most 100,000 JSON values, counted on its text before it
 * is parsed (and on the value, for YAML and files), and the scenarios of all shops hold at most
 * `--max-scenario-bytes` (their JSON text plus 64 bytes a value).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HELP, parseCli } from "../../src/cli/args.js";
import { optionsFromEnv, parseConfig } from "../../src/config.js";
import { createSimulator, type InProcessSimulator } from "../../src/simulator/in-process.js";
import { loadScenarioFile } from "../../src/scenarios/load.js";
import { scenarioSchema } from "../../src/scenarios/schema.js";

/** The documented limit (docs/limits.md, One scenario). */
const MAX_VALUES = 100_000;
const TOO_MANY = `holds more than ${MAX_VALUES} JSON values (objects, arrays, strings, numbers, booleans and nulls), the limit for one scenario: make its bodies smaller`;
const json = { "Content-Type": "application/json" };
const yaml = { "Content-Type": "application/yaml" };

async function post(sim: InProcessSimulator, body: string, headers: Record<string, string> = json) {
  const res = await sim.fetch("/__sim/scenarios", { method: "POST", headers, body });
  return { status: res.status, body: (await res.json()) as any };
}

/** The names of the shop's scenarios (the default shop's without `apiKey`). */
async function names(sim: InProcessSimulator, apiKey?: string): Promise<string[]> {
  const res = await sim.fetch("/__sim/scenarios", { headers: apiKey === undefined ? {} : { "X-Api-Key": apiKey } });
  return ((await res.json()) as { scenarios: { name: string }[] }).scenarios.map((s) => s.name);
}

/**
 * A scenario of one rule answering `items` zeros: the scenario itself is 7 values (the object,
 * its name, the rules, the rule, its respond, the status and the body), so it holds `items + 7`.
 */
const zeros = (items: number) => `{"name":"many","rules":[{"respond":{"status":200,"body":[${Array(items).fill("0").join(",")}]}}]}`;

describe("issue 26, case 3: scenario bodies can take the heap", () => {
  it("a 4 MiB respond.body of 1.4 M empty objects is a 422 naming the limit, and adds nothing", async () => {
    const sim = createSimulator({ customers: 0 });
    const items = Math.floor((4 * 1024 * 1024 - 100) / 3);
    const res = await post(sim, `{"name":"heap","rules":[{"respond":{"status":200,"body":[${Array(items).fill("{}").join(",")}]}}]}`);
    expect(res.status).toBe(422);
    expect(res.body.error).toStrictEqual({
      message: "Scenario holds too many JSON values",
      code: "VALIDATION_ERROR",
      statusCode: 422,
      details: [{ in: "body", path: "(root)", message: TOO_MANY }],
    });
    expect(await names(sim)).toEqual([]);
  });

  it(`exactly ${MAX_VALUES} values are added; one more is refused, as JSON and as YAML`, async () => {
    const sim = createSimulator({ customers: 0 });
    expect((await post(sim, zeros(MAX_VALUES - 7 + 1))).body.error.details).toEqual([{ in: "body", path: "(root)", message: TOO_MANY }]);
    // YAML: the scenario is read, then counted (a list of aliases holds its anchor's values each time).
    const aliases = `name: many\nzeros: &z [${Array(2100).fill("0").join(",")}]\nrules:\n  - respond: { status: 200, body: [${Array(50).fill("*z").join(",")}] }\n`;
    // The schema would refuse `zeros` too, but the count comes first: 50 * 2101 values in the body alone.
    expect((await post(sim, aliases, yaml)).body.error.details).toEqual([{ in: "body", path: "(root)", message: TOO_MANY }]);
    expect(await names(sim)).toEqual([]);
    const added = await post(sim, zeros(MAX_VALUES - 7));
    expect([added.status, added.body.rules[0].respond.body.length]).toEqual([201, MAX_VALUES - 7]);
  });

  it("the schema counts each body as it checks its depth, naming the field", () => {
    const result = scenarioSchema.safeParse({ name: "many", rules: [{ match: { body: { a: Array(MAX_VALUES).fill(0) } }, respond: { status: 200 } }] });
    expect(result.success ? [] : result.error.issues.map((i) => [i.path.join("."), i.message])).toEqual([["rules.0.match.body", TOO_MANY]]);
  });

  it("scenario files at start follow the same bounds: the file and the field are named", () => {
    const dir = mkdtempSync(join(tmpdir(), "loyalty-sim-"));
    const many = join(dir, "many.json");
    writeFileSync(many, zeros(MAX_VALUES - 7 + 1));
    expect(() => loadScenarioFile(many)).toThrow(`Scenario ${many} is not valid:\n  - (root): ${TOO_MANY}\n`);
    const large = join(dir, "large.json");
    writeFileSync(large, JSON.stringify({ name: "large", rules: [{ respond: { status: 200, body: "x".repeat(4 * 1024 * 1024) } }] }));
    expect(() => loadScenarioFile(large)).toThrow(`Scenario ${large} is not valid:\n  - (file): is 4194367 bytes, over the 4 MiB limit for a scenario\n`);
    const largeYaml = join(dir, "large.yaml");
    writeFileSync(largeYaml, `name: large\nrules:\n  - respond: { status: 200, body: "${"x".repeat(300 * 1024)}" }\n`);
    expect(() => loadScenarioFile(largeYaml)).toThrow(`Scenario ${largeYaml} is not valid:\n  - (file): is 307258 bytes, over the 256 KiB limit for a YAML scenario (as JSON, a scenario may take 4 MiB)\n`);
  });

  describe("--max-scenario-bytes: what the scenarios of all shops hold", () => {
    /**
     * Kept as `{"name":"a","rules":[{"match":{},"respond":{"status":200,"body":"x...x"}}]}`:
     * 1070 bytes of JSON text and 8 values of 64 bytes, 1582 bytes in all.
     */
    const rule = { respond: { status: 200, body: "x".repeat(1000) } };
    const scenario = (name: string) => JSON.stringify({ name, rules: [rule] });
    const overLimit = (total: number) =>
      `The scenario (1582 bytes: its JSON text, plus 64 for each JSON value) would make the scenarios of all shops hold ${total} bytes, over the limit of 4000 (raise it with --max-scenario-bytes or LOYALTY_SIM_MAX_SCENARIO_BYTES)`;

    it("an add past it is a 422 naming the limit; a replaced scenario counts once, and removing one frees its bytes", async () => {
      const sim = createSimulator({ customers: 0, maxScenarioBytes: 4000 });
      expect((await post(sim, scenario("a"))).status).toBe(201);
      expect((await post(sim, scenario("b"))).status).toBe(201);
      expect((await post(sim, scenario("a"))).status).toBe(201);
      const refused = await post(sim, scenario("c"));
      expect([refused.status, refused.body.error]).toEqual([422, { message: overLimit(4746), code: "VALIDATION_ERROR", statusCode: 422, details: [{ in: "body", path: "(root)", message: overLimit(4746) }] }]);
      // Over all shops: another shop's add is refused as well.
      const other = await sim.control.createShop({ customers: 0 });
      expect((await post(sim, scenario("c"), { ...json, "X-Api-Key": other.apiKey })).body.error.message).toBe(overLimit(4746));
      expect([await names(sim), await names(sim, other.apiKey)]).toEqual([["a", "b"], []]);
      await sim.control.removeScenario("b");
      expect((await post(sim, scenario("c"), { ...json, "X-Api-Key": other.apiKey })).status).toBe(201);
      // A shop's reset (and deletion) frees what its scenarios held.
      expect((await sim.fetch("/__sim/reset", { method: "POST", headers: { "X-Api-Key": other.apiKey } })).status).toBe(200);
      expect((await post(sim, scenario("c"))).status).toBe(201);
      expect((await post(sim, scenario("d"))).body.error.message).toBe(overLimit(4746));
    });

    it("is an option of the one config schema, as a flag and a variable, 64 MiB by default", () => {
      expect(parseConfig({}).maxScenarioBytes).toBe(64 * 1024 * 1024);
      const command = parseCli(["--max-scenario-bytes", "5000"], {});
      expect(command.kind === "run" && command.config.maxScenarioBytes).toBe(5000);
      expect(parseConfig(optionsFromEnv({ LOYALTY_SIM_MAX_SCENARIO_BYTES: "7000" })).maxScenarioBytes).toBe(7000);
      expect(HELP).toContain("--max-scenario-bytes N");
    });

    it("scenarios loaded at start count once, for every shop", async () => {
      const dir = mkdtempSync(join(tmpdir(), "loyalty-sim-"));
      const file = join(dir, "start.json");
      writeFileSync(file, scenario("start"));
      const sim = createSimulator({ customers: 0, maxScenarioBytes: 4000, scenario: [file] });
      expect((await post(sim, scenario("a"))).status).toBe(201);
      // 1586 bytes for the start-up one (its name is 4 characters longer), 1582 for each of the others.
      expect((await post(sim, scenario("b"))).body.error.message).toBe(overLimit(4750));
    });
  });
});
