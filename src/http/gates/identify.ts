/**
 * Notes the shop both credential headers name (`exchange.shop`) and times the request by its
 * clock, or by the default shop's when they name none: on every request, so that an error answered
 * before the API's checks, and the journal, read the right time. A request that waited since (a
 * latency, a delay, a body still arriving) finds its shop again before anything runs on it.
 * @module
 */
import type { Engine } from "../../engine/engine.js";
import { DomainError } from "../../engine/errors.js";
import type { ShopEngine } from "../../engine/shop-engine.js";
import type { Exchange } from "../exchange.js";
import type { Step } from "../gateway.js";
import { requestHeader } from "../request-input.js";

/** The shops by id, as they are now. */
export type Shops = Pick<Engine, "shop">;

export function identifyShop(engine: Engine): Step {
  return (exchange) => {
    const { c } = exchange;
    const shop = engine.shopByApiKey(requestHeader(c, "x-api-key") ?? "");
    if (shop && shop.access.apiSecret === requestHeader(c, "x-api-secret")) {
      exchange.shop = shop;
      exchange.clock = shop.clock;
    } else {
      exchange.clock = engine.defaultShop().clock;
    }
    return undefined;
  };
}

/**
 * Points the request at its shop as it is now, not as its credentials found it: a shop reset
 * meanwhile is the reset one (a shop's id is never given to another); a shop deleted meanwhile
 * refuses the request as credentials that no longer exist, before anything is written.
 */
export function findShopAgain(exchange: Exchange, shops: Shops): ShopEngine {
  const { shop } = exchange;
  const now = shops.shop(shop.id);
  if (now === shop) return shop;
  if (now === undefined) {
    // As the credentials check answers unknown credentials: without the shop's quota headers.
    delete exchange.headers["X-RateLimit-Limit"];
    delete exchange.headers["X-RateLimit-Remaining"];
    exchange.decidedBy = "credentials";
    throw new DomainError("UNAUTHORIZED");
  }
  exchange.shop = now;
  return now;
}

/** The last of the API's gates: the handler runs on the shop as it is once the gates are through (they may have waited). */
export function shopAfterGates(shops: Shops): Step {
  return (exchange) => void findShopAgain(exchange, shops);
}
