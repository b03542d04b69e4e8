/** The inspector's Shops page through `app.request`: counts, create, switch links, reset one shop or all. */
import { describe, expect, it } from "vitest";
import { createTestSim } from "../support/sim.js";

type Sim = ReturnType<typeof createTestSim>;

async function post(sim: Sim, path: string, form: Record<string, string> = {}) {
  const res = await sim.app.request(path, { method: "POST", headers: { "HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form).toString() });
  return { status: res.status, text: await res.text() };
}

const shopRows = (text: string) => [...text.matchAll(/<tr data-shop="([^"]+)"><td>[^<]*<\/td><td><code>([^<]*)<\/code><\/td><td class="num">(\d+)<\/td>/g)].map((m) => [m[1], m[2], Number(m[3])]);

describe("Shops", () => {
  it("lists shops with their counts and links that switch the inspector to each", async () => {
    const sim = createTestSim({ customers: 3 });
    const text = await (await sim.app.request("/__sim/ui/shops")).text();
    expect(shopRows(text)).toEqual([["1", "sim_key", 3]]);
    expect(text).toContain('<a href="/__sim/ui/requests?shop=1">open</a>');
  });

  it("creates a shop, and refuses a bad count inline", async () => {
    const sim = createTestSim({ customers: 3 });
    const made = await post(sim, "/__sim/ui/shops", { customers: "2", seed: "7", plan: "free" });
    expect(made.status).toBe(200);
    const rows = shopRows(made.text);
    expect(rows.map(([, , n]) => n)).toEqual([3, 2]);
    expect(made.text).toContain(`<p class="done" role="status">Shop ${rows[1]![0]} created (API key ${rows[1]![1]})</p>`);
    const refused = await post(sim, "/__sim/ui/shops", { customers: "-1" });
    expect(refused.text).toContain('<div class="problem" role="alert"><strong>422</strong>');
    expect(refused.text).toContain("<li><code>body customers</code>: ");
    expect(shopRows(refused.text)).toHaveLength(2);
  });

  it("resets one shop by its API key, or every shop", async () => {
    const sim = createTestSim({ customers: 3 });
    expect((await sim.call("POST", "/__sim/customers", { body: { id: "5550001", firstName: "Ada", lastName: "L", email: "a@example.com" } })).status).toBe(201);
    const one = await post(sim, "/__sim/ui/shops/sim_key/reset");
    expect(one.text).toContain("The shop of API key sim_key is reset");
    expect(shopRows(one.text)).toEqual([["1", "sim_key", 3]]);
    expect((await sim.call("POST", "/__sim/customers", { body: { id: "5550002", firstName: "Ada", lastName: "L", email: "b@example.com" } })).status).toBe(201);
    const all = await post(sim, "/__sim/ui/shops/reset");
    expect(all.text).toContain("Every shop is reset");
    expect(shopRows(all.text)).toEqual([["1", "sim_key", 3]]);
  });
});
