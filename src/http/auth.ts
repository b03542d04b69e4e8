/**
 * What production checks before any API handler runs: credentials, the hourly quota, and whether
 * the shop may use the API at all.
 * @module
 */
import type { Context } from "hono";
import type { Engine } from "../engine/engine.js";
import { DomainError } from "../engine/errors.js";
import type { AppEnv } from "./env.js";
import type { Gate } from "./gateway.js";
import { setHeader } from "./respond.js";
import { sendError } from "./errors.js";
import { andThen } from "./maybe-promise.js";
import { bodyText } from "./request-body.js";
import { requestHeader } from "./request-headers.js";

const HOUR_MS = 3_600_000;

/**
 * Fixed one-hour windows per shop, opened by the shop's first request and timed by the shop's
 * clock (so moving it reopens them).
 */
export class RateLimiter {
  readonly #windows = new Map<string, { start: number; count: number }>();

  /** Counts one request at `now` (the shop's clock); says whether it is within the quota and what is left. */
  hit(shopId: string, limit: number, now: number): { allowed: boolean; remaining: number; retryAfterSeconds: number } {
    let window = this.#windows.get(shopId);
    if (!window || now >= window.start + HOUR_MS || now < window.start) {
      window = { start: now, count: 0 };
      this.#windows.set(shopId, window);
    }
    const allowed = window.count < limit;
    if (allowed) window.count++;
    return {
      allowed,
      remaining: limit - window.count,
      retryAfterSeconds: Math.max(1, Math.ceil((window.start + HOUR_MS - now) / 1000)),
    };
  }

  /** When the shop's current window ends (ms), if it has one. */
  windowEnd(shopId: string): number | undefined {
    const window = this.#windows.get(shopId);
    return window === undefined ? undefined : window.start + HOUR_MS;
  }

  /** Forgets every window, or one shop's. */
  clear(shopId?: string): void {
    if (shopId === undefined) this.#windows.clear();
    else this.#windows.delete(shopId);
  }
}

/**
 * Notes the shop both credential headers name (`c.get("shop")`), and times the request by its
 * clock, or by the default shop's when they name none: every request, so that an error answered
 * before the API's checks, and the journal, already read the right time.
 */
export function identifyShop(engine: Engine, c: Context<AppEnv>): void {
  const shop = engine.shopByApiKey(requestHeader(c, "x-api-key") ?? "");
  if (shop && shop.access.apiSecret === requestHeader(c, "x-api-secret")) {
    c.set("shop", shop);
    c.set("clock", shop.clock);
  } else {
    c.set("clock", engine.defaultShop().clock);
  }
}

/** Credentials (as `identifyShop` found them), quota, API access and plan, in the order production checks them. */
export function checkCredentials(limiter: RateLimiter): Gate {
  return (c) => {
    const shop = c.get("shop");
    if (!shop) return sendError(c, new DomainError("UNAUTHORIZED"), "credentials");
    const limit = shop.access.rateLimit;
    if (limit !== null) {
      const verdict = limiter.hit(shop.id, limit, shop.clock.now());
      setHeader(c, "X-RateLimit-Limit", String(limit));
      setHeader(c, "X-RateLimit-Remaining", String(verdict.remaining));
      if (!verdict.allowed) {
        setHeader(c, "Retry-After", String(verdict.retryAfterSeconds));
        return sendError(
          c,
          new DomainError("RATE_LIMITED", `Rate limit of ${limit} requests per hour exceeded; retry in ${verdict.retryAfterSeconds} s`),
          "quota",
        );
      }
    }
    if (!shop.access.apiAccess) {
      return sendError(c, new DomainError("API_ACCESS_DISABLED", "API access is not enabled for this shop; ask for it to be enabled"), "credentials");
    }
    if (shop.access.plan === "free") {
      return sendError(c, new DomainError("PLAN_UPGRADE_REQUIRED", "The REST API is available on paid plans only; upgrade the shop's plan"), "credentials");
    }
    return undefined;
  };
}

const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/** A body that is not JSON is refused, never silently read as empty. An empty body is fine. */
export const checkJsonBody: Gate = (c) => {
  if (c.req.method !== "POST" && c.req.method !== "PATCH" && c.req.method !== "PUT") return undefined;
  const type = requestHeader(c, "content-type");
  if (type && JSON_TYPE.test(type)) return undefined;
  // Read once: the JSON validator finds it again.
  const refuse = (text: string) =>
    text.length === 0
      ? undefined
      : sendError(
          c,
          new DomainError("VALIDATION_ERROR", "Request body must be JSON", [
            { in: "header", path: "Content-Type", message: `must be application/json, got ${type ?? "none"}` },
          ]),
          "validation",
        );
  return andThen(bodyText(c), refuse);
};
