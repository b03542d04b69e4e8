/**
 * `--target self`: a simulator with the default options, in process. Its clock starts at the
 * bundled program's reference date and runs from there, so its seeded customers (balances, tiers,
 * codes) are the same on every run, whatever the date: a seeded balance would otherwise expire a
 * year after the customer's last visit.
 * @module
 */
import { SimClock } from "../engine/clock.js";
import { defaultFixturePath, loadFixtureFile } from "../program/load.js";
import { createSimulator } from "../simulator/in-process.js";

export function createSelfSimulator(credentials: { apiKey?: string | undefined; apiSecret?: string | undefined } = {}) {
  const { referenceDate } = loadFixtureFile(defaultFixturePath());
  const offset = referenceDate - Date.now();
  return createSimulator({
    ...(credentials.apiKey && { apiKey: credentials.apiKey }),
    ...(credentials.apiSecret && { apiSecret: credentials.apiSecret }),
    logLevel: "silent",
    newClock: () => new SimClock(() => Date.now() + offset),
  });
}
