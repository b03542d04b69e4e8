/**
 * Issue 31: the why panel wrote a rule ruled out by a field as "mismatch on operation operation
 * must be ...": the field before the detail, and again as the detail's first word. Now the
 * detail alone names it, once.
 */
import { describe, expect, it } from "vitest";
import { parseScenario } from "../../src/scenarios/load.js";
import { createTestSim } from "../support/sim.js";

/** The page's text without tags, spaces folded. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

describe("issue 31: the why panel names a rule's mismatched field once", () => {
  it.each([
    [{ operation: "voidRewardCode" }, 'mismatch operation must be "voidRewardCode"; the request\'s is "getShop"'],
    [{ method: "POST" }, 'mismatch method must be "POST"; the request\'s is "GET"'],
    [{ headers: { "x-test": "1" } }, 'mismatch headers.x-test must be "1"; the request has nothing'],
  ])("%j", async (match, shown) => {
    const sim = createTestSim({ customers: 1, scenarios: [parseScenario({ name: "other", rules: [{ match, respond: { status: 503 } }] }, "test")] });
    expect((await sim.call("GET", "/shop")).status).toBe(200);
    const [entry] = (await sim.call("GET", "/__sim/requests?limit=1")).body.requests;
    const page = textOf(await (await sim.app.request(`/__sim/ui/requests/${entry.id}`)).text());
    expect(page).toContain(shown.replaceAll('"', "&quot;").replaceAll("'", "&#39;"));
    const rule = page.slice(page.indexOf("other #0"), page.indexOf("Rules as active now"));
    expect(rule).not.toMatch(/\b(\w+) \1\b/);
  });
});
