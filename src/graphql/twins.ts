/**
 * Each GraphQL root field is the REST operation that does the same thing, its "twin": this table
 * says which, and where each GraphQL argument goes in the twin's request. From it come the
 * argument checks (the twin's own zod schemas, so GraphQL refuses what REST refuses, with the same
 * messages) and the REST request a root field stands for (what scenarios and the journal match).
 * @module
 */
import type { RouteConfig } from "@hono/zod-openapi";
import { z } from "zod";
import * as customerRoutes from "../api/customers/customers.routes.js";
import * as programRoutes from "../api/program/program.routes.js";
import * as rewardRoutes from "../api/rewards/rewards.routes.js";
import * as stampRoutes from "../api/stamps/stamps.routes.js";
import type { FieldProblem } from "../engine/errors.js";
import { fieldIssues, type RequestLocation } from "../http/errors.js";
import type { OperationId } from "../http/operation.js";
import { NOT_A_CURSOR, restCursorOf } from "./cursors.js";

import type { RootField } from "./root-fields.js";

export { MUTATION_FIELDS, QUERY_FIELDS, type RootField } from "./root-fields.js";

/** Where the twin takes one GraphQL argument. */
export interface ArgumentTwin {
  in: "path" | "query" | "body";
  /** The twin's name for it. */
  name: string;
  /** A program record's id: REST bodies take an integer, GraphQL any `ID` (one naming nothing is not found). */
  recordId?: true;
  /** A page cursor, in GraphQL's form here and REST's in the twin. */
  cursor?: true;
}

export interface RestTwin {
  operation: OperationId;
  method: "GET" | "POST" | "PATCH";
  /** The path template below the API base, e.g. `/customers/{id}/redemptions`. */
  path: string;
  /** By GraphQL argument path (`input.birthdayDay` for a field of an input object). */
  args: Readonly<Record<string, ArgumentTwin>>;
  /** The twin's own schemas of its query and JSON body. */
  query?: z.ZodType;
  body?: z.ZodType;
}

type RestRoute = { operationId: string; method: string; path: string; request?: RouteConfig["request"] };

function twin(route: RestRoute, args: Record<string, ArgumentTwin> = {}): RestTwin {
  const media = route.request?.body?.content["application/json"];
  const body = media && "schema" in media ? media.schema : undefined;
  const query = route.request?.query;
  return {
    operation: route.operationId as OperationId,
    method: route.method.toUpperCase() as RestTwin["method"],
    path: route.path,
    args,
    ...(query instanceof z.ZodType && { query }),
    ...(body instanceof z.ZodType && { body }),
  };
}

const path = (name: string): ArgumentTwin => ({ in: "path", name });
const query = (name: string): ArgumentTwin => ({ in: "query", name });
const cursor = (name: string): ArgumentTwin => ({ in: "query", name, cursor: true });
const body = (name: string): ArgumentTwin => ({ in: "body", name });
const recordId = (name: string): ArgumentTwin => ({ in: "body", name, recordId: true });

const customerId = { customerId: path("id") };
const page = { limit: query("limit"), after: cursor("after"), hasCount: query("hasCount") };
const notes = { comment: body("comment"), internalComment: body("internal_comment") };
const stamps = { ...customerId, stamps: body("stamps"), ...notes };
const reward = { ...customerId, rewardProductId: recordId("reward_product_id"), variableAmount: body("variable_amount") };
const code = { ...customerId, rewardCodeId: path("codeId") };

/** The REST twin of every root field (spec table 1.2). */
export const REST_TWINS: Readonly<Record<RootField, RestTwin>> = {
  shop: twin(programRoutes.getShop),
  earnRules: twin(programRoutes.listEarnRules),
  earnRule: twin(programRoutes.getEarnRule, { id: path("id") }),
  rewards: twin(rewardRoutes.listRewards),
  reward: twin(rewardRoutes.getReward, { id: path("id") }),
  tiers: twin(programRoutes.listTiers),
  tier: twin(programRoutes.getTier, { id: path("id") }),
  beacons: twin(programRoutes.listBeacons),
  customers: twin(customerRoutes.listCustomers, { email: query("email"), ...page, before: cursor("before") }),
  customer: twin(customerRoutes.getCustomer, { id: path("id") }),
  customerActivities: twin(stampRoutes.listActivities, { ...customerId, ...page }),
  rewardCodes: twin(rewardRoutes.listRewardCodes, { ...customerId, available: query("available") }),
  updateCustomer: twin(customerRoutes.updateCustomer, {
    id: path("id"),
    "input.birthdayMonth": body("birthday_month"),
    "input.birthdayDay": body("birthday_day"),
    "input.excluded": body("excluded"),
  }),
  awardStamps: twin(stampRoutes.awardStamps, stamps),
  adjustStamps: twin(stampRoutes.adjustStamps, stamps),
  processActivity: twin(stampRoutes.processEarnRule, { ...customerId, earnRuleId: recordId("earn_rule_id") }),
  redeemReward: twin(rewardRoutes.redeemReward, reward),
  grantReward: twin(rewardRoutes.grantReward, reward),
  markRewardCodeUsed: twin(rewardRoutes.useRewardCode, code),
  voidRewardCode: twin(rewardRoutes.voidRewardCode, code),
  setCustomerTier: twin(customerRoutes.setCustomerTier, {
    ...customerId,
    tierId: recordId("tier_id"),
    triggerRewards: body("trigger_rewards"),
    ...notes,
  }),
};

/** The REST request a root field stands for: what a scenario rule for its twin is matched against. */
export interface RestTwinRequest {
  operation: OperationId;
  method: RestTwin["method"];
  /** The twin's path with its ids filled in, below the API base. */
  path: string;
  params: Record<string, string>;
  /** Query parameters as strings, cursors in REST's form. */
  query: Record<string, string>;
  /** The JSON body in REST's names; absent arguments left out, record ids of digits as integers. */
  body?: Record<string, unknown>;
  customerId?: string;
}

/** An argument's value by its path (`input.birthdayDay`); null and absent are both undefined. */
function argumentValue(args: Readonly<Record<string, unknown>>, argPath: string): unknown {
  let value: unknown = args;
  for (const key of argPath.split(".")) value = value === null || typeof value !== "object" ? undefined : (value as Record<string, unknown>)[key];
  return value ?? undefined;
}

/** A record id as REST bodies carry it: an integer when it is one, else the text as sent. */
function restRecordId(id: string): number | string {
  return /^(0|[1-9]\d*)$/.test(id) && Number.isSafeInteger(Number(id)) ? Number(id) : id;
}

/** The customer a root field is about: the argument that fills its twin's `/customers/{id}`. */
export function customerIdOf(field: RootField, args: Readonly<Record<string, unknown>>): string | undefined {
  const twin = REST_TWINS[field];
  if (!twin.path.startsWith("/customers/{id}")) return undefined;
  const argPath = Object.keys(twin.args).find((key) => twin.args[key]!.in === "path" && twin.args[key]!.name === "id");
  const value = argPath === undefined ? undefined : argumentValue(args, argPath);
  return value === undefined ? undefined : String(value);
}

export function restTwinRequest(field: RootField, args: Readonly<Record<string, unknown>>): RestTwinRequest {
  const twin = REST_TWINS[field];
  const params: Record<string, string> = {};
  const query: Record<string, string> = {};
  let body: Record<string, unknown> | undefined;
  for (const [argPath, to] of Object.entries(twin.args)) {
    if (to.in === "body") body ??= {};
    const value = argumentValue(args, argPath);
    if (value === undefined) continue;
    const text = String(value);
    if (to.in === "path") params[to.name] = text;
    else if (to.in === "query") query[to.name] = (to.cursor && restCursorOf(text)) || text;
    else body![to.name] = to.recordId ? restRecordId(text) : value;
  }
  const filled = twin.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
  const customerId = customerIdOf(field, args);
  return {
    operation: twin.operation,
    method: twin.method,
    path: filled,
    params,
    query,
    ...(body !== undefined && { body }),
    ...(customerId !== undefined && { customerId }),
  };
}

/** One refused argument, named as the GraphQL document names it. */
export interface ArgumentIssue {
  in: "argument";
  path: string;
  message: string;
}

/**
 * What the twin would refuse in these arguments (empty when nothing), before anything runs: a
 * cursor that is not GraphQL's, and whatever the twin's query and body schemas refuse, except a
 * record id that is not an integer (an `ID` may be any text; it is then not found).
 */
export function argumentIssues(field: RootField, args: Readonly<Record<string, unknown>>): ArgumentIssue[] {
  const twin = REST_TWINS[field];
  if (twin.query === undefined && twin.body === undefined) return [];
  const request = restTwinRequest(field, args);
  const issues: ArgumentIssue[] = [];
  for (const [argPath, to] of Object.entries(twin.args)) {
    const value = argumentValue(args, argPath);
    if (to.cursor && value !== undefined && restCursorOf(String(value)) === undefined) {
      issues.push({ in: "argument", path: argPath, message: NOT_A_CURSOR });
    }
  }
  const checks = [
    [twin.query, request.query, "query"],
    [twin.body, request.body ?? {}, "body"],
  ] as const;
  for (const [schema, values, where] of checks) {
    const result = schema?.safeParse(values);
    if (result?.success === false) issues.push(...asArgumentIssues(field, fieldIssues(result.error, where)));
  }
  return issues;
}

/**
 * REST's field issues (from the twin's schemas, placed; or from the engine, which names fields only)
 * named as GraphQL names the arguments: `birthday_day` in the body is `input.birthdayDay`, and so in the messages too.
 */
export function asArgumentIssues(field: RootField, details: readonly (FieldProblem & { in?: RequestLocation })[]): ArgumentIssue[] {
  const twin = REST_TWINS[field];
  const out: ArgumentIssue[] = [];
  for (const detail of details) {
    const [head, ...rest] = detail.path.split(".");
    const found = Object.entries(twin.args).find(([, to]) => (detail.in === undefined || to.in === detail.in) && to.name === head);
    if (found?.[1].recordId) continue;
    out.push({ in: "argument", path: found ? [found[0], ...rest].join(".") : detail.path, message: renamed(twin, detail.message) });
  }
  return out;
}

/** A message with the twin's snake_case field names replaced by the GraphQL argument names. */
function renamed(twin: RestTwin, message: string): string {
  let text = message;
  for (const [argPath, to] of Object.entries(twin.args)) {
    if (to.name.includes("_")) text = text.replace(new RegExp(`\\b${to.name}\\b`, "g"), argPath.slice(argPath.lastIndexOf(".") + 1));
  }
  return text;
}
