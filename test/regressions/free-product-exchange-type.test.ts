/**
 * Regression (issue 30): production's GraphQL docs answer a reward with `exchangeType:
 * "free_product"`, but the fixture format took only `stamps`, `cards` and `variable`, so a program
 * copied from production (by hand or by `loyalty-sim import`) did not load. A `free_product` reward
 * is priced as a `stamps` one: redeeming it costs its price in stamps (the docs price every reward
 * in stamps; the exchange type says what the code buys).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { defaultFixturePath, parseFixture } from "../../src/program/load.js";
import { createTestSim } from "../support/sim.js";

const fixture = () => {
  const file = JSON.parse(readFileSync(defaultFixturePath(), "utf8")) as { rewards: { id: number; exchangeType: string; price: number }[] };
  file.rewards.find((r) => r.id === 103)!.exchangeType = "free_product";
  return file;
};

describe("issue 30: exchangeType free_product", () => {
  it("a fixture with a free_product reward loads", () => {
    const loaded = parseFixture(fixture(), "inline");
    expect(loaded.program.rewards.find((r) => r.id === 103)).toMatchObject({ exchangeType: "free_product", price: 10 });
  });

  it("is answered as it was given, and redeeming it costs its price in stamps", async () => {
    const sim = createTestSim({ customers: 10, program: (p) => void (p.rewards.find((r) => r.id === 103)!.exchangeType = "free_product") });
    const listed = await sim.call("GET", "/rewards");
    expect(listed.body.data.find((r: { id: string }) => r.id === "103")).toEqual({
      id: "103",
      name: "Free pastry",
      price: 10,
      exchangeType: "free_product",
      iconUrl: "https://cdn.example.com/loyalty/icons/croissant.svg",
    });
    const id = sim.activeCustomer(10);
    const before = (await sim.call("GET", `/customers/${id}`)).body.data.stampBalance as number;
    const redeemed = await sim.call("POST", `/customers/${id}/redemptions`, { body: { reward_product_id: 103 } });
    expect(redeemed.status).toBe(200);
    expect(redeemed.body.data).toMatchObject({ name: "Free pastry", stampBalance: before - 10 });
  });
});
