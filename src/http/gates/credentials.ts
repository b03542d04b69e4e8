/**
 * What production checks before any API handler runs, in its order: credentials (as `identifyShop`
 * found them), the hourly quota, API access and plan.
 * @module
 */
import { DomainError } from "../../engine/errors.js";
import { sendError } from "../errors.js";
import { FixedWindow } from "../fixed-window.js";
import type { Step } from "../gateway.js";

const HOUR_MS = 3_600_000;

/** Each shop's hourly window, timed by the shop's clock (moving it reopens the window). */
export class Quotas {
  readonly #windows = new Map<string, FixedWindow>();

  hit(shopId: string, limit: number, now: number) {
    let window = this.#windows.get(shopId);
    if (!window) this.#windows.set(shopId, (window = new FixedWindow()));
    return window.hit(limit, HOUR_MS, now);
  }

  /** The shop's quota headers at `now` without counting a request: for an answer that is no operation. */
  headersNow(shopId: string, limit: number, now: number): Record<string, string> {
    const left = this.#windows.get(shopId)?.left(limit, HOUR_MS, now) ?? limit;
    return { "X-RateLimit-Limit": String(limit), "X-RateLimit-Remaining": String(left) };
  }

  /** When the shop's current window ends (ms), if it has one. */
  windowEnd(shopId: string): number | undefined {
    return this.#windows.get(shopId)?.endsAt(HOUR_MS);
  }

  /** Forgets every window, or one shop's. */
  clear(shopId?: string): void {
    if (shopId === undefined) this.#windows.clear();
    else this.#windows.delete(shopId);
  }
}

export function credentials(quotas: Quotas): Step {
  return (exchange) => {
    const { shop, headers } = exchange;
    if (!shop) return sendError(exchange, new DomainError("UNAUTHORIZED"), "credentials");
    const limit = shop.access.rateLimit;
    if (limit !== null) {
      const verdict = quotas.hit(shop.id, limit, shop.clock.now());
      headers["X-RateLimit-Limit"] = String(limit);
      headers["X-RateLimit-Remaining"] = String(verdict.remaining);
      if (!verdict.allowed) {
        headers["Retry-After"] = String(verdict.retryAfterSeconds);
        const message = `Rate limit of ${limit} requests per hour exceeded; retry in ${verdict.retryAfterSeconds} s`;
        return sendError(exchange, new DomainError("RATE_LIMITED", message), "quota");
      }
    }
    if (!shop.access.apiAccess) {
      return sendError(exchange, new DomainError("API_ACCESS_DISABLED", "API access is not enabled for this shop; ask for it to be enabled"), "credentials");
    }
    if (shop.access.plan === "free") {
      return sendError(exchange, new DomainError("PLAN_UPGRADE_REQUIRED", "The REST API is available on paid plans only; upgrade the shop's plan"), "credentials");
    }
    return undefined;
  };
}
