/**
 * What each operation of the contract (src/contract) must come with beyond its declaration, each
 * check naming the operation and the piece it lacks: a REST test in test/api/, and GraphQL object
 * types with exactly the fields of the shapes REST answers. (The typecheck refuses a declaration
 * without its `graphql` twin or `null`; the start refuses a twin left out of the GraphQL
 * reference's order; test/robustness/bad-input.test.ts fails on an operation its model lacks.)
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";
import { getNamedType, GraphQLObjectType } from "graphql";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { OPERATION_IDS, OPERATIONS } from "../src/contract/index.js";
import type { Operation } from "../src/contract/operation.js";
import { schema } from "../src/graphql/schema.js";
import { PaginationSchema } from "../src/http/schemas.js";

const API_TESTS = new URL("./api/", import.meta.url);
const apiTests = readdirSync(API_TESTS)
  .filter((name) => name.endsWith(".test.ts"))
  .map((name) => readFileSync(new URL(name, API_TESTS), "utf8"))
  .join("\n");

/** A call of the operation as test/api writes one: `"POST", `/customers/${id}/tier`` and the like, ids as `${...}` or text. */
function callPattern(op: Operation): RegExp {
  const segment = String.raw`(?:\$\{[^}]+\}|[^/?"'\`$]+)`;
  const path = op.path
    .split(/\{\w+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(segment);
  return new RegExp(String.raw`"${op.method.toUpperCase()}",\s*["'\`]${path}["'\`?]`);
}

describe("every operation of the contract", () => {
  it.each(OPERATION_IDS)("%s is called by a test in test/api/", (id) => {
    const op: Operation = OPERATIONS[id];
    expect(callPattern(op).test(apiTests), `no test in test/api/ calls ${op.method.toUpperCase()} ${op.path} (${id})`).toBe(true);
  });

  it("finds a call only where one is written", () => {
    const op = { method: "get", path: "/customers/{id}/referrals" } as Operation;
    expect(callPattern(op).test('sim.call("GET", `/customers/${id}/referrals`)')).toBe(true);
    expect(callPattern(op).test('sim.call("GET", "/customers/42/referrals?limit=1")')).toBe(true);
    expect(callPattern(op).test('sim.call("POST", `/customers/${id}/referrals`)')).toBe(false);
    expect(callPattern(op).test('sim.call("GET", `/customers/${id}/referrals/x`)')).toBe(false);
  });
});

/** A zod schema's object inside optional, nullable and array wrappers; undefined for a leaf. */
function objectOf(type: z.ZodType): z.ZodObject | undefined {
  if (type instanceof z.ZodOptional || type instanceof z.ZodNullable) return objectOf(type.unwrap() as z.ZodType);
  if (type instanceof z.ZodArray) return objectOf(type.element as z.ZodType);
  return type instanceof z.ZodObject ? type : undefined;
}

/** Each GraphQL object type an answer reaches, with the fields REST's shapes give it, walked side by side. */
function walk(type: GraphQLObjectType, shape: z.ZodObject, fields: Map<string, Set<string>>, missing: string[]): void {
  const seen = fields.get(type.name) ?? new Set<string>();
  fields.set(type.name, seen);
  for (const [key, value] of Object.entries(shape.shape)) {
    seen.add(key);
    const field = type.getFields()[key];
    if (field === undefined) {
      missing.push(`${type.name}.${key}`);
      continue;
    }
    const inner = objectOf(value as z.ZodType);
    const named = getNamedType(field.type);
    if (inner && named instanceof GraphQLObjectType) walk(named, inner, fields, missing);
  }
}

describe("GraphQL's object types", () => {
  it("have exactly the fields of the shapes REST answers with (views, then pages' items and pagination)", () => {
    const fields = new Map<string, Set<string>>();
    const missing: string[] = [];
    for (const id of OPERATION_IDS) {
      const op: Operation = OPERATIONS[id];
      if (op.graphql === null) continue;
      const root = (op.method === "get" ? schema.getQueryType() : schema.getMutationType())!.getFields()[op.graphql.field]!;
      let type = getNamedType(root.type) as GraphQLObjectType;
      if (op.answer.kind === "page") {
        walk(getNamedType(type.getFields().pageInfo!.type) as GraphQLObjectType, PaginationSchema, fields, missing);
        type = getNamedType(type.getFields().items!.type) as GraphQLObjectType;
      }
      walk(type, objectOf(op.answer.schema)!, fields, missing);
    }
    expect(missing, "fields REST answers with that GraphQL's types lack").toEqual([]);
    const extra = [...fields].flatMap(([name, keys]) => Object.keys((schema.getType(name) as GraphQLObjectType).getFields()).filter((f) => !keys.has(f)).map((f) => `${name}.${f}`));
    expect(extra, "fields of GraphQL's types that no REST shape has").toEqual([]);
    expect([...fields.keys()].sort()).toEqual(["Activity", "Beacon", "Customer", "EarnRule", "NextReward", "PageInfo", "Redemption", "Reward", "RewardCode", "Shop", "StampResult", "Tier"]);
  });
});
