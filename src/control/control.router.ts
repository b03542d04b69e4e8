/**
 * Handlers of the simulator control API. The shop a call acts on is chosen by `X-Api-Key`
 * (the default shop without it); `POST /__sim/reset` without it resets everything.
 * @module
 */
import { randomBytes } from "node:crypto";
import type { Limits } from "../config.js";
import type { Coverage } from "../coverage/counters.js";
import type { Engine } from "../engine/engine.js";
import { DomainError } from "../engine/errors.js";
import { inClockRange, isoTimestamp } from "../engine/clock.js";
import type { ShopEngine } from "../engine/shop-engine.js";
import type { Quotas } from "../http/gates/credentials.js";
import type { Exchange } from "../http/exchange.js";
import { invalidInput } from "../http/errors.js";
import type { Journal, JournalFilter } from "../http/journal/journal.js";
import type { Mount } from "../http/mount.js";
import { jsonTextValues } from "../http/json-depth.js";
import { bodyOf, checked, clientSignal, isJsonType, readJson, requestHeader } from "../http/request-input.js";
import { MAX_SCENARIO_VALUES, SCENARIO_TEXT_LIMIT, scenarioBytes, TOO_MANY_VALUES, YAML_SCENARIO_LIMIT } from "../scenarios/limits.js";
import { parseScenarioText, ScenarioError } from "../scenarios/load.js";
import { pathGlob } from "../scenarios/glob.js";
import type { ScenarioRegistry } from "../scenarios/registry.js";
import { scenarioSchema, type Scenario } from "../scenarios/schema.js";
import type { DataFileFailure } from "../persistence/data-file.js";
import { VERSION } from "../version.js";
import type { EventHub } from "./events.js";
import * as routes from "./control.routes.js";
import type { RequestsQuery } from "./control.schemas.js";
import { checkMoreCustomers, checkNewShop, checkScenario } from "./limits.js";
import { CLOCK_RANGE_RULE } from "./control.schemas.js";

export interface ControlDeps {
  engine: Engine;
  registry: ScenarioRegistry;
  journal: Journal;
  limiter: Quotas;
  limits: Limits;
  onReset?: () => Promise<void>;
  /** Why and since when writes to the `--data` file fail, while they do. */
  dataFileFailure?: () => DataFileFailure | undefined;
  /** Told of changes for the event stream (`GET /__sim/events`). */
  events?: Pick<EventHub, "changed">;
  /** The coverage counters, cleared with their shop. */
  coverage?: Pick<Coverage, "clear">;
}

const DEFAULT_SHOP_STAYS =
  "is the default shop's, which cannot be deleted: control calls without X-Api-Key act on it (reset it instead: POST /__sim/reset with its X-Api-Key)";
const NO_SUCH_SHOP = "names no shop of this simulator (see GET /__sim/shops)";
const YAML_TYPE = /^application\/yaml\s*(;|$)/i;

/** The shop of `X-Api-Key` (the default shop without it), whose clock then times the answer. */
function shopFor(exchange: Exchange, engine: Engine): { shop: ShopEngine; isDefault: boolean } {
  const key = requestHeader(exchange.c, "x-api-key");
  const fallback = engine.defaultShop();
  const shop = key === undefined ? fallback : engine.shopByApiKey(key);
  if (!shop) throw invalidInput("header", "X-Api-Key", NO_SUCH_SHOP);
  exchange.clock = shop.clock;
  return { shop, isDefault: shop === fallback };
}

/** The journal filter of a control call: its shop's entries (for the default shop, unidentified ones too), then the query's. */
function journalFilter(exchange: Exchange, engine: Engine, q: RequestsQuery): JournalFilter {
  const { shop, isDefault } = shopFor(exchange, engine);
  return requestsFilter(shop, isDefault, q);
}

/** The journal filter of `q` over one shop's entries (for the default shop, unidentified ones too). */
export function requestsFilter(shop: ShopEngine, isDefault: boolean, q: RequestsQuery): JournalFilter {
  const { method, path, ...exact } = q;
  return {
    shopId: shop.id,
    includeUnidentified: isDefault,
    ...exact,
    ...(method !== undefined && { method: method.toUpperCase() }),
    ...(path !== undefined && { path: pathGlob(path) }),
  };
}

function shopInfo(engine: Engine, shop: ShopEngine) {
  const spec = engine.spec(shop.id)!;
  const { apiKey, apiSecret, plan, apiAccess, rateLimit } = shop.access;
  return { id: shop.id, apiKey, apiSecret, seed: spec.seed, customers: shop.store.customerCount, activities: shop.store.data.activities.length, plan, apiAccess, rateLimit };
}

export function controlRouter(mount: Mount, deps: ControlDeps) {
  const { engine, registry, journal, limiter, limits } = deps;
  const startedAt = performance.now();
  const clockView = (shop: ShopEngine) => ({ now: isoTimestamp(shop.clock.now()), frozen: shop.clock.frozen });
  // What the engine does not hold of a shop: its journal entries (for the default shop, also those
  // of requests that named no shop), rate window and scenarios.
  const forget = (shopId: string, isDefault: boolean) => {
    journal.clear(shopId, isDefault);
    limiter.clear(shopId);
    registry.resetShop(shopId);
    deps.coverage?.clear(shopId);
  };
  // Shops are generated again in slices (other requests are answered meanwhile); the rest is
  // cleared once they are done, so requests served during the reset are forgotten too.
  const resetAll = async () => {
    const shops = await engine.resetShopsInSlices();
    journal.clear();
    limiter.clear();
    registry.reset();
    deps.coverage?.clear();
    await deps.onReset?.();
    return shops;
  };
  const resetShop = async (shop: ShopEngine, isDefault: boolean) => {
    // Deleted while it waited for another reset to end.
    if (!(await engine.resetShopInSlices(shop.id))) throw invalidInput("header", "X-Api-Key", NO_SUCH_SHOP);
    forget(shop.id, isDefault);
    await deps.onReset?.();
    return 1;
  };
  // One reset at a time (each holds a second copy of the shop it is making): one asked for during
  // another runs after it.
  let lastReset: Promise<unknown> = Promise.resolve();

  return mount()
    .route(routes.simHealth, (c) => {
      const up = { version: VERSION, uptimeMs: Math.round(performance.now() - startedAt) };
      const failure = deps.dataFileFailure?.();
      if (failure) return c.json({ status: "degraded" as const, ...up, dataFile: failure }, 503);
      return c.json({ status: "ok" as const, ...up }, 200);
    })
    .route(routes.simReset, async (c, exchange) => {
      const one = requestHeader(c, "x-api-key") === undefined ? undefined : shopFor(exchange, engine);
      const mine = lastReset.then(() => (one ? resetShop(one.shop, one.isDefault) : resetAll()));
      lastReset = mine.catch(() => undefined);
      const shops = await mine;
      deps.events?.changed("reset", one ? one.shop.id : "*");
      return c.json({ reset: true as const, shops }, 200);
    })
    .route(routes.simListScenarios, (c, exchange) => c.json({ scenarios: registry.list(shopFor(exchange, engine).shop.id) }, 200))
    .route(routes.simAddScenario, async (c, exchange) => {
      const { shop } = shopFor(exchange, engine);
      const type = requestHeader(c, "content-type");
      let scenario: Scenario;
      if (type !== undefined && YAML_TYPE.test(type)) {
        const text = bodyOf(exchange);
        if (Buffer.byteLength(text) > YAML_SCENARIO_LIMIT) {
          throw new DomainError("PAYLOAD_TOO_LARGE", `A YAML scenario is limited to ${YAML_SCENARIO_LIMIT / 1024} KiB; send a larger one as JSON (up to ${SCENARIO_TEXT_LIMIT / 1024 / 1024} MiB)`);
        }
        try {
          scenario = parseScenarioText(text, "yaml", "in the request body");
        } catch (error) {
          if (error instanceof ScenarioError) throw new DomainError("VALIDATION_ERROR", undefined, error.issues);
          throw error;
        }
      } else if (!type && bodyOf(exchange) === "") {
        throw invalidInput("header", "Content-Type", "must be application/json or application/yaml, got none");
      } else {
        // Values counted before JSON.parse makes them. No depth limit on the text: the schema
        // names the field that nests too deeply.
        const text = bodyOf(exchange);
        if (isJsonType(type) && jsonTextValues(text, MAX_SCENARIO_VALUES) > MAX_SCENARIO_VALUES) {
          throw invalidInput("body", "(root)", TOO_MANY_VALUES, "Scenario holds too many JSON values");
        }
        scenario = checked(exchange, scenarioSchema, readJson(exchange, false), "body") as Scenario;
      }
      const own = registry.list(shop.id).filter((s) => s.owner === "this shop");
      const bytes = scenarioBytes(scenario);
      const total = registry.bytes - registry.bytesOf(scenario.name, shop.id) + bytes;
      checkScenario(limits, scenario.rules.length, own.length + (own.some((s) => s.name === scenario.name) ? 0 : 1), bytes, total);
      registry.add(scenario, shop.id, bytes);
      deps.events?.changed("scenarios", shop.id);
      return c.json(registry.list(shop.id).find((s) => s.name === scenario.name && s.owner === "this shop")!, 201);
    })
    .route(routes.simDeleteScenario, (c, exchange) => {
      const { shop, isDefault } = shopFor(exchange, engine);
      const name = c.req.valid("param").name;
      if (!registry.remove(name, shop.id, isDefault)) throw new DomainError("NOT_FOUND", `Scenario ${name} is not active for this shop`);
      deps.events?.changed("scenarios", shop.id);
      return c.body(null, 204);
    })
    .route(routes.simClearScenarios, (c, exchange) => {
      const { shop, isDefault } = shopFor(exchange, engine);
      deps.events?.changed("scenarios", shop.id);
      return c.json({ removed: registry.clear(shop.id, isDefault) }, 200);
    })
    .route(routes.simListRequests, async (c, exchange) => {
      const { wait, count: needed = 1, ...query } = c.req.valid("query");
      const filter = journalFilter(exchange, engine, query);
      if (wait === undefined) {
        const { entries, count } = journal.select(filter);
        return c.json({ requests: entries, count }, 200);
      }
      // A wait the journal could never meet (it keeps fewer entries) is refused rather than timed out.
      if (wait > 0 && needed > journal.capacity) {
        throw invalidInput("query", c.req.query("count") === undefined ? "wait" : "count", `the journal keeps at most ${journal.capacity} entries (--journal-size ${journal.capacity}): waiting for ${needed} could never end; start the simulator with a larger --journal-size`);
      }
      // A client that gives up (or a server closing its connections) ends the wait.
      const met = await journal.until(filter, needed, wait, clientSignal(exchange));
      const { entries, count } = journal.select(filter);
      return c.json({ requests: entries, count, timedOut: !met }, 200);
    })
    .route(routes.simGetRequest, (c, exchange) => {
      const { shop, isDefault } = shopFor(exchange, engine);
      const id = c.req.valid("param").id;
      const entry = journal.get(id, { shopId: shop.id, includeUnidentified: isDefault });
      if (!entry) throw new DomainError("NOT_FOUND", `No journal entry ${id} for this shop (pushed out of the journal, cleared, or another shop's)`);
      return c.json(entry, 200);
    })
    .route(routes.simClearRequests, (c, exchange) => {
      const { shop, isDefault } = shopFor(exchange, engine);
      journal.clear(shop.id, isDefault);
      return c.body(null, 204);
    })
    .route(routes.simGetClock, (c, exchange) => c.json(clockView(shopFor(exchange, engine).shop), 200))
    .route(routes.simSetClock, (c, exchange) => {
      const { shop } = shopFor(exchange, engine);
      const { clock } = shop;
      const body = c.req.valid("json");
      // Both checked before anything changes: a refused change leaves the clock as it was.
      const setTo = body.set === undefined ? undefined : Date.parse(body.set);
      if (setTo !== undefined && !inClockRange(setTo)) throw invalidInput("body", "set", CLOCK_RANGE_RULE);
      const advanceMs = body.advanceSeconds === undefined ? undefined : Math.round(body.advanceSeconds * 1000);
      if (advanceMs !== undefined && !inClockRange(clock.now() + advanceMs)) throw invalidInput("body", "advanceSeconds", CLOCK_RANGE_RULE);
      if (setTo !== undefined) clock.set(setTo);
      if (advanceMs !== undefined) clock.advance(advanceMs);
      if (body.frozen !== undefined) clock.freeze(body.frozen);
      deps.events?.changed("clock", shop.id);
      return c.json(clockView(shop), 200);
    })
    .route(routes.simCreateShop, async (c) => {
      const body = c.req.valid("json");
      const template = engine.spec(engine.defaultShop().id)!;
      const customers = body.customers ?? template.customers;
      checkNewShop(engine, limits, customers);
      const id = engine.nextShopId();
      const shop = await engine.createShop({
        id,
        program: template.program,
        referenceDate: template.referenceDate,
        seed: body.seed ?? template.seed,
        customers,
        access: {
          apiKey: `sim_key_${id}`,
          apiSecret: `sim_secret_${randomBytes(8).toString("hex")}`,
          apiAccess: body.apiAccess ?? true,
          plan: body.plan ?? "paid",
          rateLimit: body.rateLimit === "off" ? null : (body.rateLimit ?? template.access.rateLimit),
        },
      });
      deps.events?.changed("shops");
      return c.json(shopInfo(engine, shop), 201);
    })
    .route(routes.simListShops, (c) => c.json({ shops: engine.shops().map((s) => shopInfo(engine, s)) }, 200))
    .route(routes.simDeleteShop, async (c) => {
      const { apiKey } = c.req.valid("param");
      const shop = engine.shopByApiKey(apiKey);
      if (!shop) throw new DomainError("NOT_FOUND", `No shop has the API key ${apiKey} (see GET /__sim/shops)`);
      if (shop === engine.defaultShop()) throw invalidInput("path", "apiKey", DEFAULT_SHOP_STAYS);
      engine.deleteShop(shop.id);
      forget(shop.id, false);
      deps.events?.changed("shops");
      await deps.onReset?.();
      return c.body(null, 204);
    })
    .route(routes.simCreateCustomer, (c, exchange) => {
      const { shop } = shopFor(exchange, engine);
      const body = c.req.valid("json");
      checkMoreCustomers(engine, limits, 1);
      return c.json(shop.syncCustomer(body), 201);
    })
    .route(routes.simMergeCustomer, (c, exchange) => {
      const { shop } = shopFor(exchange, engine);
      return c.json(shop.mergeCustomer(c.req.valid("param").id, c.req.valid("json").into), 200);
    })
    .router;
}
