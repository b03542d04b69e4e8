/**
 * Builds a simulator (engine + app) from validated options: loads the fixture and scenarios,
 * applies credential and quota overrides, and seeds the default shop, or restores every shop from
 * the `--data` file when it exists. The CLI, the library and the tests all build it here.
 * @module
 */
import { createApp } from "../app/app.js";
import { ConfigError, envName, flagName, type SimulatorConfig } from "../config.js";
import type { SimClock } from "../engine/clock.js";
import { Engine, type ShopSpec } from "../engine/engine.js";
import { shopGenerator } from "../program/generate.js";
import { defaultFixturePath, loadFixtureFile } from "../program/load.js";
import type { RequestLogLine } from "../http/journal/recorder.js";
import { loadScenarioFile } from "../scenarios/load.js";
import type { Scenario } from "../scenarios/schema.js";
import { DataFile, type DataFileHooks } from "../persistence/data-file.js";

export const DEFAULT_SHOP_ID = "1";

export function defaultShopSpec(config: SimulatorConfig): ShopSpec {
  const fixture = loadFixtureFile(config.fixtures ?? defaultFixturePath());
  const written = fixture.customers?.customers.length ?? 0;
  if (written + config.customers > config.maxCustomers) {
    throw new ConfigError(`Invalid options:\n  ${flagName("customers")} (${envName("customers")}): ${config.customers} generated and the fixture's ${written} make more than ${flagName("maxCustomers")} allows (${config.maxCustomers}); lower --customers or raise --max-customers`);
  }
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
    ...(fixture.customers && { fixtureCustomers: fixture.customers }),
  };
}

export interface BuildOptions {
  /** Makes each shop's clock (default: real time). */
  newClock?: () => SimClock;
  /** Changes the default shop before it is seeded (a program or access of its own); not for a restored one. */
  defaultShop?: (spec: ShopSpec) => void;
  /** Scenarios loaded at start, given as values: after those of the config's files. */
  scenarios?: Scenario[];
  dataFileHooks?: DataFileHooks;
  onBug?: (error: unknown) => void;
  onRequest?: (line: RequestLogLine) => void;
  /** Set by `listen` on a loopback address: the control API then refuses other Host names. */
  loopbackHostsOnly?: boolean;
}

export function buildSimulator(config: SimulatorConfig, options: BuildOptions = {}) {
  const engine = new Engine({ generator: shopGenerator, ...(options.newClock && { newClock: options.newClock }) });
  // Opening the file takes its lock: held until close (`DataFile.stop`), or given up if the start fails.
  const dataFile = config.data !== undefined ? new DataFile(config.data, engine, config.flushMs, options.dataFileHooks) : undefined;
  try {
    return assemble(config, options, engine, dataFile);
  } catch (error) {
    dataFile?.release();
    throw error;
  }
}

function assemble(config: SimulatorConfig, options: BuildOptions, engine: Engine, dataFile: DataFile | undefined) {
  const restored = dataFile?.load() ?? false;
  if (!restored) {
    const spec = defaultShopSpec(config);
    options.defaultShop?.(spec);
    engine.addShop(spec);
  }
  const scenarios = [...config.scenario.map((file) => loadScenarioFile(file)), ...(options.scenarios ?? [])];
  const built = createApp({
    engine,
    scenarios,
    seed: config.seed,
    journalSize: config.journalSize,
    cors: config.cors,
    inspector: config.inspector,
    limits: {
      maxShops: config.maxShops,
      maxCustomers: config.maxCustomers,
      maxScenarios: config.maxScenarios,
      maxScenarioRules: config.maxScenarioRules,
      maxScenarioBytes: config.maxScenarioBytes,
    },
    ...(options.loopbackHostsOnly && { loopbackHostsOnly: true }),
    ...(config.latency !== undefined && { latency: config.latency }),
    ...(options.onBug && { onBug: options.onBug }),
    ...(options.onRequest && { onRequest: options.onRequest }),
    ...(dataFile && { onReset: () => dataFile.flush(), dataFileFailure: () => dataFile.failure }),
  });
  return { engine, shop: engine.defaultShop(), dataFile, restored, ...built };
}

export type BuiltSimulator = ReturnType<typeof buildSimulator>;
