/**
 * Regression (issue 26, case 15, first item): the next shop id was found by walking up from the
 * shop count past every taken id, deleted shops' included, so each creation cost one step per shop
 * ever deleted. The work is counted here as the id lookups one `nextShopId()` makes; the ids given
 * are the walk's, checked against it over random creations, deletions, resets and restores.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Engine, ShopSpec } from "../../src/engine/engine.js";
import { shopGenerator } from "../../src/program/generate.js";
import { createTestSim, defaultSpec } from "../support/sim.js";

const template = defaultSpec({ customers: 0 });
const specOf = (id: string): ShopSpec => ({ ...template, id, customers: 0, access: { ...template.access, apiKey: `key_${id}` } });

/** The walk the engine did: up from the shop count + 1 to the first id no shop, live or deleted, has. */
function walked(live: ReadonlySet<string>, retired: ReadonlySet<string>): string {
  let n = live.size + 1;
  while (live.has(String(n)) || retired.has(String(n))) n++;
  return String(n);
}

/** Lookups in Maps and Sets made while `f` runs: the engine's ids are kept in those. */
function lookups<T>(f: () => T): { value: T; count: number } {
  const spies = [vi.spyOn(Map.prototype, "has"), vi.spyOn(Map.prototype, "get"), vi.spyOn(Set.prototype, "has")];
  try {
    const value = f();
    return { value, count: spies.reduce((n, spy) => n + spy.mock.calls.length, 0) };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe("issue 26, case 15: shop creation walks every deleted shop id", () => {
  it("after 300 shops were made and deleted, the next id is found in a few lookups, not one per deleted shop", () => {
    const { engine } = createTestSim({ customers: 0 });
    for (let i = 0; i < 300; i++) {
      const id = engine.nextShopId();
      engine.addShop(specOf(id));
      expect(engine.deleteShop(id)).toBe(true);
    }
    const { value, count } = lookups(() => engine.nextShopId());
    expect(value).toBe("302");
    expect(count).toBeLessThanOrEqual(8);
  });

  it("the same when 300 shops were all made first and then deleted", () => {
    const { engine } = createTestSim({ customers: 0 });
    const ids = Array.from({ length: 300 }, (_, i) => String(i + 2));
    for (const id of ids) engine.addShop(specOf(id));
    for (const id of ids.slice(0, -1)) engine.deleteShop(id);
    // A first lookup may shorten the chains it walks; every later one is short.
    engine.nextShopId();
    const { value, count } = lookups(() => engine.nextShopId());
    expect(value).toBe("302");
    expect(count).toBeLessThanOrEqual(8);
  });

  it("gives the ids the walk gave, over random creations, deletions, resets, restores and failed creations", async () => {
    let seed = 26;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 12; round++) {
      const { engine } = createTestSim({ customers: 0 });
      const live = new Set(["1"]);
      const retired = new Set<string>();
      const check = (context: string) => expect(engine.nextShopId(), `round ${round}: ${context}`).toBe(walked(live, retired));
      for (let step = 0; step < 60; step++) {
        const roll = random();
        const deletable = [...live].filter((id) => id !== "1");
        if (roll < 0.45) {
          const id = engine.nextShopId();
          engine.addShop(specOf(id));
          live.add(id);
        } else if (roll < 0.8 && deletable.length > 0) {
          const id = deletable[Math.floor(random() * deletable.length)]!;
          engine.deleteShop(id);
          live.delete(id);
          retired.add(id);
        } else if (roll < 0.85) {
          engine.resetShops();
        } else if (roll < 0.92) {
          // Ids a data file may hold: anything, gaps and non-numbers included.
          const id = [String(Math.floor(random() * 80) + 2), `0${Math.floor(random() * 9)}`, "x"][Math.floor(random() * 3)]!;
          if (live.has(id) || retired.has(id)) continue;
          engine.restore([{ spec: specOf(id), store: shopGenerator.generate(specOf(id)) }]);
          live.add(id);
        } else {
          await failedCreation(engine);
        }
        check(`step ${step}`);
      }
    }
  });
});

/** A creation whose generator fails: its id is taken while it runs, and free again after. */
async function failedCreation(engine: Engine): Promise<void> {
  const id = engine.nextShopId();
  const spec = { ...specOf(id), program: undefined as never };
  await expect(engine.createShop(spec)).rejects.toThrow();
}
