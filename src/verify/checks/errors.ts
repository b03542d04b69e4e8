/**
 * Refusals a read can meet: a wrong secret, unknown records, bad query input. Each answers its
 * documented status and code in the error envelope.
 * @module
 */
import { OPERATIONS } from "../../contract/index.js";
import type { ErrorCode } from "../../engine/errors.js";
import { ERROR_STATUS } from "../../http/errors.js";
import { ErrorEnvelopeSchema } from "../../http/schemas.js";
import type { Exchange } from "../client.js";
import type { Step } from "../plan.js";
import { at } from "../read.js";
import type { Check, Judge } from "./check.js";

/** An id no shop has: Shopify's customer ids are long, a program's record ids small. */
export const UNKNOWN_CUSTOMER = "1";
export const UNKNOWN_ID = "999999999";

/** Codes every operation can meet, beyond those its declaration lists. */
const ANY_OPERATION: readonly ErrorCode[] = ["UNAUTHORIZED", "VALIDATION_ERROR"];

/** The answer is `code` with its status, in the error envelope. */
export function judgeError(judge: Judge, answer: Exchange, code: ErrorCode): void {
  const status = ERROR_STATUS[code];
  const body = answer.body;
  judge.equal("status", answer.status, status, answer.request);
  judge.fields(ErrorEnvelopeSchema, body, "", answer);
  judge.equal("error.code", at(body, "error", "code"), code, answer.request);
  judge.equal("error.statusCode", at(body, "error", "statusCode"), status, answer.request);
}

/** A check that each of the steps is refused with `code`, which its operation must document. */
export function errorCheck(id: string, title: string, steps: Step[], code: ErrorCode, more: Partial<Check> = {}): Check {
  for (const step of steps) {
    const documented = step.op === "graphql" ? [] : (OPERATIONS[step.op].errors ?? []);
    if (!documented.includes(code as never) && !ANY_OPERATION.includes(code)) throw new Error(`verify: ${id} expects ${code}, which ${step.op} does not document`);
  }
  return {
    id,
    title,
    basis: "documented",
    phase: steps[0]!.phase,
    expected: `${ERROR_STATUS[code]} ${code} in the error envelope { success: false, error: { message, code, statusCode }, timestamp }`,
    steps: steps.map((s) => s.key),
    judge({ answers }, judge) {
      for (const step of steps) judgeError(judge, answers.get(step.key), code);
      judge.observed = `${ERROR_STATUS[code]} ${code}`;
    },
    ...more,
  };
}

const refused = (key: string, op: Step["op"], extra: Partial<Step>): Step => ({ key: `errors.${key}`, phase: "read", op, ...extra });
const wrongSecret = refused("unauthorized", "getShop", { wrongSecret: true });
const customer = refused("customer", "getCustomer", { params: { id: UNKNOWN_CUSTOMER } });
const tier = refused("tier", "getTier", { params: { id: UNKNOWN_ID } });
const earnRule = refused("earn-rule", "getEarnRule", { params: { id: UNKNOWN_ID } });
const reward = refused("reward", "getReward", { params: { id: UNKNOWN_ID } });
const limit0 = refused("limit-0", "listCustomers", { query: { limit: "0" } });
const limit1001 = refused("limit-1001", "listCustomers", { query: { limit: "1001" } });
const cursor = refused("cursor", "listCustomers", { query: { after: "not-a-cursor" } });

export const errorSteps: Step[] = [wrongSecret, customer, tier, earnRule, reward, limit0, limit1001, cursor];

const MESSAGE_401 = "Invalid API credentials";

export const errorChecks: Check[] = [
  errorCheck("read.errors.unauthorized", "A wrong secret is refused with 401 UNAUTHORIZED", [wrongSecret], "UNAUTHORIZED", {
    expected: `401 UNAUTHORIZED "${MESSAGE_401}" in the error envelope`,
    judge({ answers }, judge) {
      const answer = answers.get(wrongSecret.key);
      judgeError(judge, answer, "UNAUTHORIZED");
      judge.equal("error.message", at(answer.body, "error", "message"), MESSAGE_401, answer.request);
      judge.observed = `401 UNAUTHORIZED "${MESSAGE_401}"`;
    },
  }),
  errorCheck("read.errors.customer-not-found", "An unknown customer is 404 CUSTOMER_NOT_FOUND", [customer], "CUSTOMER_NOT_FOUND"),
  errorCheck("read.errors.tier-not-found", "An unknown tier is 404 TIER_NOT_FOUND", [tier], "TIER_NOT_FOUND"),
  errorCheck("read.errors.earn-rule-not-found", "An unknown earn rule is 404 EARN_RULE_NOT_FOUND", [earnRule], "EARN_RULE_NOT_FOUND"),
  errorCheck("read.errors.reward-not-found", "An unknown reward is 404 REWARD_NOT_FOUND", [reward], "REWARD_NOT_FOUND"),
  errorCheck("read.errors.limit", "limit=0 and limit=1001 are 422 VALIDATION_ERROR", [limit0, limit1001], "VALIDATION_ERROR"),
  // Production documents the cursor's form and VALIDATION_ERROR for input that fails validation, not that a broken cursor is such input.
  errorCheck("read.errors.cursor", "A cursor that does not decode is 422 VALIDATION_ERROR", [cursor], "VALIDATION_ERROR", { basis: "model" }),
];
