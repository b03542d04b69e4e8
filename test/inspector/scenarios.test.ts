/** The inspector's Scenarios page through `app.request`: rules with counters, add from YAML, the 422 inline by path, delete, load a shipped example. */
import { describe, expect, it } from "vitest";
import { createTestSim } from "../support/sim.js";

type Sim = ReturnType<typeof createTestSim>;

const HX = { "HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded" };

async function post(sim: Sim, path: string, form: Record<string, string>, headers: Record<string, string> = HX) {
  const res = await sim.app.request(path, { method: "POST", headers, body: new URLSearchParams(form).toString() });
  return { status: res.status, text: await res.text() };
}

const YAML = "name: no-stamps\nrules:\n  - match:\n      operation: redeemReward\n    respond:\n      error: INSUFFICIENT_STAMPS\n    times: 2\n";

describe("Scenarios", () => {
  it("adds a scenario from YAML and lists its rule with hits, matches and remaining", async () => {
    const sim = createTestSim({ customers: 0 });
    const added = await post(sim, "/__sim/ui/scenarios", { yaml: YAML });
    expect(added.status).toBe(200);
    expect(added.text).not.toContain("<html");
    expect(added.text).toContain('<tr data-scenario="no-stamps">');
    await sim.call("POST", "/customers/1/redemptions", { body: { reward_product_id: 103 } });
    const page = await (await sim.app.request("/__sim/ui/scenarios")).text();
    expect(page).toContain('<div id="scenarios" data-reload="scenarios" data-src="/__sim/ui/scenarios/panel">');
    expect(page).toMatch(/<td><code>\{&quot;operation&quot;:&quot;redeemReward&quot;\}<\/code><\/td><td><code>\{&quot;error&quot;:&quot;INSUFFICIENT_STAMPS&quot;\}<\/code><\/td><td class="num">1<\/td><td class="num">1<\/td><td class="num">1<\/td>/);
  });

  it("shows the control API's 422 inline by field path and keeps the YAML in the textarea", async () => {
    const sim = createTestSim({ customers: 0 });
    const bad = "name: bad\nrules:\n  - match:\n      operation: noSuchOperation\n    respond:\n      error: INSUFFICIENT_STAMPS\n";
    const { status, text } = await post(sim, "/__sim/ui/scenarios", { yaml: bad });
    expect(status).toBe(200);
    expect(text).toContain('<div class="problem" role="alert"><strong>422</strong>');
    expect(text).toContain("<li><code>body rules[0].match.operation</code>: Invalid option");
    expect(text).toContain("operation: noSuchOperation");
    expect((await sim.call("GET", "/__sim/scenarios")).body.scenarios).toEqual([]);
  });

  it("deletes a scenario", async () => {
    const sim = createTestSim({ customers: 0 });
    await post(sim, "/__sim/ui/scenarios", { yaml: YAML });
    const { text } = await post(sim, "/__sim/ui/scenarios/no-stamps/delete", {});
    expect(text).toContain("No active scenario");
    expect((await sim.call("GET", "/__sim/scenarios")).body.scenarios).toEqual([]);
  });

  it("loads a shipped example in one click, and only a shipped one", async () => {
    const sim = createTestSim({ customers: 0 });
    const page = await (await sim.app.request("/__sim/ui/scenarios")).text();
    expect(page).toContain('hx-vals="{&quot;file&quot;:&quot;errors/insufficient-stamps.yaml&quot;}"');
    await post(sim, "/__sim/ui/scenarios/load", { file: "errors/insufficient-stamps.yaml" });
    expect((await sim.call("GET", "/__sim/scenarios")).body.scenarios.map((s: { name: string }) => s.name)).toEqual(["error-insufficient-stamps"]);
    const refused = await post(sim, "/__sim/ui/scenarios/load", { file: "../package.json" });
    expect(refused.text).toContain("<strong>404</strong> No shipped scenario ../package.json");
  });

  it("answers a plain form post (no htmx) with the whole page", async () => {
    const sim = createTestSim({ customers: 0 });
    const { status, text } = await post(sim, "/__sim/ui/scenarios", { yaml: YAML }, { "Content-Type": "application/x-www-form-urlencoded" });
    expect(status).toBe(200);
    expect(text).toContain("<h1>Scenarios</h1>");
    expect(text).toContain('<tr data-scenario="no-stamps">');
  });
});
