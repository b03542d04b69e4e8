/**
 * Scenario rules and `Prefer` on a GraphQL request. Each root field is matched as the REST request
 * it stands for (its twin), in document order, before anything executes, so a rule written for a
 * REST operation holds for the root field that does the same. A domain error or a delay is that
 * field's alone; a fault, a raw status, a request-level error or a refusing limiter answers the
 * whole request, and the fields after it are not evaluated.
 * @module
 */
import type { RootField } from "../contract/index.js";
import { restTwinRequest } from "../contract/twin-request.js";
import type { ErrorCode } from "../engine/errors.js";
import type { Exchange } from "../http/exchange.js";
import { requestHeader } from "../http/request-input.js";
import { applyRespond, type ScenarioDeps } from "./gate.js";
import type { Decision } from "./registry.js";
import type { Respond } from "./schema.js";

/** A GraphQL operation's root fields as the GraphQL side prepared them, before anything executes. */
export interface RootFieldCalls {
  operationName: string | null;
  /** In document order; `responseKey` is where each field's value goes in `data`. */
  rootFields: readonly { field: RootField; responseKey: string; args: Readonly<Record<string, unknown>> }[];
}

/** What was decided for one root field: it fails with `error`, and/or waits `delayMs` first. The GraphQL side reads it before the field runs. */
export interface FieldDecision {
  error?: ErrorCode;
  /** The error's reason (`extensions.reason`). */
  reason?: string;
  delayMs?: number;
}

/** Codes that refuse the HTTP request itself, not one field: they answer the request with their REST status. */
const REQUEST_LEVEL: ReadonlySet<ErrorCode> = new Set(["UNAUTHORIZED", "API_ACCESS_DISABLED", "PLAN_UPGRADE_REQUIRED", "RATE_LIMITED", "PAYLOAD_TOO_LARGE", "NOT_FOUND"]);

export const isRequestLevel = (code: ErrorCode): boolean => REQUEST_LEVEL.has(code);

/** Whether `respond` is one root field's business: a field-level error and/or a delay, nothing else. */
function ofOneField(respond: Respond): boolean {
  if (respond.commit === true || respond.status !== undefined || respond.fault !== undefined || respond.rateLimit !== undefined) return false;
  return respond.error === undefined || !isRequestLevel(respond.error);
}

const refOf = (d: Decision) => ({ scenario: d.scenario, rule: d.rule, ...(d.ruleName !== undefined && { ruleName: d.ruleName }) });

export type FieldsDecided = { answer: Response; forced?: undefined } | { answer?: undefined; forced: Map<string, FieldDecision> | undefined };

/** The shop's rules over the operation's root fields: an answer to the whole request, or each field's decision (by response key). */
export async function decideRootFields(exchange: Exchange, prepared: RootFieldCalls, deps: ScenarioDeps): Promise<FieldsDecided> {
  const { registry } = deps;
  const { c } = exchange;
  const shopId = exchange.shop.id;
  const apiKey = requestHeader(c, "x-api-key");
  const header = (name: string) => requestHeader(c, name.toLowerCase());
  let forced: Map<string, FieldDecision> | undefined;
  for (const use of prepared.rootFields) {
    const twin = restTwinRequest(use.field, use.args);
    const decision = registry.decide({
      operation: twin.operation,
      method: twin.method,
      path: twin.path,
      query: twin.query,
      body: twin.body,
      header,
      shopId,
      ...(apiKey !== undefined && { apiKey }),
      ...(twin.customerId !== undefined && { customerId: twin.customerId }),
      graphql: { operationName: prepared.operationName, field: use.field },
    });
    if (!decision) continue;
    const { respond } = decision;
    const why = `forced by scenario "${decision.scenario}" rule ${decision.rule}`;
    if (ofOneField(respond)) {
      // The journal names the first rule that applied.
      exchange.decision ??= refOf(decision);
      if (respond.error !== undefined) exchange.decidedBy = "scenario";
      (forced ??= new Map()).set(use.responseKey, {
        ...(respond.error !== undefined && { error: respond.error, reason: respond.message ?? why }),
        ...(respond.delayMs !== undefined && { delayMs: registry.drawDelay(respond.delayMs, shopId) }),
      });
      continue;
    }
    exchange.decision = refOf(decision);
    const answer = await applyRespond(exchange, respond, decision.limit, why, deps, "scenario");
    if (answer) return { answer };
  }
  return { forced };
}

/** `Prefer: error=CODE` with a field-level code: that code on every root field (introspection aside); none of their resolvers run. */
export function preferredOnEveryField(prepared: RootFieldCalls, code: ErrorCode): Map<string, FieldDecision> {
  const decision: FieldDecision = { error: code, reason: "forced by the Prefer header" };
  return new Map(prepared.rootFields.map((use) => [use.responseKey, decision]));
}
