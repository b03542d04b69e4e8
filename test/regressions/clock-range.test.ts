/**
 * Regression (issue 17, case 2): `POST /__sim/clock {"advanceSeconds":1e15}` answered 500 yet
 * moved the clock, after which awards answered 500 but were committed and customers answered 500
 * on every read; `1.79e308` gave a NaN clock (`Retry-After: NaN`). The clock now stays in years
 * 1970-9999: anything else is 422 naming the field and changes nothing. And a timestamp is always
 * writable: isoTimestamp never throws.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CLOCK_MAX_MS, isoTimestamp } from "../../src/engine/clock.js";
import { generateShopData } from "../../src/program/generate.js";
import { defaultFixturePath, parseFixture } from "../../src/program/load.js";
import { createTestSim, NOW, NOW_ISO } from "../support/sim.js";

const OUTSIDE = "would put the clock outside 1970-01-01T00:00:00+00:00 to 9999-12-31T23:59:59+00:00";

describe("the clock stays in years 1970-9999", () => {
  it.each([
    [{ advanceSeconds: 1e15 }, "advanceSeconds"],
    [{ advanceSeconds: 1.79e308 }, "advanceSeconds"],
    [{ advanceSeconds: -1.79e308 }, "advanceSeconds"],
    [{ advanceSeconds: -(NOW / 1000) - 1 }, "advanceSeconds"],
    [{ advanceSeconds: 1e15, frozen: false }, "advanceSeconds"],
    [{ set: "1969-12-31T23:59:59Z" }, "set"],
    [{ set: "0000-01-01T00:00:00Z", frozen: false }, "set"],
  ])("%j is 422 naming %s and changes nothing", async (body, field) => {
    const sim = createTestSim({ customers: 3 });
    const res = await sim.call("POST", "/__sim/clock", { body });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details).toStrictEqual([{ in: "body", path: field, message: OUTSIDE }]);
    expect((await sim.call("GET", "/__sim/clock")).body).toStrictEqual({ now: NOW_ISO, frozen: true });
    const id = sim.activeCustomer();
    const award = await sim.call("POST", `/customers/${id}/stamps/award`, { body: { stamps: 1 } });
    expect(award.status).toBe(200);
    const activities = await sim.call("GET", `/customers/${id}/activities?limit=1`);
    expect(activities.body.data[0].createdAt).toBe(NOW_ISO);
  });

  it("reaches both ends exactly, and every call there answers (no 500)", async () => {
    const sim = createTestSim({ customers: 3 });
    const clock = (body: object) => sim.call("POST", "/__sim/clock", { body });
    expect((await clock({ set: "9999-12-31T23:59:59Z" })).body).toStrictEqual({ now: "9999-12-31T23:59:59+00:00", frozen: true });
    const past = await clock({ advanceSeconds: 1 });
    expect([past.status, past.body.error.details[0].path]).toEqual([422, "advanceSeconds"]);
    const id = sim.activeCustomer();
    expect((await sim.call("POST", `/customers/${id}/stamps/award`, { body: { stamps: 2 } })).status).toBe(200);
    // Stamps earned at the end of time expire a year later, past it: written as its last second (issue 35, item 10).
    const customer = await sim.call("GET", `/customers/${id}`);
    expect(customer.body.data.stampsExpireAt).toBe("9999-12-31T23:59:59+00:00");
    expect((await sim.call("GET", `/customers/${id}/activities`)).status).toBe(200);

    expect((await clock({ set: "1970-01-01T00:00:00Z" })).body).toStrictEqual({ now: "1970-01-01T00:00:00+00:00", frozen: true });
    const before = await clock({ advanceSeconds: -0.001 });
    expect([before.status, before.body.error.details[0].path]).toEqual([422, "advanceSeconds"]);
    expect((await sim.call("GET", `/customers/${id}`)).status).toBe(200);
    expect(sim.bugs).toEqual([]);
  });

  it("an unfrozen clock never runs past the end", () => {
    const sim = createTestSim({ customers: 0 });
    sim.clock.set(CLOCK_MAX_MS);
    sim.clock.freeze(false);
    sim.clock.advance(10_000);
    expect(sim.clock.now()).toBe(CLOCK_MAX_MS);
  });
});

describe("isoTimestamp is total", () => {
  it.each([
    [8.64e15, "9999-12-31T23:59:59+00:00"],
    [8.64e15 + 1, "9999-12-31T23:59:59+00:00"],
    [1e300, "9999-12-31T23:59:59+00:00"],
    [Number.POSITIVE_INFINITY, "9999-12-31T23:59:59+00:00"],
    [-1e300, "0000-01-01T00:00:00+00:00"],
    [Number.NEGATIVE_INFINITY, "0000-01-01T00:00:00+00:00"],
    [Number.NaN, "1970-01-01T00:00:00+00:00"],
  ])("%d is written as %s (the nearest plain year's bound)", (ms, text) => {
    expect(isoTimestamp(ms)).toBe(text);
  });
});

describe("seeded history stays in the clock's range", () => {
  it.each(["1971-12-01T00:00:00Z", "0001-01-01T00:00:00Z"])("a fixture whose reference date is %s is refused, naming it", (at) => {
    const fixture = JSON.parse(readFileSync(defaultFixturePath(), "utf8"));
    fixture.generation = { referenceDate: at };
    expect(() => parseFixture(fixture, "inline")).toThrow(
      "  - generation.referenceDate: must leave its 720 days of history within 1970-01-01T00:00:00+00:00 to 9999-12-31T23:59:59+00:00\n",
    );
  });

  it("the earliest reference date allowed seeds no instant before 1970", () => {
    const fixture = JSON.parse(readFileSync(defaultFixturePath(), "utf8"));
    fixture.generation = { referenceDate: "1971-12-22T00:00:00Z" };
    const { program, access, referenceDate } = parseFixture(fixture, "inline");
    const data = generateShopData({ id: "1", program, access, seed: 3, customers: 30, referenceDate });
    const instants = [...data.customers.map((c) => c.createdAt), ...data.activities.map((a) => a.createdAt), ...data.codes.map((c) => c.createdAt)];
    expect(Math.min(...instants)).toBeGreaterThanOrEqual(0);
  });
});
