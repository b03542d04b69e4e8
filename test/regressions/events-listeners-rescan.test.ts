/**
 * Issue 26, case 6. Was: at every tick in which the journal changed (any shop's request), each
 * `/__sim/events` listener looked for its shop's newest entry by reading the journal newest first,
 * decoding entry after entry: a listener of a shop with no entry read the whole ring. 200
 * listeners took `/__sim/health` from 1.3 ms to 512 ms; 20 listeners with `--journal-size 5000`
 * put 300 ms on every request. Now the journal keeps each shop's newest entry id, and a tick
 * compares numbers: it reads no entry at all.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { TICK_MS } from "../../src/control/events.js";
import { Slots } from "../../src/http/journal/slots.js";
import { createTestSim } from "../support/sim.js";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("issue 26, case 6: each /__sim/events listener rescans the whole journal every 200 ms", () => {
  it("a tick reads no journal entry: listeners of an idle shop cost a comparison, the busy shop's listener hears of its entry", async () => {
    const sim = createTestSim({ customers: 0, journalSize: 300 });
    const idle = (await sim.call("POST", "/__sim/shops", { body: { customers: 0 } })).body;
    for (let i = 0; i < 300; i++) await sim.call("GET", "/shop");
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const heard: { shop: string; event: string; data: unknown }[] = [];
    const listen = (shopId: string, isDefault: boolean) => sim.events.subscribe(shopId, isDefault, (event, data) => heard.push({ shop: shopId, event, data }), () => undefined);
    const reads = vi.spyOn(Slots.prototype, "read");
    for (let i = 0; i < 20; i++) listen(idle.id, false);
    listen(sim.shop.id, true);
    // Subscribing reads nothing either: the newest id is known.
    expect(reads).toHaveBeenCalledTimes(0);
    expect(heard.filter((h) => h.shop === idle.id).map((h) => h.data)).toEqual(Array(20).fill({ lastId: 0 }));
    expect(heard.at(-1)).toEqual({ shop: sim.shop.id, event: "journal", data: { lastId: 300 } });
    heard.length = 0;

    await sim.call("GET", "/shop");
    vi.advanceTimersByTime(TICK_MS);
    expect(reads).toHaveBeenCalledTimes(0);
    expect(heard).toEqual([{ shop: sim.shop.id, event: "journal", data: { lastId: 301 } }]);
    // The idle shop's own request reaches its listeners alone.
    heard.length = 0;
    await sim.call("GET", "/shop", { headers: { "X-Api-Key": idle.apiKey, "X-Api-Secret": idle.apiSecret } });
    vi.advanceTimersByTime(TICK_MS);
    expect(heard).toEqual(Array(20).fill({ shop: idle.id, event: "journal", data: { lastId: 302 } }));
    expect(reads).toHaveBeenCalledTimes(0);
    sim.events.close();
  });

  it("a shop whose entries were all pushed out of the ring, or cleared, has no newest entry again", async () => {
    const sim = createTestSim({ customers: 0, journalSize: 3 });
    const other = (await sim.call("POST", "/__sim/shops", { body: { customers: 0 } })).body;
    const asOther = { headers: { "X-Api-Key": other.apiKey, "X-Api-Secret": other.apiSecret } };
    await sim.call("GET", "/shop", asOther);
    expect(sim.journal.newestId(other.id, false)).toBe(1);
    for (let i = 0; i < 3; i++) await sim.call("GET", "/shop");
    expect([sim.journal.newestId(other.id, false), sim.journal.newestId(sim.shop.id, true)]).toEqual([0, 4]);
    await sim.call("GET", "/shop", asOther);
    sim.journal.clear(sim.shop.id, true);
    expect([sim.journal.newestId(other.id, false), sim.journal.newestId(sim.shop.id, true)]).toEqual([5, 0]);
    // Requests that named no shop are the default shop's to see.
    await sim.call("GET", "/shop", { auth: false });
    expect([sim.journal.newestId(other.id, false), sim.journal.newestId(sim.shop.id, true), sim.journal.newestId(sim.shop.id, false)]).toEqual([5, 6, 0]);
  });
});
