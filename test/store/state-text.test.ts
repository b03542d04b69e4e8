/**
 * The `--data` file's text keeps each ledger's text between flushes: whatever happened in
 * between, the file must read back as exactly the state a full `JSON.stringify` would write.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config.js";
import { buildSimulator } from "../../src/simulator.js";
import { DATA_FORMAT, DATA_VERSION, type SavedState } from "../../src/store/data-file.js";
import { StateText } from "../../src/store/state-text.js";
import type { ActivityRecord, ShopData } from "../../src/store/types.js";

const dir = mkdtempSync(join(tmpdir(), "loyalty-sim-state-text-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the file holds, compared as parsed JSON: key order is not part of the format. */
const asRead = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe("StateText", () => {
  const activity = (id: number, customerId: string, change: number, comment?: string): ActivityRecord => ({
    id,
    customerId,
    kind: "award",
    label: "Manual adjustment",
    internalComment: comment,
    stampChange: change,
    earnRuleId: undefined,
    createdAt: 1_700_000_000_000 + id,
  });
  const shopData = (id: string): ShopData =>
    ({ id, seed: 1, customers: [{ id: `${id}-c`, balance: 0 }], activities: [], codes: [], nextActivityId: 1, nextCodeId: 1 }) as unknown as ShopData;
  const state = (shops: ShopData[]): SavedState => ({
    format: DATA_FORMAT,
    version: DATA_VERSION,
    savedAt: "2026-11-23T00:00:00.000Z",
    shops: shops.map((data) => ({ spec: { id: data.id } as SavedState["shops"][number]["spec"], data })),
  });

  type Step =
    | { kind: "append"; shop: number; changes: { change: number; comment: string | undefined }[] }
    | { kind: "reset"; shop: number }
    | { kind: "addShop" }
    | { kind: "dropShop"; shop: number }
    | { kind: "balance"; shop: number; value: number };
  const step: fc.Arbitrary<Step> = fc.oneof(
    {
      arbitrary: fc.record({
        kind: fc.constant("append" as const),
        shop: fc.nat(3),
        changes: fc.array(fc.record({ change: fc.integer({ min: -1e9, max: 1e9 }), comment: fc.option(fc.string({ unit: "grapheme" }), { nil: undefined }) }), { maxLength: 5 }),
      }),
      weight: 6,
    },
    fc.record({ kind: fc.constant("reset" as const), shop: fc.nat(3) }),
    fc.record({ kind: fc.constant("addShop" as const) }),
    fc.record({ kind: fc.constant("dropShop" as const), shop: fc.nat(3) }),
    fc.record({ kind: fc.constant("balance" as const), shop: fc.nat(3), value: fc.integer() }),
  );

  it("reads back as the whole state, after any appends, resets, new shops and changes between writes", () => {
    fc.assert(
      fc.property(fc.array(fc.array(step, { maxLength: 4 }), { minLength: 1, maxLength: 12 }), (writes) => {
        const text = new StateText();
        const shops = [shopData("s0")];
        let shopCount = 1;
        for (const steps of writes) {
          for (const s of steps) {
            const data = shops[s.kind === "addShop" ? 0 : s.shop % shops.length];
            if (s.kind === "append" && data) {
              for (const { change, comment } of s.changes) data.activities.push(activity(data.nextActivityId++, data.customers[0]!.id, change, comment));
            } else if (s.kind === "reset" && data) {
              shops[shops.indexOf(data)] = { ...data, activities: data.activities.slice(0, 1), nextActivityId: 2 };
            } else if (s.kind === "addShop") {
              shops.push(shopData(`s${shopCount++}`));
            } else if (s.kind === "dropShop" && shops.length > 1) {
              shops.splice(s.shop % shops.length, 1);
            } else if (s.kind === "balance" && data) {
              data.customers[0]!.balance = s.value;
            }
          }
          const saved = state(shops);
          expect(JSON.parse(text.stringify(saved))).toEqual(asRead(saved));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("--data writes", () => {
  it("hold exactly the engine's state after each flush: awards, redemptions, voids and a reset between them", async () => {
    const file = join(dir, "state.json");
    const sim = buildSimulator(parseConfig({ customers: 200, rateLimit: "off", data: file }));
    const saved = () => JSON.parse(readFileSync(file, "utf8")) as SavedState;
    const expected = () => asRead(sim.engine.shops().map((s) => ({ spec: sim.engine.spec(s.id), data: s.store.data })));
    const ids = sim.shop
      .listCustomers({}, { limit: 100, hasCount: false })
      .items.filter((c) => c.state === "active" && c.mergedIntoCustomerId === undefined)
      .map((c) => c.id);
    const reward = sim.shop.store.data.program.rewards.filter((r) => r.exchangeType !== "variable" && r.tierId === undefined).sort((a, b) => a.price - b.price)[0]!;

    await sim.dataFile!.flush();
    expect(saved().shops).toEqual(expected());
    for (const id of ids.slice(0, 20)) sim.shop.awardStamps(id, { stamps: 50, comment: "bonus ✓ “quoted”" });
    await sim.dataFile!.flush();
    expect(saved().shops).toEqual(expected());

    sim.shop.redeemReward(ids[0]!, reward.id);
    sim.shop.redeemReward(ids[0]!, reward.id);
    sim.shop.voidRewardCode(ids[0]!, sim.shop.store.codesOf(ids[0]!).at(-1)!.id);
    sim.shop.adjustStamps(ids[1]!, { stamps: -3 });
    await sim.dataFile!.flush();
    expect(saved().shops).toEqual(expected());
    expect(sim.shop.ledgerMismatches()).toEqual([]);

    const activitiesBefore = sim.shop.store.data.activities.length;
    sim.engine.resetShops();
    expect(sim.engine.defaultShop().store.data.activities.length).toBeLessThan(activitiesBefore);
    await sim.dataFile!.flush();
    expect(saved().shops).toEqual(expected());
    sim.engine.defaultShop().awardStamps(ids[2]!, { stamps: 7 });
    await sim.dataFile!.flush();
    expect(saved().shops).toEqual(expected());
  });
});
