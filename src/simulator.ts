/**
 * Builds a running simulator (engine + app) from validated options: loads the fixture, applies
 * credential and quota overrides, and seeds the default shop.
 * @module
 */
import { createApp } from "./app.js";
import type { SimulatorConfig } from "./config.js";
import { Engine } from "./engine/engine.js";
import type { SimClock } from "./engine/clock.js";
import { defaultFixturePath, loadFixtureFile } from "./fixtures/load.js";
import type { ShopSpec } from "./engine/engine.js";

export const DEFAULT_SHOP_ID = "1";

export function defaultShopSpec(config: SimulatorConfig): ShopSpec {
  const fixture = loadFixtureFile(config.fixtures ?? defaultFixturePath());
  const access = { ...fixture.access };
  if (config.apiKey !== undefined) access.apiKey = config.apiKey;
  if (config.apiSecret !== undefined) access.apiSecret = config.apiSecret;
  if (config.rateLimit !== undefined) access.rateLimit = config.rateLimit === "off" ? null : config.rateLimit;
  return {
    id: DEFAULT_SHOP_ID,
    program: fixture.program,
    access,
    seed: config.seed,
    customers: config.customers,
    referenceDate: fixture.referenceDate,
  };
}

export function buildSimulator(config: SimulatorConfig, options: { clock?: SimClock; onBug?: (error: unknown) => void } = {}) {
  const engine = new Engine(options.clock ? { clock: options.clock } : {});
  const shop = engine.addShop(defaultShopSpec(config));
  const { app, limiter } = createApp({ engine, ...(options.onBug && { onBug: options.onBug }) });
  return { engine, shop, app, limiter };
}
