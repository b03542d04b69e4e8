/**
 * The `--data` file's bytes keep each ledger's bytes and each group of customers' bytes between
 * flushes: whatever happened in between, the file must read back as exactly the state a full
 * `JSON.stringify` would write.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config.js";
import { buildSimulator } from "../../src/simulator.js";
import { DATA_FORMAT, DATA_VERSION, type SavedState } from "../../src/store/data-file.js";
import { copyCustomer } from "../../src/store/shop-store.js";
import { GROUP_SIZE, sameCustomerRecord, StateText } from "../../src/store/state-text.js";
import type { ActivityRecord, CustomerRecord, ShopData } from "../../src/store/types.js";

const dir = mkdtempSync(join(tmpdir(), "loyalty-sim-state-text-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the file holds, compared as parsed JSON: key order is not part of the format. */
const asRead = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
/** The document StateText writes for `state`, parsed. */
const written = (text: StateText, state: SavedState) => JSON.parse(Buffer.concat(text.chunks(state)).toString("utf8")) as unknown;

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
    | { kind: "balance"; shop: number; value: number }
    | { kind: "addCustomers"; shop: number; count: number }
    | { kind: "customer"; shop: number; at: number; field: "firstName" | "lots" | "replace" };
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
    fc.record({ kind: fc.constant("addCustomers" as const), shop: fc.nat(3), count: fc.integer({ min: 1, max: 700 }) }),
    fc.record({ kind: fc.constant("customer" as const), shop: fc.nat(3), at: fc.nat(), field: fc.constantFrom("firstName" as const, "lots" as const, "replace" as const) }),
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
            } else if (s.kind === "addCustomers" && data) {
              const from = data.customers.length;
              for (let k = 0; k < s.count; k++) data.customers.push({ id: `${data.id}-c${from + k}`, balance: 0, lots: [] } as unknown as CustomerRecord);
            } else if (s.kind === "customer" && data) {
              const at = s.at % data.customers.length;
              const c = data.customers[at]!;
              if (s.field === "firstName") c.firstName = `${c.firstName ?? ""}é`;
              else if (s.field === "replace") data.customers[at] = { ...c, balance: c.balance + 1 };
              else if (c.lots?.length) c.lots[0]!.amount += 1;
              else c.lots = [{ amount: 1, expiresAt: 1 }];
            }
          }
          const saved = state(shops);
          expect(written(text, saved)).toEqual(asRead(saved));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("StateText's customer groups", () => {
  const customer = (i: number): CustomerRecord => ({
    id: `c${i}`,
    firstName: "Ann",
    lastName: "Lee",
    email: `c${i}@example.com`,
    platformState: "active",
    excluded: false,
    balance: i,
    earned: i,
    lots: [],
    createdAt: 1_700_000_000_000,
  });

  it("serialises again only a group with a changed record", () => {
    const data = { id: "s", seed: 1, customers: Array.from({ length: GROUP_SIZE * 2 + 5 }, (_, i) => customer(i)), activities: [], codes: [], nextActivityId: 1, nextCodeId: 1 } as unknown as ShopData;
    const saved: SavedState = { format: DATA_FORMAT, version: DATA_VERSION, savedAt: "x", shops: [{ spec: { id: "s" } as SavedState["shops"][number]["spec"], data }] };
    const text = new StateText();
    const first = text.chunks(saved);
    data.customers[GROUP_SIZE + 3]!.balance += 10;
    const second = text.chunks(saved);
    expect(written(text, saved)).toEqual(asRead(saved));
    // The chunks of the three groups sit at the same places: only the middle one is new bytes.
    const groupChunks = (chunks: Buffer[]) => chunks.filter((c) => c.length > 1000);
    const [a, b] = [groupChunks(first), groupChunks(second)];
    expect(a).toHaveLength(2);
    expect(b[0]).toBe(a[0]);
    expect(b[1]).not.toBe(a[1]);
  });

  it("compares every field of a customer record", () => {
    // Required<>: a field added to CustomerRecord must be added here, and so to the comparison.
    const full: Required<CustomerRecord> = {
      ...customer(1),
      phone: "+100",
      dateOfBirth: "01-02",
      excludedAt: 5,
      mergedIntoCustomerId: "c9",
      vipTierId: 2,
      lastMovementAt: 7,
      lots: [{ amount: 3, expiresAt: 9 }],
    };
    expect(sameCustomerRecord(full, copyCustomer(full))).toBe(true);
    for (const field of Object.keys(full) as (keyof CustomerRecord)[]) {
      const changed = copyCustomer(full);
      (changed as unknown as Record<string, unknown>)[field] = field === "lots" ? [{ amount: 4, expiresAt: 9 }] : typeof full[field] === "number" ? 99 : field === "excluded" ? true : "other";
      expect([field, sameCustomerRecord(full, changed)]).toEqual([field, false]);
    }
    const lots = copyCustomer(full);
    full.lots[0]!.amount = 1;
    expect(sameCustomerRecord(full, lots)).toBe(false);
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
