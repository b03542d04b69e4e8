/**
 * The `--data` file's bytes keep each ledger's bytes and each group of customers' bytes between
 * flushes (a group is written again when a customer in it has a later version): whatever happened
 * in between, the file must read back as exactly the state a full `JSON.stringify` would write.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config.js";
import { buildSimulator } from "../../src/simulator/simulator.js";
import { DATA_FORMAT, DATA_VERSION, type SavedState, type Snapshot } from "../../src/persistence/saved-state.js";
import { ShopStore } from "../../src/store/shop-store.js";
import { GROUP_SIZE, StateText } from "../../src/persistence/state-text.js";
import type { ActivityRecord, CustomerChange, CustomerRecord, ShopData } from "../../src/store/types.js";

const dir = mkdtempSync(join(tmpdir(), "loyalty-sim-state-text-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the file holds, compared as parsed JSON: key order is not part of the format. */
const asRead = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
const snapshot = (stores: ShopStore[]): Snapshot => ({
  format: DATA_FORMAT,
  version: DATA_VERSION,
  savedAt: "2026-11-23T00:00:00.000Z",
  shops: stores.map((store) => ({ spec: { id: store.id } as SavedState["shops"][number]["spec"], store })),
});
/** The document StateText writes for the stores, and the one a full JSON.stringify writes (customers and activities last). */
const written = (text: StateText, stores: ShopStore[]) => Buffer.concat(text.chunks(snapshot(stores))).toString("utf8");
const whole = (stores: ShopStore[]) =>
  JSON.stringify({
    ...snapshot(stores),
    shops: stores.map((store) => {
      const { customers, activities, ...rest } = store.data;
      return { spec: { id: store.id }, data: { ...rest, customers, activities } };
    }),
  });

const customer = (i: number, shop = "s"): CustomerRecord => ({
  id: `${shop}-c${i}`,
  firstName: "Ann",
  lastName: "Lee",
  email: `${shop}-c${i}@example.com`,
  platformState: "active",
  excluded: false,
  balance: 0,
  earned: 0,
  lots: [],
  createdAt: 1_700_000_000_000,
});
const emptyData = (id: string): ShopData => ({ id, seed: 1, customers: [], activities: [], codes: [], nextActivityId: 1, nextCodeId: 1 }) as unknown as ShopData;
const storeWith = (id: string, customers: number) => {
  const store = new ShopStore(emptyData(id));
  for (let i = 0; i < customers; i++) store.addCustomer(customer(i, id));
  return store;
};
const activity = (customerId: string, change: number, comment?: string): ActivityRecord => ({
  id: 0,
  customerId,
  kind: "award",
  label: "Manual adjustment",
  internalComment: comment,
  stampChange: change,
  earnRuleId: undefined,
  createdAt: 1_700_000_000_000,
});

describe("StateText", () => {
  type Step =
    | { kind: "append"; shop: number; changes: { change: number; comment: string | undefined }[] }
    | { kind: "reset"; shop: number }
    | { kind: "addShop" }
    | { kind: "dropShop"; shop: number }
    | { kind: "addCustomers"; shop: number; count: number }
    | { kind: "customer"; shop: number; at: number; field: "balance" | "dateOfBirth" | "lots" | "excludedAt"; value: number }
    | { kind: "undone"; shop: number; at: number; value: number };
  const shop = fc.nat(3);
  const step: fc.Arbitrary<Step> = fc.oneof(
    {
      arbitrary: fc.record({
        kind: fc.constant("append" as const),
        shop,
        changes: fc.array(fc.record({ change: fc.integer({ min: -1e9, max: 1e9 }), comment: fc.option(fc.string({ unit: "grapheme" }), { nil: undefined }) }), { maxLength: 5 }),
      }),
      weight: 4,
    },
    fc.record({ kind: fc.constant("reset" as const), shop }),
    fc.record({ kind: fc.constant("addShop" as const) }),
    fc.record({ kind: fc.constant("dropShop" as const), shop }),
    fc.record({ kind: fc.constant("addCustomers" as const), shop, count: fc.integer({ min: 1, max: 700 }) }),
    {
      arbitrary: fc.record({
        kind: fc.constant("customer" as const),
        shop,
        at: fc.nat(),
        field: fc.constantFrom("balance" as const, "dateOfBirth" as const, "lots" as const, "excludedAt" as const),
        value: fc.integer({ min: -1, max: 1e6 }),
      }),
      weight: 3,
    },
    fc.record({ kind: fc.constant("undone" as const), shop, at: fc.nat(), value: fc.nat() }),
  );

  /** A change of one field; -1 takes an optional field away. */
  const change = (c: CustomerRecord, field: "balance" | "dateOfBirth" | "lots" | "excludedAt", value: number): CustomerChange => {
    if (field === "balance") return { balance: value };
    if (field === "lots") return { lots: value < 0 ? [] : [...c.lots, { amount: value + 1, expiresAt: value }] };
    if (field === "dateOfBirth") return { dateOfBirth: value < 0 ? undefined : `${String((value % 28) + 1).padStart(2, "0")}-01` };
    return { excludedAt: value < 0 ? undefined : value };
  };

  it("reads back as the whole state, after any appends, resets, new shops, changes and undone writes between flushes", () => {
    fc.assert(
      fc.property(fc.array(fc.array(step, { maxLength: 4 }), { minLength: 1, maxLength: 12 }), (flushes) => {
        const text = new StateText();
        const stores = [storeWith("s0", 1)];
        let shopCount = 1;
        for (const steps of flushes) {
          for (const s of steps) {
            const store = stores[s.kind === "addShop" ? 0 : s.shop % stores.length]!;
            const at = (n: number) => store.data.customers[n % store.customerCount]!;
            if (s.kind === "append") {
              for (const { change: n, comment } of s.changes) store.appendActivity(activity(store.data.customers[0]!.id, n, comment));
            } else if (s.kind === "reset") {
              const { data } = store;
              stores[stores.indexOf(store)] = new ShopStore({ ...data, customers: [...data.customers], activities: data.activities.slice(0, 1), nextActivityId: Math.min(data.nextActivityId, 2) });
            } else if (s.kind === "addShop") {
              stores.push(storeWith(`s${shopCount++}`, 1));
            } else if (s.kind === "dropShop" && stores.length > 1) {
              stores.splice(s.shop % stores.length, 1);
            } else if (s.kind === "addCustomers") {
              const from = store.customerCount;
              for (let k = 0; k < s.count; k++) store.addCustomer(customer(from + k, store.id));
            } else if (s.kind === "customer") {
              store.updateCustomer(at(s.at), change(at(s.at), s.field, s.value));
            } else if (s.kind === "undone") {
              // A write that changed a customer, added one and appended, then was undone: the
              // counter goes back, and the next change takes the same number again.
              const checkpoint = store.checkpoint();
              store.updateCustomer(at(s.at), { balance: at(s.at).balance + s.value + 1 });
              store.addCustomer(customer(store.customerCount + 1000, store.id));
              store.appendActivity(activity(at(s.at).id, 1));
              store.rollback(checkpoint);
            }
          }
          expect(written(text, stores)).toBe(whole(stores));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("StateText's customer groups", () => {
  const groupChunks = (chunks: Buffer[]) => chunks.filter((c) => c.length > 1000);

  it("serialises again only a group with a changed customer", () => {
    const store = storeWith("s", GROUP_SIZE * 2 + 5);
    const text = new StateText();
    const first = text.chunks(snapshot([store]));
    store.updateCustomer(store.data.customers[GROUP_SIZE + 3]!, { balance: 10 });
    const second = text.chunks(snapshot([store]));
    expect(written(text, [store])).toBe(whole([store]));
    // The chunks of the three groups sit at the same places: only the middle one is new bytes.
    const [a, b] = [groupChunks(first), groupChunks(second)];
    expect(a).toHaveLength(2);
    expect(b[0]).toBe(a[0]);
    expect(b[1]).not.toBe(a[1]);
  });

  it("writes a change to any field a write may change in the next flush", () => {
    // Required<>: a field a write may change (CustomerChange) must be listed here, and so checked.
    const changes: Required<CustomerChange> = {
      dateOfBirth: "01-02",
      excluded: true,
      excludedAt: 5,
      mergedIntoCustomerId: "s-c9",
      vipTierId: 2,
      balance: 3,
      earned: 4,
      lastMovementAt: 7,
      lots: [{ amount: 3, expiresAt: 9 }],
    };
    const store = storeWith("s", 3);
    const text = new StateText();
    // The chunks: the document's head, the shop's, then the one group of customers.
    const group = () => text.chunks(snapshot([store]))[2];
    for (const [field, value] of Object.entries(changes)) {
      const before = group();
      expect(group()).toBe(before);
      store.updateCustomer(store.data.customers[1]!, { [field]: value });
      expect(group(), field).not.toBe(before);
      const after = text.chunks(snapshot([store]));
      expect(JSON.parse(Buffer.concat(after).toString("utf8")).shops[0].data.customers[1][field]).toEqual(value);
      // Taken away again (optional fields), which shows too.
      if (field !== "excluded" && field !== "balance" && field !== "earned" && field !== "lots") {
        store.updateCustomer(store.data.customers[1]!, { [field]: undefined });
        expect(JSON.parse(Buffer.concat(text.chunks(snapshot([store]))).toString("utf8")).shops[0].data.customers[1]).not.toHaveProperty(field);
      }
    }
    expect(written(text, [store])).toBe(whole([store]));
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
