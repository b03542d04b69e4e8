/**
 * Issue 31: the X-Request-Id a response carried (`req_00000a`) and the journal id of its entry
 * (10) did not match, and nothing showed them side by side, so a request id from an app's log led
 * nowhere in the inspector. The header's format is the simulator's own (the spec and production's
 * documentation say nothing of it), and it counts every request (the control API's too), while
 * the journal numbers API requests as they end: they cannot be one number. The journal entry now
 * carries `requestId`, and the inspector shows both together, in the list and in the entry.
 */
import { describe, expect, it } from "vitest";
import { parseScenario } from "../../src/scenarios/load.js";
import { createTestSim } from "../support/sim.js";

describe("issue 31: X-Request-Id and the journal id shown together", () => {
  it("the entry carries the X-Request-Id its response had; the list and the entry page show both", async () => {
    const sim = createTestSim({ customers: 1 });
    await sim.call("GET", "/__sim/health");
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await sim.call("GET", "/shop")).headers.get("x-request-id")!);
    expect(ids.at(-1)).toBe("req_00000b");
    const [entry] = (await sim.call("GET", "/__sim/requests?limit=1")).body.requests;
    expect([entry.id, entry.requestId]).toEqual([10, "req_00000b"]);
    // The request id finds the entry (the control API's `q` reads the headers).
    expect((await sim.call("GET", "/__sim/requests?q=req_00000b")).body.requests.map((e: { id: number }) => e.id)).toEqual([10]);

    const list = await (await sim.app.request("/__sim/ui/requests")).text();
    expect(list).toMatch(/<tr data-id="10"[^>]*>\s*<td class="id" title="X-Request-Id req_00000b">10<\/td>/);
    const page = await (await sim.app.request("/__sim/ui/requests/10")).text();
    expect(page).toContain("<h1>Request 10 · X-Request-Id req_00000b</h1>");
  });

  it("a client's own X-Request-Id is the one shown; a fault without a response has none", async () => {
    const reset = parseScenario({ name: "reset", rules: [{ match: { operation: "listRewards" }, respond: { fault: "connection_reset" } }] }, "test");
    const sim = createTestSim({ customers: 1, scenarios: [reset] });
    await sim.call("GET", "/shop", { headers: { "X-Request-Id": "app-42" } });
    await sim.call("GET", "/rewards", { unchecked: true }).catch(() => undefined);
    const entries = (await sim.call("GET", "/__sim/requests")).body.requests;
    expect(entries.map((e: { id: number; requestId: string | null }) => [e.id, e.requestId])).toEqual([[2, null], [1, "app-42"]]);
  });
});
