/**
 * Applies scenarios, `Prefer` forcing and global latency to API requests: after credentials are
 * checked and before the real handler runs, so a forced domain error changes nothing in the shop;
 * unless a rule says `commit`, and then it answers after the handler has run and committed.
 * @module
 */
import type { Context } from "hono";
import { DomainError, type ErrorCode } from "../engine/errors.js";
import { API_BASE } from "../http/base.js";
import type { AppEnv } from "../http/env.js";
import { sendError } from "../http/errors.js";
import { endConnection, FAULT_HEADER, faultResponse, type Fault } from "../http/faults.js";
import { findShopAgain, type Shops } from "../http/gates/identify.js";
import type { Gate } from "../http/gateway.js";
import { customerIdOf } from "../http/operation.js";
import { bodyText, isJsonType, requestHeader } from "../http/request-input.js";
import { sendJson, setHeader, takeSentJson } from "../http/respond.js";
import { noteSkips, type RuleSkip } from "../http/journal/notes.js";
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
 * Aborts when the client gives up: the signal an in-process caller hands over with the request
 * (`app.fetch(request, { signal })`), else the request's own. undici links a Request's own signal
 * to the caller's only through a WeakRef, which a garbage collection can break.
 */
function clientSignal(c: Context<AppEnv>): AbortSignal {
  return c.env?.signal ?? c.req.raw.signal;
}

/**
 * Every wait of an API request before its handler (or a GraphQL field) runs: `ms`, less when the
 * client gives up; then the request acts on its shop as it is now (`findShopAgain`).
 */
export async function waitFor(c: Context<AppEnv>, ms: number, shops: Shops): Promise<void> {
  await sleep(ms, clientSignal(c));
  findShopAgain(c, shops);
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

async function facts(c: Context<AppEnv>, wantsBody: boolean): Promise<RequestFacts> {
  let body: unknown;
  if (wantsBody && c.req.method !== "GET" && isJsonType(requestHeader(c, "content-type"))) {
    const text = await bodyText(c);
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  const op = c.get("operation");
  const customerId = customerIdOf(op);
  const apiKey = requestHeader(c, "x-api-key");
  return {
    method: c.req.method,
    path: c.req.path.slice(API_BASE.length),
    query: c.req.query(),
    header: (name) => requestHeader(c, name.toLowerCase()),
    body,
    ...(op && { operation: op.operationId }),
    ...(customerId !== undefined && { customerId }),
    ...(apiKey !== undefined && { apiKey }),
    shopId: c.get("shop").id,
  };
}

function forcedError(c: Context<AppEnv>, code: ErrorCode, message: string | undefined, why: string): Response {
  const details = code === "VALIDATION_ERROR" ? [{ in: "body" as const, path: "(root)", message: why }] : undefined;
  if (code === "RATE_LIMITED") {
    setHeader(c, "X-RateLimit-Remaining", "0");
    setHeader(c, "Retry-After", "60");
  }
  return sendError(c, new DomainError(code, message, details));
}

/** Answers as the fault's kind says (http/faults.ts): its response, or the connection ended without one. */
async function fault(c: Context<AppEnv>, kind: Fault): Promise<Response> {
  c.set("fault", kind);
  const response = faultResponse(kind);
  if (response) return c.body(response.body, response.status, { "Content-Type": response.type });
  await endConnection(kind, c.env?.incoming?.socket, clientSignal(c));
  return c.body(null, 599 as never, { [FAULT_HEADER]: kind });
}

/** The answer `respond` names itself (a documented error, a raw status, a fault), if any. */
function ownAnswer(c: Context<AppEnv>, respond: Respond, why: string): Response | Promise<Response> | undefined {
  if (respond.error !== undefined) return forcedError(c, respond.error, respond.message, why);
  if (respond.status !== undefined) {
    const headers = { ...respond.headers };
    if (respond.body === undefined) return c.body(null, respond.status as never, headers);
    return sendJson(c, respond.body, respond.status as never, headers);
  }
  if (respond.fault !== undefined) return fault(c, respond.fault);
  return undefined;
}

/**
 * For a rule with `commit`: the handler's answer is kept for the journal, whatever it was (an
 * error committed nothing), and the rule's own answer goes out in its place.
 */
async function afterCommit(c: Context<AppEnv>, handlers: Response, respond: Respond, why: string): Promise<Response> {
  const written = takeSentJson(c);
  const type = written !== undefined ? "application/json" : handlers.headers.get("Content-Type");
  c.set("committed", { status: handlers.status, text: written ?? (await handlers.text()), type });
  return ownAnswer(c, respond, why)!;
}

/**
 * What `respond` (a rule's, or the `Prefer` header's) does to the whole request: waits, answers
 * (an error, a raw status, a fault, a refusing limiter), or lets it through (undefined).
 */
export async function applyRespond(
  c: Context<AppEnv>,
  respond: Respond,
  limit: Decision["limit"],
  why: string,
  deps: ScenarioDeps,
  decidedBy: "scenario" | "prefer",
): Promise<Response | undefined> {
  if (respond.delayMs !== undefined) await waitFor(c, deps.registry.drawDelay(respond.delayMs, c.get("shop").id), deps.shops);
  if (respond.commit === true) {
    c.set("decidedBy", decidedBy);
    c.set("replaceAnswer", (handlers) => afterCommit(c, handlers, respond, why));
    return undefined;
  }
  const answer = ownAnswer(c, respond, why);
  if (answer !== undefined) {
    c.set("decidedBy", decidedBy);
    return answer;
  }
  if (limit) {
    setHeader(c, "X-RateLimit-Limit", String(limit.limit));
    setHeader(c, "X-RateLimit-Remaining", String(limit.remaining));
    if (!limit.allowed) {
      setHeader(c, "Retry-After", String(limit.retryAfterSeconds));
      return sendError(
        c,
        new DomainError("RATE_LIMITED", `Rate limit of ${limit.limit} requests exceeded; retry in ${limit.retryAfterSeconds} s`),
        decidedBy,
      );
    }
  }
  return undefined;
}

/** The request's `Prefer` forcing, if any; a malformed header is the request's own fault (422). */
export function preferOf(c: Context<AppEnv>): Respond | undefined {
  try {
    return parsePrefer(requestHeader(c, "prefer"));
  } catch (error) {
    c.set("decidedBy", "validation");
    throw error;
  }
}

/** Answers instead of the handler when the `Prefer` header or a scenario rule says so. */
export function applyScenarios(deps: ScenarioDeps): Gate {
  const { registry, latency } = deps;
  const decide = async (c: Context<AppEnv>): Promise<Response | undefined> => {
    if (latency !== undefined) await waitFor(c, registry.drawDelay(latency, c.get("shop").id), deps.shops);
    const preferred = preferOf(c);
    if (preferred) return applyRespond(c, preferred, undefined, "forced by the Prefer header", deps, "prefer");
    const shopId = c.get("shop").id;
    if (!registry.hasScenarios(shopId)) return undefined;
    const skips: RuleSkip[] = [];
    const decision = registry.decide(await facts(c, registry.wantsBody(shopId)), skips);
    noteSkips(c, skips);
    if (!decision) return undefined;
    c.set("decision", { scenario: decision.scenario, rule: decision.rule, ...(decision.ruleName !== undefined && { ruleName: decision.ruleName }) });
    return applyRespond(c, decision.respond, decision.limit, `forced by scenario "${decision.scenario}" rule ${decision.rule}`, deps, "scenario");
  };
  // Most requests meet no latency, no Prefer header and no scenario: they pass without a promise.
  return (c) =>
    latency === undefined && requestHeader(c, "prefer") === undefined && !registry.hasScenarios(c.get("shop").id) ? undefined : decide(c);
}
