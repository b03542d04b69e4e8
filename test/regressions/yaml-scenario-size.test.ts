/**
 * Issue 17, follow-up. Was: a YAML scenario body up to the 4 MiB scenario limit was parsed
 * whole, and the YAML reader takes about 3 ms a KiB: one request held every other request for
 * seconds. A YAML body is now at most 256 KiB (413 before it is parsed); JSON keeps 4 MiB.
 */
import { describe, expect, it } from "vitest";
import { createTestSim, NOW_ISO } from "../support/sim.js";

const KIB = 1024;

/** A scenario of one rule whose answer carries a string of `bytes` characters, as YAML and as JSON. */
const withPadding = (bytes: number) => {
  const pad = "x".repeat(bytes);
  return {
    yaml: `name: big\nrules:\n  - match: { operation: getShop }\n    respond: { status: 200, body: { pad: "${pad}" } }\n`,
    json: JSON.stringify({ name: "big", rules: [{ match: { operation: "getShop" }, respond: { status: 200, body: { pad } } }] }),
  };
};

describe("YAML scenario bodies", () => {
  it("over 256 KiB is a 413 naming the limit and JSON; nothing is added", async () => {
    const sim = createTestSim({ customers: 0 });
    const { yaml } = withPadding(300 * KIB);
    const res = await sim.call("POST", "/__sim/scenarios", { rawBody: yaml, headers: { "Content-Type": "application/yaml" } });
    expect(res.status).toBe(413);
    expect(res.body).toStrictEqual({
      success: false,
      error: { message: "A YAML scenario is limited to 256 KiB; send a larger one as JSON (up to 4 MiB)", code: "PAYLOAD_TOO_LARGE", statusCode: 413 },
      timestamp: NOW_ISO,
    });
    const listed = await sim.call("GET", "/__sim/scenarios");
    expect([listed.status, listed.body.scenarios]).toEqual([200, []]);
  });

  it("the same scenario as JSON is added, and a YAML one just under 256 KiB too", async () => {
    const sim = createTestSim({ customers: 0 });
    const asJson = await sim.call("POST", "/__sim/scenarios", { rawBody: withPadding(300 * KIB).json, headers: { "Content-Type": "application/json" } });
    expect(asJson.status).toBe(201);
    const small = withPadding(250 * KIB).yaml;
    expect(Buffer.byteLength(small)).toBeLessThanOrEqual(256 * KIB);
    const asYaml = await sim.call("POST", "/__sim/scenarios", { rawBody: small, headers: { "Content-Type": "application/yaml" } });
    expect(asYaml.status).toBe(201);
    const listed = await sim.call("GET", "/__sim/scenarios");
    expect(listed.body.scenarios.map((s: { name: string }) => s.name)).toEqual(["big"]);
  });
});
