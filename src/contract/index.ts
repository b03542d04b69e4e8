/**
 * The contract assembled: every operation by id, their ids in the spec's order, and the GraphQL
 * root fields by type in the order production's GraphQL reference lists them. REST, GraphQL,
 * scenarios, the journal and the control API all read these; each operation is declared in the
 * file of its resource.
 * @module
 */
import type { z } from "@hono/zod-openapi";
import { customers } from "./customers.js";
import type { Operation } from "./operation.js";
import { program } from "./program.js";
import { rewards } from "./rewards.js";
import { stamps } from "./stamps.js";
import { argumentTwins, rootFieldSDL, type ArgumentTwin, type GraphQLTwin } from "./twin.js";

/** Every operation by id, in the order the OpenAPI document lists them: each resource's, as its file declares them. */
export const OPERATIONS = { ...customers, ...stamps, ...rewards, ...program };
type Operations = typeof OPERATIONS;
export type OperationId = keyof Operations;

const all: readonly Operation[] = Object.values(OPERATIONS);

/** `list` when it names each of `wanted` once; else the start fails, naming what to add to it here. */
function inOrder(what: string, list: readonly Operation[], wanted: readonly Operation[]): Operation[] {
  const missing = wanted.filter((op) => !list.includes(op)).map((op) => op.id);
  const extra = list.filter((op, i) => !wanted.includes(op) || list.indexOf(op) !== i).map((op) => op.id);
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(`src/contract/index.ts: ${what} must name each of its operations once (missing: ${missing.join(", ") || "none"}; extra or twice: ${extra.join(", ") || "none"})`);
  }
  return [...list];
}

const { listCustomers, getCustomer, updateCustomer, setCustomerTier } = customers;
const { awardStamps, adjustStamps, processEarnRule, listActivities } = stamps;
const { redeemReward, grantReward, listRewardCodes, useRewardCode, voidRewardCode, listRewards, getReward } = rewards;
const { listTiers, getTier, listEarnRules, getEarnRule, getShop, listBeacons } = program;

/**
 * The operation ids in the spec's order (its sections: customers, stamps, reward codes,
 * redemptions, activities, then the program's data): scenario files, the journal's filter and the
 * inspector list them so.
 */
export const OPERATION_IDS = inOrder("the spec's order", [
  listCustomers, getCustomer, updateCustomer, setCustomerTier,
  awardStamps, adjustStamps,
  listRewardCodes, useRewardCode, voidRewardCode,
  redeemReward, grantReward,
  listActivities, processEarnRule,
  listTiers, getTier, listEarnRules, getEarnRule, getShop, listRewards, getReward, listBeacons,
], all).map((op) => op.id as OperationId) as unknown as readonly [OperationId, ...OperationId[]];

/** The operation of an id, or undefined when none has it. */
export function operationOf(id: string): Operation | undefined {
  return Object.hasOwn(OPERATIONS, id) ? (OPERATIONS as Record<string, Operation>)[id] : undefined;
}

// --- GraphQL's root fields ---------------------------------------------------------------------

export type RootField = { [Id in OperationId]: Operations[Id]["graphql"] extends { field: infer F extends string } ? F : never }[OperationId];

/**
 * The operations with a GraphQL twin, in the order production's GraphQL reference lists their root
 * fields (the schema keeps it, so introspection answers as production's schema does): a GET
 * operation's twin is a query, the others' mutations.
 */
const GRAPHQL_ORDER = inOrder("the GraphQL reference's order", [
  getShop, listEarnRules, getEarnRule, listRewards, getReward, listTiers, getTier, listBeacons,
  listCustomers, getCustomer, listActivities, listRewardCodes,
  updateCustomer, awardStamps, adjustStamps, processEarnRule, redeemReward, grantReward, useRewardCode, voidRewardCode, setCustomerTier,
], all.filter((op) => op.graphql !== null));

const queries = GRAPHQL_ORDER.filter((op) => op.method === "get");
const mutations = GRAPHQL_ORDER.filter((op) => op.method !== "get");
const fieldOf = (op: Operation) => op.graphql!.field as RootField;

export const QUERY_FIELDS: readonly RootField[] = queries.map(fieldOf);
export const MUTATION_FIELDS: readonly RootField[] = mutations.map(fieldOf);
export const ROOT_FIELDS = [...QUERY_FIELDS, ...MUTATION_FIELDS] as unknown as readonly [RootField, ...RootField[]];

/** The root fields as the SDL's Query and Mutation types write them. */
export const ROOT_FIELDS_SDL = { query: queries.map((op) => rootFieldSDL(op.graphql!)).join(""), mutation: mutations.map((op) => rootFieldSDL(op.graphql!)).join("") };

/** A root field's twin: the REST operation it stands for, and where that takes each of its arguments. */
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
  /** The root field as declared with its operation. */
  declared: GraphQLTwin;
}

/** The REST twin of every root field (spec table 1.2). */
export const REST_TWINS: Readonly<Record<RootField, RestTwin>> = Object.fromEntries(
  GRAPHQL_ORDER.map((op) => {
    const declared = op.graphql!;
    const twin: RestTwin = {
      operation: op.id as OperationId,
      method: op.method.toUpperCase() as RestTwin["method"],
      path: op.path,
      args: argumentTwins(declared),
      ...(op.query !== undefined && { query: op.query }),
      ...(op.body !== undefined && { body: op.body }),
      declared,
    };
    return [declared.field, twin];
  }),
) as Record<RootField, RestTwin>;
