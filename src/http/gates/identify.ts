/**
 * Notes the shop both credential headers name (`c.get("shop")`) and times the request by its
 * clock, or by the default shop's when they name none: on every request, so that an error answered
 * before the API's checks, and the journal, read the right time. A request that waited since (a
 * latency, a delay, a body still arriving) finds its shop again before anything runs on it.
 * @module
 */
import type { Engine } from "../../engine/engine.js";
import { DomainError } from "../../engine/errors.js";
import type { ShopEngine } from "../../engine/shop-engine.js";
import type { AppEnv } from "../env.js";
import type { Gate } from "../gateway.js";
import type { Context } from "hono";
import { requestHeader } from "../request-input.js";
import { dropHeader } from "../respond.js";

/** The shops by id, as they are now. */
export type Shops = Pick<Engine, "shop">;

export function identifyShop(engine: Engine): Gate {
  return (c) => {
    const shop = engine.shopByApiKey(requestHeader(c, "x-api-key") ?? "");
    if (shop && shop.access.apiSecret === requestHeader(c, "x-api-secret")) {
      c.set("shop", shop);
      c.set("clock", shop.clock);
    } else {
      c.set("clock", engine.defaultShop().clock);
    }
    return undefined;
  };
}

/**
 * Points the request at its shop as it is now, not as its credentials found it: a shop reset
 * meanwhile is the reset one (a shop's id is never given to another); a shop deleted meanwhile
 * refuses the request as credentials that no longer exist, before anything is written.
 */
export function findShopAgain(c: Context<AppEnv>, shops: Shops): ShopEngine {
  const shop = c.get("shop");
  const now = shops.shop(shop.id);
  if (now === shop) return shop;
  if (now === undefined) {
    // As the credentials check answers unknown credentials: without the shop's quota headers.
    dropHeader(c, "X-RateLimit-Limit");
    dropHeader(c, "X-RateLimit-Remaining");
    c.set("decidedBy", "credentials");
    throw new DomainError("UNAUTHORIZED");
  }
  c.set("shop", now);
  return now;
}

/** The last of the API's gates: the handler runs on the shop as it is once the gates are through (they may have waited). */
export function shopAfterGates(shops: Shops): Gate {
  return (c) => void findShopAgain(c, shops);
}
