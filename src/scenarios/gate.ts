/**
 * Applies scenarios, `Prefer` forcing and global latency to API requests: after credentials are
 * checked and the body is read, before the real handler runs, so a forced domain error changes
 * nothing in the shop; unless a rule says `commit`, and then its answer goes on the request's
 * record (`exchange.instead`), which the gateway sends once the handler has run and committed.
 * @module
 */
import { DomainError } from "../engine/errors.js";
import { API_BASE } from "../http/base.js";
import { sendError } from "../http/errors.js";
import type { Exchange, ForcedAnswer } from "../http/exchange.js";
import { sendForced } from "../http/forced.js";
import { findShopAgain, type Shops } from "../http/gates/identify.js";
import type { Step } from "../http/gateway.js";
import { noteQuotaLeft, noteSkips, type RuleSkip } from "../http/journal/notes.js";
import { customerIdOf } from "../http/operation.js";
import { bodyOf, clientSignal, isJsonType, requestHeader } from "../http/request-input.js";
import { parsePrefer } from "./prefer.js";
import type { Decision, RequestFacts, ScenarioRegistry } from "./registry.js";
import type { Respond } from "./schema.js";

export interface ScenarioDeps {
  registry: ScenarioRegistry;
  shops: Shops;
  /** Global latency in ms for every API request: a number or [min, max]. */
  latency?: number | [number, number];
}

/**
 * Every wait of an API request before its handler (or a GraphQL field) runs: `ms`, less when the
 * client gives up; then the request acts on its shop as it is now (`findShopAgain`).
 */
export async function waitFor(exchange: Exchange, ms: number, shops: Shops): Promise<void> {
  await sleep(ms, clientSignal(exchange));
  findShopAgain(exchange, shops);
}

/** Waits, but stops early when the client gives up. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

function facts(exchange: Exchange, wantsBody: boolean): RequestFacts {
  const { c } = exchange;
  let body: unknown;
  if (wantsBody && c.req.method !== "GET" && isJsonType(requestHeader(c, "content-type"))) {
    const text = bodyOf(exchange);
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  const operation = exchange.route?.operationId;
  const customerId = customerIdOf(exchange);
  const apiKey = requestHeader(c, "x-api-key");
  return {
    method: c.req.method,
    path: c.req.path.slice(API_BASE.length),
    query: c.req.query(),
    header: (name) => requestHeader(c, name.toLowerCase()),
    body,
    ...(operation !== undefined && { operation }),
    ...(customerId !== undefined && { customerId }),
    ...(apiKey !== undefined && { apiKey }),
    shopId: exchange.shop.id,
  };
}

/** The answer `respond` names itself (a documented error, a raw status, a fault), if any. */
function forcedBy(respond: Respond, why: string): ForcedAnswer | undefined {
  if (respond.error !== undefined) {
    const code = respond.error;
    const details = code === "VALIDATION_ERROR" ? [{ in: "body" as const, path: "(root)", message: why }] : undefined;
    const error = new DomainError(code, respond.message, details);
    return code === "RATE_LIMITED" ? { error, headers: { "X-RateLimit-Remaining": "0", "Retry-After": "60" } } : { error };
  }
  if (respond.status !== undefined) return { status: respond.status, body: respond.body, headers: { ...respond.headers } };
  if (respond.fault !== undefined) return { fault: respond.fault };
  return undefined;
}

/**
 * What `respond` (a rule's, or the `Prefer` header's) does to the whole request: waits, answers
 * (an error, a raw status, a fault, a refusing limiter), or lets it through (undefined), maybe
 * with the answer to give once the handler has committed (`commit`).
 */
export async function applyRespond(
  exchange: Exchange,
  respond: Respond,
  limit: Decision["limit"],
  why: string,
  deps: ScenarioDeps,
  decidedBy: "scenario" | "prefer",
): Promise<Response | undefined> {
  if (respond.delayMs !== undefined) await waitFor(exchange, deps.registry.drawDelay(respond.delayMs, exchange.shop.id), deps.shops);
  const forced = forcedBy(respond, why);
  if (limit || (forced !== undefined && "headers" in forced)) noteQuotaLeft(exchange);
  if (forced !== undefined) {
    exchange.decidedBy = decidedBy;
    if (respond.commit !== true) return sendForced(exchange, forced);
    exchange.instead = forced;
    return undefined;
  }
  if (limit) {
    exchange.headers["X-RateLimit-Limit"] = String(limit.limit);
    exchange.headers["X-RateLimit-Remaining"] = String(limit.remaining);
    if (!limit.allowed) {
      exchange.headers["Retry-After"] = String(limit.retryAfterSeconds);
      const message = `Rate limit of ${limit.limit} requests exceeded; retry in ${limit.retryAfterSeconds} s`;
      return sendError(exchange, new DomainError("RATE_LIMITED", message), decidedBy);
    }
  }
  return undefined;
}

/** The request's `Prefer` forcing, if any; a malformed header is the request's own fault (422). */
export function preferOf(exchange: Exchange): Respond | undefined {
  try {
    return parsePrefer(requestHeader(exchange.c, "prefer"));
  } catch (error) {
    exchange.decidedBy = "validation";
    throw error;
  }
}

/** Answers instead of the handler when the `Prefer` header or a scenario rule says so. */
export function applyScenarios(deps: ScenarioDeps): Step {
  const { registry, latency } = deps;
  const decide = async (exchange: Exchange): Promise<Response | undefined> => {
    if (latency !== undefined) await waitFor(exchange, registry.drawDelay(latency, exchange.shop.id), deps.shops);
    const preferred = preferOf(exchange);
    if (preferred) return applyRespond(exchange, preferred, undefined, "forced by the Prefer header", deps, "prefer");
    const shopId = exchange.shop.id;
    if (!registry.hasScenarios(shopId)) return undefined;
    const skips: RuleSkip[] = [];
    const decision = registry.decide(facts(exchange, registry.wantsBody(shopId)), skips);
    noteSkips(exchange, skips);
    if (!decision) return undefined;
    exchange.decision = { scenario: decision.scenario, rule: decision.rule, ...(decision.ruleName !== undefined && { ruleName: decision.ruleName }) };
    return applyRespond(exchange, decision.respond, decision.limit, `forced by scenario "${decision.scenario}" rule ${decision.rule}`, deps, "scenario");
  };
  // Most requests meet no latency, no Prefer header and no scenario: they pass without waiting.
  return (exchange) =>
    latency === undefined && requestHeader(exchange.c, "prefer") === undefined && !registry.hasScenarios(exchange.shop.id) ? undefined : decide(exchange);
}
