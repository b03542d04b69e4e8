/**
 * A shop of one test file, in the run's simulator (global-setup.ts): its own customers, clock,
 * scenarios, journal and quota, so files that run at the same time never see each other's. It
 * is deleted after the file, so a watch-mode run does not pile shops up.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, inject } from "vitest";
import { createClient, createControlClient, type NewShop } from "loyalty-sim";

export async function fileShop(options: NewShop = {}) {
  const url = inject("loyaltyUrl");
  const { apiKey, apiSecret } = await createControlClient(fetch, url).createShop(options);
  afterAll(async () => {
    // What this file's requests met goes with the shop: kept for the run's coverage report (global-setup.ts).
    const report = await createControlClient(fetch, url, { apiKey }).coverage();
    writeFileSync(join(inject("meetingDir"), `coverage-${apiKey}.json`), JSON.stringify(report));
    await createControlClient(fetch, url).deleteShop(apiKey);
  });
  return {
    apiKey,
    /** The API, typed: every documented status with its body. */
    api: createClient({ origin: url, apiKey, apiSecret }),
    /** The control API of this shop alone: its clock, scenarios, journal, reset(). */
    control: createControlClient(fetch, url, { apiKey }),
  };
}
