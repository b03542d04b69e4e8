/** The inspector's Clock page through `app.request`: now, advance, set (a refusal inline), freeze, upcoming events. */
import { describe, expect, it } from "vitest";
import { createTestSim, NOW_ISO } from "../support/sim.js";

type Sim = ReturnType<typeof createTestSim>;

async function post(sim: Sim, form: Record<string, string>) {
  const res = await sim.app.request("/__sim/ui/clock", { method: "POST", headers: { "HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form).toString() });
  return { status: res.status, text: await res.text() };
}

describe("Clock", () => {
  it("shows now, frozen, and the next expiry", async () => {
    const sim = createTestSim({ customers: 0 });
    const made = await sim.call("POST", "/__sim/customers", { body: { id: "5550001", firstName: "Ada", lastName: "L", email: "a@example.com", stampBalance: 7 } });
    expect(made.status).toBe(201);
    const text = await (await sim.app.request("/__sim/ui/clock")).text();
    expect(text).toContain(`<strong id="now">${NOW_ISO}</strong> (frozen)`);
    expect(text).toContain('<div id="clock" data-reload="clock reset" data-src="/__sim/ui/clock/panel">');
    expect(text).toContain('<td>2027-11-23T12:00:00+00:00</td><td>7 stamps of customer 5550001 expire</td><td><a href="/__sim/ui/customers/5550001">5550001</a></td>');
  });

  it("+1d advances the shop's clock by a day", async () => {
    const sim = createTestSim({ customers: 0 });
    const { status, text } = await post(sim, { advanceSeconds: "86400" });
    expect(status).toBe(200);
    expect(text).toContain('<strong id="now">2026-11-24T12:00:00+00:00</strong>');
    expect((await sim.call("GET", "/__sim/clock")).body.now).toBe("2026-11-24T12:00:00+00:00");
  });

  it("sets, unfreezes, and shows a refused set inline", async () => {
    const sim = createTestSim({ customers: 0 });
    expect((await post(sim, { set: "2030-01-02T03:04:05+00:00" })).text).toContain('<strong id="now">2030-01-02T03:04:05+00:00</strong>');
    const refused = await post(sim, { set: "yesterday" });
    expect(refused.text).toContain('<div class="problem" role="alert"><strong>422</strong>');
    expect(refused.text).toContain("<li><code>body set</code>: ");
    expect((await post(sim, { frozen: "false" })).text).toContain("(running)");
    expect((await sim.call("GET", "/__sim/clock")).body.frozen).toBe(false);
  });
});
