/** @module Schemas of the "why" trace of a journal entry (`GET /__sim/requests/{id}/why`): the inspector's and test authors' types. */
import { z } from "@hono/zod-openapi";
import type { RefusalReason } from "../engine/errors.js";
import { DECIDERS } from "../http/env.js";

const iso = z.string().openapi({ description: "ISO 8601, at the shop's clock" });

export const RefusalReasonSchema = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("insufficientStamps"), customerId: z.string(), balance: z.int(), price: z.int().openapi({ description: "The reward's cost, or the stamps a deduction takes" }), rewardId: z.string().optional() }),
    z.object({
      kind: z.literal("earnRuleLimit"),
      customerId: z.string(),
      earnRuleId: z.string(),
      limit: z.int(),
      period: z.enum(["day", "week", "year", "lifetime"]),
      awardsInWindow: z.int(),
      lastAwardAt: iso.nullable(),
      nextAllowedAt: iso.nullable().openapi({ description: "When the rule may award the customer again (null for a lifetime limit: never)" }),
    }),
    z.object({ kind: z.literal("customerRemoved"), customerId: z.string(), removedAt: iso.nullable() }),
    z.object({ kind: z.literal("customerMerged"), customerId: z.string(), mergedIntoCustomerId: z.string() }),
    z.object({ kind: z.literal("codeNotVoidable"), codeId: z.string(), used: z.boolean(), voided: z.boolean() }),
    z.object({ kind: z.literal("tierRequired"), rewardId: z.string(), requiredTierId: z.string(), customerTierId: z.string().nullable() }),
  ])
  .openapi("SimRefusalReason", { description: "The engine's own reason for a refusal, as data (the answer's message says it in words)" });

// The schema and the engine's type stay one: each must be assignable to the other.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const reasonTypesAgree: Same<z.output<typeof RefusalReasonSchema>, RefusalReason> = true;
void reasonTypesAgree;

const detail = z.string().openapi({ description: "What happened at this step, in words" });

export const RuleVerdictSchema = z
  .object({
    scenario: z.string(),
    rule: z.int(),
    ruleName: z.string().optional(),
    outcome: z.enum(["decided", "mismatch", "spent", "after", "probability", "matchesNow", "notReached"]).openapi({
      description:
        "`decided`: this rule applied; `mismatch`: `field` ruled it out; `spent`, `after`, `probability`: it matched but that condition skipped it (recorded when decided); `matchesNow`: it matches the stored request but did not apply then (added or changed since); `notReached`: an earlier step or rule answered",
    }),
    field: z.enum(["operation", "method", "path", "customerId", "apiKey", "headers", "query", "body", "api", "graphql"]).optional().openapi({ description: "With `mismatch`: the first `match` field the request does not meet" }),
    detail,
  })
  .openapi("SimRuleVerdict");

const outcome = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values);

export const WhyTraceSchema = z
  .object({
    id: z.int(),
    decidedBy: z.enum(DECIDERS),
    status: z.int().nullable(),
    fault: z.string().nullable(),
    summary: z.string().openapi({ description: "The answer and what decided it, in one sentence" }),
    credentials: z.object({ outcome: outcome(["passed", "refused"]), shopId: z.string().nullable(), detail }),
    quota: z.object({
      outcome: outcome(["passed", "refused", "off", "notReached"]),
      limit: z.int().nullable(),
      remaining: z.int().nullable().openapi({ description: "Requests left in the window after this one" }),
      windowEnd: iso.nullable(),
      detail,
    }),
    bodyCheck: z.object({ outcome: outcome(["passed", "tooLarge", "notJson", "notReached"]), detail }),
    prefer: z.object({
      outcome: outcome(["absent", "applied", "invalid", "notReached"]),
      header: z.string().nullable(),
      forced: z.record(z.string(), z.unknown()).nullable().openapi({ description: "The header as parsed: error, status, delayMs" }),
      detail,
    }),
    scenarios: z.object({
      rules: z.array(RuleVerdictSchema),
      note: z.string().openapi({ description: "Rules are listed as active now; conditions that skipped a rule were recorded when the request was decided" }),
    }),
    validation: z.object({ outcome: outcome(["passed", "refused", "notReached"]), detail }),
    handler: z.object({
      outcome: outcome(["answered", "refused", "partial", "replaced", "notReached"]),
      status: z.int().nullable(),
      code: z.string().nullable(),
      detail,
    }),
    reason: RefusalReasonSchema.nullable(),
  })
  .openapi("SimWhyTrace");

export type WhyTrace = z.output<typeof WhyTraceSchema>;
export type RuleVerdict = z.output<typeof RuleVerdictSchema>;
