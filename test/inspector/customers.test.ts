/** The inspector's Customer pages through `app.request`: search, one customer's state, ledger, codes and requests, escaping. */
import { describe, expect, it } from "vitest";
import { createTestSim } from "../support/sim.js";

type Sim = ReturnType<typeof createTestSim>;

async function html(sim: Sim, path: string) {
  const res = await sim.app.request(path);
  return { status: res.status, text: await res.text() };
}

async function newCustomer(sim: Sim, id: string, firstName: string, stampBalance: number) {
  const res = await sim.call("POST", "/__sim/customers", { body: { id, firstName, lastName: "Lovelace", email: `${id}@example.com`, stampBalance } });
  expect(res.status).toBe(201);
}

describe("Customers", () => {
  it("lists customers and finds them by name, email or id, names escaped", async () => {
    const sim = createTestSim({ customers: 0 });
    await newCustomer(sim, "5550001", "Ada", 7);
    await newCustomer(sim, "5550002", "<script>alert(1)</script>", 30);
    const all = await html(sim, "/__sim/ui/customers");
    expect(all.status).toBe(200);
    expect([...all.text.matchAll(/<tr data-id="(\d+)"/g)].map((m) => m[1])).toEqual(["5550001", "5550002"]);
    expect(all.text).not.toContain("<script>alert(1)</script>");
    expect(all.text).toContain("<td>&lt;script&gt;alert(1)&lt;/script&gt; Lovelace</td>");
    const found = await html(sim, "/__sim/ui/customers?q=ada");
    expect([...found.text.matchAll(/<tr data-id="(\d+)"/g)].map((m) => m[1])).toEqual(["5550001"]);
    expect(found.text).toContain('<input type="search" name="q" value="ada"');
  });

  it("shows balance, cards, next reward, expiry, codes by state, the ledger and the customer's requests", async () => {
    const sim = createTestSim({ customers: 0 });
    await newCustomer(sim, "5550002", "Grace", 30);
    const redeemed = await sim.call("POST", "/customers/5550002/redemptions", { body: { reward_product_id: 103 } });
    expect(redeemed.status).toBe(200);
    await sim.call("GET", "/customers/5550002");
    const { status, text } = await html(sim, "/__sim/ui/customers/5550002");
    expect(status).toBe(200);
    expect(text).toContain('<div class="big" id="balance">20</div>stamps');
    expect(text).toContain(`<h3>available (1)</h3><ul><li><code>${redeemed.body.data.code}</code> Free pastry · cost 10`);
    expect(text).toContain("<h3>used (0)</h3>");
    expect(text).toContain("<h3>voided (0)</h3>");
    expect(text).toMatch(/<td>Stamps adjusted by the shop<\/td><td class="num">\+30<\/td>/);
    expect(text).toMatch(/<td class="num">-10<\/td>/);
    expect(text).toContain("stamps expire");
    expect([...text.matchAll(/<tr data-id="(\d+)"/g)].map((m) => Number(m[1]))).toEqual([2, 1]);
  });

  it("an unknown customer is a 404 page naming it", async () => {
    const sim = createTestSim({ customers: 0 });
    const { status, text } = await html(sim, "/__sim/ui/customers/404404");
    expect(status).toBe(404);
    expect(text).toContain("Customer 404404 not found");
  });
});
