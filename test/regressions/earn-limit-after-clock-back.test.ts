/**
 * Regression (issue 26, case 8): a once-a-week earn rule earned on a day was earned again the next
 * day when, in between, the clock had been set back and a stamp awarded. The window scan walked
 * the ledger newest first and stopped at the first entry older than the window, as if the ledger
 * were in time order; the award dated in the past hid the earn before it. An earn counts for a
 * window while it is newer than the window's start, also when it is dated after now (the clock was
 * set back after it): the rule reopens a full period after the earn, whatever the clock did.
 */
import { describe, expect, it } from "vitest";
import { DAY_MS, isoTimestamp } from "../../src/engine/clock.js";
import { LedgerOrder } from "../../src/store/ledger-order.js";
import type { ActivityRecord } from "../../src/store/types.js";
import { createTestSim, NOW } from "../support/sim.js";

/** Share us on Facebook: once a week. */
const WEEKLY = 203;

function setup() {
  const sim = createTestSim({ customers: 0, program: (p) => void (p.settings.expiry = { mode: "off" }) });
  const { id } = sim.shop.syncCustomer({ firstName: "Ida", lastName: "Noddack", email: "ida@example.com" });
  const at = (day: number) => sim.call("POST", "/__sim/clock", { body: { set: isoTimestamp(NOW + day * DAY_MS) } });
  const earn = () => sim.call("POST", `/customers/${id}/activities`, { body: { earn_rule_id: WEEKLY } });
  const award = () => sim.call("POST", `/customers/${id}/stamps/award`, { body: { stamps: 1 } });
  return { ...sim, id, at, earn, award };
}

describe("issue 26, case 8: earn-rule limits are bypassed after the clock goes back", () => {
  it("earned on day 10, the clock set back to day 1 for an award, then day 11: refused, the rule reopens on day 17", async () => {
    const sim = setup();
    await sim.at(10);
    expect((await sim.earn()).status).toBe(200);
    await sim.at(1);
    expect((await sim.award()).status).toBe(200);
    await sim.at(11);
    const before = JSON.stringify(sim.shop.store.data);
    const res = await sim.earn();
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: "ACTIVITY_NOT_AWARDED", message: "Earn rule 203 (Share us on Facebook) can be awarded at most 1 time(s) per week" });
    expect(JSON.stringify(sim.shop.store.data)).toBe(before);
    await sim.at(17);
    expect((await sim.earn()).status).toBe(200);
  });

  it("an earn dated after now (the clock was set back past it) counts: on day 3 the day-10 earn still holds the rule", async () => {
    const sim = setup();
    await sim.at(10);
    expect((await sim.earn()).status).toBe(200);
    await sim.at(3);
    expect((await sim.earn()).body.error.code).toBe("ACTIVITY_NOT_AWARDED");
    const { upcoming } = (await sim.call("GET", `/__sim/customers/${sim.id}`)).body;
    expect(upcoming.filter((e: { kind: string }) => e.kind === "earnRuleReopens")).toStrictEqual([
      {
        kind: "earnRuleReopens",
        at: isoTimestamp(NOW + 17 * DAY_MS),
        customerId: sim.id,
        earnRuleId: String(WEEKLY),
        detail: `earn rule ${WEEKLY} (Share us on Facebook) may award again (limit 1 per week)`,
      },
    ]);
  });

  it("the window holds with many entries dated in the past after the earn (the scan is not stopped by them)", async () => {
    const sim = setup();
    await sim.at(10);
    expect((await sim.earn()).status).toBe(200);
    await sim.at(-300);
    for (let i = 0; i < 5; i++) expect((await sim.award()).status).toBe(200);
    await sim.at(16);
    expect((await sim.earn()).body.error.code).toBe("ACTIVITY_NOT_AWARDED");
    await sim.at(17);
    expect((await sim.earn()).status).toBe(200);
    expect(sim.shop.ledgerMismatches()).toEqual([]);
  });

  it("the scan's bound: how far a ledger steps back in time, 0 again once the entries out of order are taken away", () => {
    const order = new LedgerOrder();
    const ledger: ActivityRecord[] = [];
    const append = (at: number) => {
      order.note("c", ledger.at(-1), at);
      ledger.push({ id: ledger.length + 1, customerId: "c", kind: "award", label: "", stampChange: 1, createdAt: at });
    };
    append(10);
    append(20);
    expect(order.stepBack("c")).toBe(0);
    append(5);
    append(12);
    expect(order.stepBack("c")).toBe(15);
    append(30);
    append(26);
    expect(order.stepBack("c")).toBe(15);
    ledger.splice(2);
    order.measure("c", ledger);
    expect(order.stepBack("c")).toBe(0);
    append(18);
    expect(order.stepBack("c")).toBe(2);
  });
});
