/**
 * Regression (issue 17, case 4): shops and customers were unbounded. 34 x `POST /__sim/shops
 * {"customers":100000}` ended in a fatal out-of-memory crash, each creation blocked the server for
 * seconds, and `POST /__sim/customers` had no cap. Now shops, customers over all shops, scenarios
 * per shop and rules per scenario have limits (flags and variables of the one config schema),
 * refused with 422 naming the limit, its value and how to raise it, with nothing made; and shops
 * are generated in slices, so other requests are answered while a large shop is made or reset.
 */
import { describe, expect, it } from "vitest";
import { parseCli } from "../../src/cli/args.js";
import { parseConfig } from "../../src/config.js";
import { generateShop, generateShopInSlices } from "../../src/program/generate.js";
import { createSimulator, type InProcessSimulator } from "../../src/simulator/in-process.js";
import { defaultShopSpec } from "../../src/simulator/simulator.js";

async function post(sim: InProcessSimulator, path: string, body: object, headers: Record<string, string> = {}) {
  const res = await sim.fetch(`/__sim${path}`, { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

/** The 422 of a limit: the message in the envelope, and as the one detail on the field. */
function expectOverLimit(res: { status: number; body: any }, path: string, message: string): void {
  expect(res.status).toBe(422);
  expect(res.body.error).toStrictEqual({ code: "VALIDATION_ERROR", statusCode: 422, message, details: [{ in: "body", path, message }] });
}

const customersOverAll = (sim: InProcessSimulator) => sim.engine.shops().reduce((n, s) => n + s.store.customerCount, 0);
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe("limits, refused with 422 and nothing made", () => {
  it("--max-shops counts the default shop", async () => {
    const sim = createSimulator({ customers: 2, maxShops: 3 });
    expect((await post(sim, "/shops", {})).status).toBe(201);
    expect((await post(sim, "/shops", {})).status).toBe(201);
    const refused = await post(sim, "/shops", {});
    expectOverLimit(refused, "(root)", "A new shop would make 4 shops, over the limit of 3 (raise it with --max-shops or LOYALTY_SIM_MAX_SHOPS)");
    expect(sim.engine.shops().map((s) => s.id)).toEqual(["1", "2", "3"]);
  });

  it("--max-customers counts every shop's customers, generated or created", async () => {
    const sim = createSimulator({ customers: 2, maxCustomers: 10 });
    expectOverLimit(await post(sim, "/shops", { customers: 9 }), "customers", "9 more customers would make 11 over all shops, over the limit of 10 (raise it with --max-customers or LOYALTY_SIM_MAX_CUSTOMERS)");
    expect(sim.engine.shops()).toHaveLength(1);
    const shop = await post(sim, "/shops", { customers: 7 });
    expect([shop.status, shop.body.customers]).toEqual([201, 7]);
    const customer = { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" };
    expect((await post(sim, "/customers", customer, { "X-Api-Key": shop.body.apiKey })).status).toBe(201);
    expect(customersOverAll(sim)).toBe(10);
    for (const headers of [{}, { "X-Api-Key": shop.body.apiKey as string }] as Record<string, string>[]) {
      expectOverLimit(await post(sim, "/customers", customer, headers), "(root)", "1 more customer would make 11 over all shops, over the limit of 10 (raise it with --max-customers or LOYALTY_SIM_MAX_CUSTOMERS)");
    }
    // A shop of the default size (the default shop's: 2) is refused as well.
    expectOverLimit(await post(sim, "/shops", {}), "customers", "2 more customers would make 12 over all shops, over the limit of 10 (raise it with --max-customers or LOYALTY_SIM_MAX_CUSTOMERS)");
    expect(customersOverAll(sim)).toBe(10);
  });

  it("a shop being generated counts already: of two made at once that fit only one by one, the second is refused", async () => {
    const sim = createSimulator({ customers: 0, maxCustomers: 1000 });
    const [first, second] = await Promise.all([post(sim, "/shops", { customers: 600 }), post(sim, "/shops", { customers: 600 })]);
    expect(first.status).toBe(201);
    expectOverLimit(second, "customers", "600 more customers would make 1200 over all shops, over the limit of 1000 (raise it with --max-customers or LOYALTY_SIM_MAX_CUSTOMERS)");
    expect(customersOverAll(sim)).toBe(600);
  });

  it("--max-scenarios counts a shop's own scenarios (a replaced one is not one more); --max-scenario-rules the rules of one", async () => {
    const sim = createSimulator({ customers: 1, maxScenarios: 2, maxScenarioRules: 3 });
    const rule = { match: { operation: "getShop" }, respond: { status: 418 } };
    expect((await post(sim, "/scenarios", { name: "a", rules: [rule] })).status).toBe(201);
    expect((await post(sim, "/scenarios", { name: "b", rules: [rule, rule, rule] })).status).toBe(201);
    expect((await post(sim, "/scenarios", { name: "a", rules: [rule, rule] })).status).toBe(201);
    expectOverLimit(await post(sim, "/scenarios", { name: "c", rules: [rule] }), "name", "A new scenario would give this shop 3 scenarios, over the limit of 2 (raise it with --max-scenarios or LOYALTY_SIM_MAX_SCENARIOS)");
    expectOverLimit(await post(sim, "/scenarios", { name: "a", rules: [rule, rule, rule, rule] }), "rules", "The scenario has 4 rules, over the limit of 3 (raise it with --max-scenario-rules or LOYALTY_SIM_MAX_SCENARIO_RULES)");
    expect((await sim.control.scenarios()).map((s) => [s.name, s.rules.length])).toEqual([["a", 2], ["b", 3]]);
    // Another shop has scenarios of its own to add.
    const other = await sim.control.createShop({ customers: 0 });
    expect((await post(sim, "/scenarios", { name: "c", rules: [rule] }, { "X-Api-Key": other.apiKey })).status).toBe(201);
  });

  it("are options of the one config schema, as flags and variables, with documented defaults", () => {
    expect(parseConfig({})).toMatchObject({ maxShops: 1000, maxCustomers: 250_000, maxScenarios: 100, maxScenarioRules: 100 });
    const command = parseCli(["--max-shops", "5", "--max-scenario-rules", "7"], { LOYALTY_SIM_MAX_CUSTOMERS: "70", LOYALTY_SIM_MAX_SCENARIOS: "3" });
    expect(command.kind === "run" && command.config).toMatchObject({ maxShops: 5, maxCustomers: 70, maxScenarios: 3, maxScenarioRules: 7 });
    expect(() => parseConfig({ customers: 300_000 })).toThrow(
      "Invalid options:\n  --customers (LOYALTY_SIM_CUSTOMERS): 300000 is more than --max-customers (LOYALTY_SIM_MAX_CUSTOMERS) allows (250000); raise that too",
    );
  });
});

describe("large shops are generated in slices: other requests are answered meanwhile", () => {
  it("the same bytes as in one go", async () => {
    const spec = { ...defaultShopSpec(parseConfig({ customers: 700, seed: 5 })), id: "2" };
    expect(JSON.stringify((await generateShopInSlices(spec)).data)).toBe(JSON.stringify(generateShop(spec).data));
  });

  it("POST /__sim/shops: health answers while the shop is being made", async () => {
    const sim = createSimulator({ customers: 1 });
    const free = sim.engine.nextShopId();
    let answered = false;
    const creating = sim.control.createShop({ customers: 5000 }).finally(() => (answered = true));
    // The shop's id is taken once its creation has begun.
    while (sim.engine.nextShopId() === free) await nextTurn();
    expect((await sim.control.health()).status).toBe("ok");
    expect([answered, sim.engine.shops().length]).toEqual([false, 1]);
    expect(await creating).toMatchObject({ id: free, customers: 5000 });
    expect(sim.engine.shops().length).toBe(2);
  });

  it("POST /__sim/reset: health answers while the shops are being made again", async () => {
    const sim = createSimulator({ customers: 1 });
    const big = await sim.control.createShop({ customers: 5000 });
    const before = sim.engine.shops().map((s) => s.store);
    /** Shops whose data was made again: a reset gives a shop a new store. */
    const replaced = () => sim.engine.shops().filter((s, i) => s.store !== before[i]).length;
    let answered = false;
    const resetting = sim.control.reset().finally(() => (answered = true));
    // The default shop (1 customer) is made again first, then the large one.
    while (replaced() === 0) await nextTurn();
    expect((await sim.control.health()).status).toBe("ok");
    expect([answered, replaced()]).toEqual([false, 1]);
    expect(await resetting).toStrictEqual({ reset: true, shops: 2 });
    expect(replaced()).toBe(2);
    expect(sim.engine.shop(big.id)!.store.customerCount).toBe(5000);
  });
});
