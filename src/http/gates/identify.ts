/**
 * Notes the shop both credential headers name (`c.get("shop")`) and times the request by its
 * clock, or by the default shop's when they name none: on every request, so that an error answered
 * before the API's checks, and the journal, read the right time.
 * @module
 */
import type { Engine } from "../../engine/engine.js";
import type { Gate } from "../gateway.js";
import { requestHeader } from "../request-input.js";

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
