/**
 * Issue 17, case 6. Was: JSON nested a few thousand levels deep was taken everywhere and could not
 * be written out again (`JSON.stringify` overflows the stack): a scenario whose `match.body` was
 * 5,000 levels deep answered 500 but was added, and `GET /__sim/scenarios` answered 500 from then
 * on; an API request with a 7,000-deep body made `GET /__sim/requests` answer 500; a deep YAML
 * scenario overflowed the YAML reader's stack (seconds of work, and a 500 for a self-referencing
 * one on every listing). Bodies are now at most 64 levels deep where they are accepted, YAML is
 * measured before it is read, and the journal keeps a body too deep to parse as its text.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadScenarioFile } from "../../src/scenarios/load.js";
import { createTestSim, NOW_ISO } from "../support/sim.js";

/** The documented limit (docs/scenarios.md, Refused when added). */
const LIMIT = 64;
const TOO_DEEP = `nests deeper than ${LIMIT} levels, the limit for JSON bodies`;

/** An object `depth` levels deep: `{"a":{"a":...{"a":1}}}`. */
const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{"a":1}${"}".repeat(depth - 1)}`;
/** Arrays `depth` levels deep. */
const arrays = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

const json = { "Content-Type": "application/json" };
const yaml = { "Content-Type": "application/yaml" };

describe("API and control bodies", () => {
  it("a 7,000-deep API body is a 422, journaled as its text; GET /__sim/requests answers 200", async () => {
    const sim = createTestSim({ customers: 2 });
    const id = sim.activeCustomer();
    const deep = arrays(7000);
    const res = await sim.call("POST", `/customers/${id}/stamps/award`, { rawBody: deep, headers: json });
    expect(res.body).toStrictEqual({
      success: false,
      error: { message: "Request body is nested too deeply", code: "VALIDATION_ERROR", statusCode: 422, details: [{ in: "body", path: "(root)", message: TOO_DEEP }] },
      timestamp: NOW_ISO,
    });
    const journal = await sim.call("GET", "/__sim/requests");
    expect(journal.status).toBe(200);
    expect(journal.body.requests[0]).toMatchObject({ method: "POST", status: 422, requestBody: deep });
    expect(sim.bugs).toEqual([]);
  });

  it(`exactly ${LIMIT} levels are parsed (and journaled as JSON); ${LIMIT + 1} are refused for their depth`, async () => {
    const sim = createTestSim({ customers: 2 });
    const id = sim.activeCustomer();
    const atLimit = await sim.call("POST", `/customers/${id}/stamps/award`, { rawBody: arrays(LIMIT), headers: json });
    expect([atLimit.status, atLimit.body.error.message, atLimit.body.error.details]).toEqual([
      422,
      "Request validation failed",
      [{ in: "body", path: "(root)", message: "Invalid input: expected object, received array" }],
    ]);
    const over = await sim.call("POST", `/customers/${id}/stamps/award`, { rawBody: arrays(LIMIT + 1), headers: json });
    expect([over.status, over.body.error.details]).toEqual([422, [{ in: "body", path: "(root)", message: TOO_DEEP }]]);
    const [overEntry, atLimitEntry] = (await sim.call("GET", "/__sim/requests")).body.requests;
    expect([typeof overEntry.requestBody, JSON.stringify(atLimitEntry.requestBody)]).toEqual(["string", arrays(LIMIT)]);
  });

  it("a control body too deep is refused the same way, and changes nothing", async () => {
    const sim = createTestSim({ customers: 0 });
    const before = (await sim.call("GET", "/__sim/clock")).body;
    const res = await sim.call("POST", "/__sim/clock", { rawBody: `{"advanceSeconds":1,"x":${nested(7000)}}`, headers: json });
    expect([res.status, res.body.error.code, res.body.error.details]).toEqual([422, "VALIDATION_ERROR", [{ in: "body", path: "(root)", message: TOO_DEEP }]]);
    expect((await sim.call("GET", "/__sim/clock")).body).toEqual(before);
  });
});

describe("scenario bodies", () => {
  const scenario = (matchBody: string, respondBody = "null") =>
    `{"name":"deep","rules":[{"match":{"body":${matchBody}},"respond":{"status":200,"body":${respondBody}}}]}`;
  const asYaml = (matchBody: string, respondBody = "null") => `name: deep\nrules:\n  - match: { body: ${matchBody} }\n    respond: { status: 200, body: ${respondBody} }\n`;

  it.each([
    ["JSON", json, scenario],
    ["YAML", yaml, asYaml],
  ])("%s: match.body or respond.body 5,000 deep is a 422; nothing is added and GET /__sim/scenarios answers 200", async (_, headers, write) => {
    const sim = createTestSim({ customers: 0 });
    const deepMatch = await sim.call("POST", "/__sim/scenarios", { rawBody: write(nested(5000)), headers });
    const deepRespond = await sim.call("POST", "/__sim/scenarios", { rawBody: write("{}", arrays(5000)), headers });
    const issues = (res: { status: number; body: { error: { details: unknown } } }) => [res.status, res.body.error.details];
    if (headers === json) {
      expect(issues(deepMatch)).toEqual([422, [{ in: "body", path: "rules[0].match.body", message: TOO_DEEP }]]);
      expect(issues(deepRespond)).toEqual([422, [{ in: "body", path: "rules[0].respond.body", message: TOO_DEEP }]]);
    } else {
      // Too deep for the YAML reader itself: refused whole, before it builds anything.
      const whole = [422, [{ in: "body", path: "(root)", message: "nests deeper than 128 levels, the limit for YAML scenarios" }]];
      expect([issues(deepMatch), issues(deepRespond)]).toEqual([whole, whole]);
    }
    const listed = await sim.call("GET", "/__sim/scenarios");
    expect([listed.status, listed.body.scenarios]).toEqual([200, []]);
  });

  it.each([
    ["JSON", json, scenario],
    ["YAML", yaml, asYaml],
  ])(`%s: ${LIMIT} levels are taken, listed and answered; ${LIMIT + 1} are refused naming the field`, async (_, headers, write) => {
    const sim = createTestSim({ customers: 0 });
    const over = await sim.call("POST", "/__sim/scenarios", { rawBody: write(nested(LIMIT + 1)), headers });
    expect([over.status, over.body.error.details]).toEqual([422, [{ in: "body", path: "rules[0].match.body", message: TOO_DEEP }]]);
    const overRespond = await sim.call("POST", "/__sim/scenarios", { rawBody: write("{}", arrays(LIMIT + 1)), headers });
    expect([overRespond.status, overRespond.body.error.details]).toEqual([422, [{ in: "body", path: "rules[0].respond.body", message: TOO_DEEP }]]);
    const added = await sim.call("POST", "/__sim/scenarios", { rawBody: write(nested(LIMIT), arrays(LIMIT)), headers });
    expect(added.status).toBe(201);
    const hit = await sim.call("POST", "/customers/1/stamps/award", { rawBody: nested(LIMIT), headers: json, unchecked: true });
    expect([hit.status, JSON.stringify(hit.body)]).toEqual([200, arrays(LIMIT)]);
    const listed = await sim.call("GET", "/__sim/scenarios");
    expect([listed.status, JSON.stringify(listed.body.scenarios[0].rules[0].match.body)]).toEqual([200, nested(LIMIT)]);
    expect((await sim.call("GET", "/__sim/requests")).status).toBe(200);
  });

  it("a YAML body that contains itself (an alias of its own anchor) is too deep, not a 500 on every listing", async () => {
    const sim = createTestSim({ customers: 0 });
    const res = await sim.call("POST", "/__sim/scenarios", { rawBody: "name: loop\nrules:\n  - respond: { status: 200, body: &x [ *x ] }\n", headers: yaml });
    expect([res.status, res.body.error.details]).toEqual([422, [{ in: "body", path: "rules[0].respond.body", message: TOO_DEEP }]]);
    expect((await sim.call("GET", "/__sim/scenarios")).status).toBe(200);
  });

  it("a scenario file too deep stops the start with the file and the field named", () => {
    const dir = mkdtempSync(join(tmpdir(), "loyalty-sim-"));
    const file = join(dir, "deep.json");
    writeFileSync(file, scenario(nested(5000)));
    expect(() => loadScenarioFile(file)).toThrow(`Scenario ${file} is not valid:\n  - rules[0].match.body: ${TOO_DEEP}\n`);
    const yamlFile = join(dir, "deep.yaml");
    writeFileSync(yamlFile, asYaml(arrays(20_000)));
    expect(() => loadScenarioFile(yamlFile)).toThrow(`Scenario ${yamlFile} is not valid:\n  - (root): nests deeper than 128 levels, the limit for YAML scenarios\n`);
  });
});
