/**
 * Screenshots of each inspector page for docs/inspector.md: `npm run build && node --import tsx
 * scripts/inspector-screenshots.ts`. Starts the built CLI, makes a few API calls (a 200, an
 * INSUFFICIENT_STAMPS refusal, a 404, one answered by a scenario), and writes docs/inspector/*.png.
 * @module
 */
import { mkdirSync } from "node:fs";
import { launchBrowser } from "../test/support/browser.js";
import { startCli, stopCli } from "../test/support/cli.js";

const OUT = new URL("../docs/inspector/", import.meta.url);
const AUTH = { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret", "Content-Type": "application/json" };

const cli = await startCli(["--port", "0", "--customers", "20", "--quiet"]);
const browser = await launchBrowser();
try {
  const call = async (method: string, path: string, body?: object, headers: Record<string, string> = AUTH) => {
    const res = await fetch(`${cli.origin}${path}`, { method, headers, ...(body && { body: JSON.stringify(body) }) });
    // The calls that refuse on purpose (422 redemption, 404, the scenario's 429) are expected.
    if (res.status >= 500 || (path.startsWith("/__sim") && res.status >= 400)) throw new Error(`${method} ${path}: ${res.status}`);
    return res;
  };
  await call("POST", "/__sim/customers", { id: "5550001", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", stampBalance: 7 });
  await call("POST", "/rest_api/v1/customers/5550001/stamps/award", { stamps: 2 });
  await call("GET", "/rest_api/v1/customers/5550001");
  await call("POST", "/rest_api/v1/customers/5550001/redemptions", { reward_product_id: 103 });
  await call("GET", "/rest_api/v1/customers/nobody");
  await call("POST", "/__sim/scenarios", { name: "stamps-rate-limited", rules: [{ match: { operation: "awardStamps" }, respond: { error: "RATE_LIMITED" }, times: 1 }] });
  await call("POST", "/rest_api/v1/customers/5550001/stamps/award", { stamps: 1 });
  await call("GET", "/rest_api/v1/rewards");
  const redemption = (await (await call("GET", "/__sim/requests?operation=redeemReward&limit=1")).json()) as { requests: { id: number }[] };

  mkdirSync(OUT, { recursive: true });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const shots: [string, string][] = [
    ["requests", "/__sim/ui/requests"],
    ["why", `/__sim/ui/requests/${redemption.requests[0]!.id}`],
    ["errors", "/__sim/ui/errors"],
    ["customer", "/__sim/ui/customers/5550001"],
    ["scenarios", "/__sim/ui/scenarios"],
    ["clock", "/__sim/ui/clock"],
    ["shops", "/__sim/ui/shops"],
  ];
  for (const [name, path] of shots) {
    await page.goto(`${cli.origin}${path}`);
    await page.screenshot({ path: new URL(`${name}.png`, OUT).pathname });
    console.log(`docs/inspector/${name}.png`);
  }
} finally {
  await browser.close();
  await stopCli(cli);
}
