/**
 * Handlers of the control API's reads for the inspector: thin, over why.ts, customers-read.ts,
 * har.ts and events.ts. The shop is named by `?shop=` (id or API key), else by X-Api-Key, else
 * it is the default shop.
 * @module
 */
import { streamSSE } from "hono/streaming";
import { isoTimestamp } from "../engine/clock.js";
import type { Engine } from "../engine/engine.js";
import { DomainError } from "../engine/errors.js";
import type { ShopEngine } from "../engine/shop-engine.js";
import type { Exchange } from "../http/exchange.js";
import { invalidInput } from "../http/errors.js";
import type { Quotas } from "../http/gates/credentials.js";
import type { Journal } from "../http/journal/journal.js";
import type { Mount } from "../http/mount.js";
import { requestHeader } from "../http/request-input.js";
import type { ScenarioRegistry } from "../scenarios/registry.js";
import { requestsFilter } from "./control.router.js";
import { customerDetail, searchCustomers, upcomingEvents } from "./customers-read.js";
import type { EventHub } from "./events.js";
import { harLog } from "./har.js";
import * as routes from "./inspect.routes.js";
import { whyTrace } from "./why.js";

export interface InspectDeps {
  engine: Engine;
  registry: ScenarioRegistry;
  journal: Journal;
  limiter: Quotas;
  events: EventHub;
}

/** The shop a read names (`?shop=` id or API key, else X-Api-Key, else the default shop), whose clock then times the answer. */
export function inspectedShop(exchange: Exchange, engine: Engine): { shop: ShopEngine; isDefault: boolean } {
  const { c } = exchange;
  const named = c.req.query("shop");
  const key = requestHeader(c, "x-api-key");
  const fallback = engine.defaultShop();
  const shop = named !== undefined ? (engine.shop(named) ?? engine.shopByApiKey(named)) : key !== undefined ? engine.shopByApiKey(key) : fallback;
  if (!shop) throw named !== undefined ? invalidInput("query", "shop", "names no shop of this simulator by id or API key (see GET /__sim/shops)") : invalidInput("header", "X-Api-Key", "names no shop of this simulator (see GET /__sim/shops)");
  exchange.clock = shop.clock;
  return { shop, isDefault: shop === fallback };
}

export function inspectRouter(mount: Mount, deps: InspectDeps) {
  const { engine, registry, journal, limiter, events } = deps;
  return mount()
    .route(routes.simWhyRequest, (c, exchange) => {
      const { shop, isDefault } = inspectedShop(exchange, engine);
      const id = c.req.valid("param").id;
      const record = journal.record(id, { shopId: shop.id, includeUnidentified: isDefault });
      if (!record) throw new DomainError("NOT_FOUND", `No journal entry ${id} for this shop (pushed out of the journal, cleared, or another shop's)`);
      const scenarios = record.shopId === null ? [] : registry.list(record.shopId);
      return c.json(whyTrace(record, { scenarios, shopOfKey: (key) => engine.shopByApiKey(key)?.id }), 200);
    })
    .route(routes.simSearchCustomers, (c, exchange) => {
      const { shop } = inspectedShop(exchange, engine);
      const { q, after, limit } = c.req.valid("query");
      return c.json(searchCustomers(shop, q, after, limit), 200);
    })
    .route(routes.simGetCustomer, (c, exchange) => {
      const { shop } = inspectedShop(exchange, engine);
      const { id } = c.req.valid("param");
      const { ledgerLimit, ledgerAfter } = c.req.valid("query");
      const detail = customerDetail(shop, id, { limit: ledgerLimit, hasCount: true, ...(ledgerAfter !== undefined && { after: ledgerAfter }) });
      if (!detail) throw new DomainError("CUSTOMER_NOT_FOUND", `Customer ${id} not found`);
      return c.json(detail, 200);
    })
    .route(routes.simUpcoming, (c, exchange) => {
      const { shop } = inspectedShop(exchange, engine);
      const events = upcomingEvents(shop, limiter.windowEnd(shop.id), c.req.valid("query").limit);
      return c.json({ now: isoTimestamp(shop.clock.now()), frozen: shop.clock.frozen, events }, 200);
    })
    .route(routes.simExportHar, (c, exchange) => {
      const { shop, isDefault } = inspectedShop(exchange, engine);
      const { shop: _named, ...query } = c.req.valid("query");
      const { entries } = journal.select(requestsFilter(shop, isDefault, query));
      return c.json(harLog(entries, new URL(c.req.url).origin), 200);
    })
    .route(routes.simEvents, (c, exchange) => {
      const { shop, isDefault } = inspectedShop(exchange, engine);
      const res = streamSSE(c, (stream) =>
        new Promise<void>((resolve) => {
          const send = (event: string, data: object) => void stream.writeSSE({ event, data: JSON.stringify(data) }).catch(() => undefined);
          const stop = events.subscribe(shop.id, isDefault, send, resolve);
          stream.onAbort(() => {
            stop();
            resolve();
          });
        }),
      );
      // The framing is the server's to choose: chunked for HTTP/1.1, and for HTTP/1.0 (which has
      // no chunked encoding) the stream ends with the connection. hono's helper sets chunked and
      // keep-alive for every client.
      res.headers.delete("Transfer-Encoding");
      res.headers.delete("Connection");
      return res as never;
    })
    .router;
}
