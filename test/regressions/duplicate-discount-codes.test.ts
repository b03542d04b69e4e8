/**
 * Regression (issue 26, case 9): 5 code strings were issued twice in 80k grants in one shop (six
 * random characters, never checked against the codes already issued), e.g. `LOYAL-96WXDR` to two
 * customers. A shop now keeps an index of its code strings and draws again on a collision; after a
 * few collisions of one length the code grows a character. The draws still come from the shop's
 * seeded random source, so a seed gives the same codes.
 */
import { describe, expect, it } from "vitest";
import type { RandomSource } from "../../src/engine/random.js";
import { ShopEngine } from "../../src/engine/shop-engine.js";
import { createTestSim } from "../support/sim.js";

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
/** The draws that give these code characters. */
const drawsOf = (suffix: string) => [...suffix].map((ch) => (ALPHABET.indexOf(ch) + 0.5) / ALPHABET.length);

/** A random source that gives these draws, then `rest` for ever. */
function scripted(draws: number[], rest: number): RandomSource {
  const queue = [...draws];
  return { next: () => queue.shift() ?? rest };
}

/** The default shop's store and clock behind an engine whose random source is `random`. */
function shopWith(random: RandomSource) {
  const sim = createTestSim({ customers: 3 });
  const shop = new ShopEngine(sim.shop.store, sim.shop.clock, random);
  const [a, b] = sim.shop.store.data.customers.filter((c) => !c.excluded && c.mergedIntoCustomerId === undefined).map((c) => c.id);
  return { sim, shop, a: a!, b: b! };
}

describe("issue 26, case 9: the same discount code is issued twice", () => {
  it("two grants that draw the same six characters give two different codes: the second draws again", () => {
    const { shop, a, b } = shopWith(scripted([...drawsOf("96WXDR"), ...drawsOf("96WXDR"), ...drawsOf("Q7KM2P")], 0));
    expect(shop.grantReward(a, 101).code).toBe("LOYAL-96WXDR");
    expect(shop.grantReward(b, 101).code).toBe("LOYAL-Q7KM2P");
    expect(shop.ledgerMismatches()).toEqual([]);
  });

  it("a code already in the shop (seeded, issued by an earlier run) is never drawn for another customer", () => {
    const { sim, a } = shopWith(scripted([], 0));
    const taken = sim.shop.store.data.codes[0]!.code;
    const shop = new ShopEngine(sim.shop.store, sim.shop.clock, scripted([...drawsOf(taken.slice("LOYAL-".length)), ...drawsOf("ZZZZZZ")], 0));
    expect(shop.grantReward(a, 101).code).toBe("LOYAL-ZZZZZZ");
  });

  it("a source that keeps drawing taken codes makes the code longer, so issuing always ends", () => {
    const { shop, a, b } = shopWith(scripted([], 0));
    const codes = [a, b, a, b].map((id) => shop.grantReward(id, 101).code);
    expect(codes).toStrictEqual(["LOYAL-AAAAAA", "LOYAL-AAAAAAA", "LOYAL-AAAAAAAA", "LOYAL-AAAAAAAAA"]);
  });

  it("codes stay unique within a shop over the API, and a write undone gives its code string back", async () => {
    const sim = createTestSim({ customers: 20 });
    const id = sim.activeCustomer();
    for (let i = 0; i < 50; i++) expect((await sim.call("POST", `/customers/${id}/reward-grants`, { body: { reward_product_id: 101 } })).status).toBe(200);
    const codes = sim.shop.store.data.codes.map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);

    const { store } = sim.shop;
    const checkpoint = store.checkpoint();
    store.addCode({ customerId: id, rewardId: 101, name: "x", code: "LOYAL-UNDONE", used: false, voided: false, cost: 0, createdAt: 0 });
    expect(store.hasCodeText("LOYAL-UNDONE")).toBe(true);
    store.rollback(checkpoint);
    expect(store.hasCodeText("LOYAL-UNDONE")).toBe(false);
    expect(store.hasCodeText(codes[0]!)).toBe(true);
  });
});
