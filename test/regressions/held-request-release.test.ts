/**
 * A request held by a `timeout` fault ends once the client gives up, even after a garbage
 * collection: in-process and through interception, the held handler used to wait on its Request's
 * own signal, which undici links to the caller's only through a WeakRef, so a collection could
 * leave it waiting for ever (never journaled, never released: the intercept test's flake).
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createSimulator, PRODUCTION_ORIGIN, type InProcessSimulator } from "../../src/index.js";
import { HANG_MS } from "../support/patience.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

let sim: InProcessSimulator | undefined;
afterEach(() => sim?.restore());

describe.each([
  ["sim.fetch", (s: InProcessSimulator) => s.fetch, (s: InProcessSimulator) => `${s.baseUrl}/shop`],
  ["intercepted fetch", (s: InProcessSimulator) => (s.intercept(), fetch), () => `${PRODUCTION_ORIGIN}/rest_api/v1/shop`],
])("%s", (_, fetchOf, urlOf) => {
  it("a held request is released and journaled when the caller aborts after a garbage collection", async () => {
    sim = createSimulator({ customers: 0 });
    await sim.control.addScenario({ name: "hold", rules: [{ match: { operation: "getShop" }, respond: { fault: "timeout" } }] });
    const doFetch = fetchOf(sim);
    for (let i = 0; i < 3; i++) {
      const controller = new AbortController();
      const held = doFetch(urlOf(sim), { headers: { "X-Api-Key": sim.apiKey, "X-Api-Secret": sim.apiSecret }, signal: controller.signal });
      await new Promise((r) => setTimeout(r, 20));
      gc();
      controller.abort(new Error("gave up"));
      await expect(held).rejects.toThrow("gave up");
      await vi.waitFor(async () => expect(await sim!.control.count({ operation: "getShop" })).toBe(i + 1), { timeout: HANG_MS, interval: 20 });
    }
  });
});
