import { describe, expect, it } from "vitest";
import { createTestSim } from "./support/sim.js";

describe("smoke", () => {
  it("serves a customer", async () => {
    const sim = createTestSim();
    const id = sim.activeCustomer();
    const res = await sim.call("GET", `/customers/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(id);
    expect(sim.shop.ledgerMismatches()).toEqual([]);
  });
});
