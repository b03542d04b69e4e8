/**
 * Robustness probe (issue 26): many `/__sim/events` listeners over a full, large journal. A tick's
 * work must not grow with the journal: listeners of shops with no new entry cost nothing, and
 * every listener still hears what it should (a busy shop's listener its entry, an idle one's
 * nothing). Work is counted (journal entries decoded, journal selections), not timed.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { TICK_MS } from "../../src/control/events.js";
import { Journal } from "../../src/http/journal/journal.js";
import { Slots } from "../../src/http/journal/slots.js";
import { AUTH, BASE, createTestSim } from "../support/sim.js";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const LISTENERS = 100;

/** A simulator whose journal of `size` entries is full of the default shop's requests, and 100 listeners over two shops. */
async function listening(size: number) {
  const sim = createTestSim({ customers: 0, journalSize: size, access: { rateLimit: null } });
  const idle = (await sim.call("POST", "/__sim/shops", { body: { customers: 0, rateLimit: "off" } })).body;
  for (let i = 0; i < size; i++) expect((await sim.app.request(`${BASE}/shop`, { headers: AUTH })).status).toBe(200);
  expect(sim.journal.size).toBe(size);
  vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
  const heard = new Map<string, { event: string; data: unknown }[]>();
  const listen = (name: string, shopId: string, isDefault: boolean) => {
    heard.set(name, []);
    sim.events.subscribe(shopId, isDefault, (event, data) => heard.get(name)!.push({ event, data }), () => undefined);
  };
  // Nine in ten listen to a shop with no entry, the rest to the busy default shop.
  for (let i = 0; i < LISTENERS; i++) listen(`listener ${i}`, i % 10 === 0 ? sim.shop.id : idle.id, i % 10 === 0);
  for (const events of heard.values()) events.length = 0;
  return { sim, idle, heard };
}

/** Journal entries decoded and journal selections made while `run` runs. */
function work(run: () => void): { decoded: number; selections: number } {
  const decoded = vi.spyOn(Slots.prototype, "read");
  const selections = vi.spyOn(Journal.prototype, "select");
  run();
  const counted = { decoded: decoded.mock.calls.length, selections: selections.mock.calls.length };
  decoded.mockRestore();
  selections.mockRestore();
  return counted;
}

describe("listeners x journal size", () => {
  it.each([500, 5000])(`${LISTENERS} listeners over a full journal of %i entries: a tick reads no entry, and each listener hears its own shop's`, async (size) => {
    const { sim, idle, heard } = await listening(size);
    // A request of the busy shop: its listeners hear of it, the idle shop's listeners hear nothing.
    await sim.app.request(`${BASE}/shop`, { headers: AUTH });
    expect(work(() => vi.advanceTimersByTime(TICK_MS))).toEqual({ decoded: 0, selections: 0 });
    for (const [name, events] of heard) {
      const busy = Number(name.split(" ")[1]) % 10 === 0;
      expect([name, events]).toEqual([name, busy ? [{ event: "journal", data: { lastId: size + 1 } }] : []]);
      events.length = 0;
    }
    // Ticks with nothing new: nothing read, nothing sent.
    expect(work(() => vi.advanceTimersByTime(10 * TICK_MS))).toEqual({ decoded: 0, selections: 0 });
    expect([...heard.values()].flat()).toEqual([]);
    // A request of the idle shop reaches its listeners alone.
    await sim.app.request(`${BASE}/shop`, { headers: { "X-Api-Key": idle.apiKey, "X-Api-Secret": idle.apiSecret } });
    expect(work(() => vi.advanceTimersByTime(TICK_MS))).toEqual({ decoded: 0, selections: 0 });
    const told = [...heard].filter(([, events]) => events.length > 0);
    expect(told.length).toBe(LISTENERS - LISTENERS / 10);
    expect(told.every(([name, events]) => Number(name.split(" ")[1]) % 10 !== 0 && JSON.stringify(events) === JSON.stringify([{ event: "journal", data: { lastId: size + 2 } }]))).toBe(true);
    sim.events.close();
    expect([sim.events.listeners, sim.events.ticking]).toEqual([0, false]);
  });
});
