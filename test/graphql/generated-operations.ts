/**
 * Generated GraphQL operations over every root field, for the property tests: arguments real and
 * unknown (ids by position in the shop as it is when sent), extreme numbers, long and odd text,
 * cursors real and not, values of the wrong type; each argument passed as a variable.
 * @module
 */
import fc from "fast-check";
import { getNamedType, GraphQLObjectType, isNonNullType, type GraphQLField } from "graphql";
import { MUTATION_FIELDS, QUERY_FIELDS, schema, type RootField } from "../../src/graphql/index.js";
import type { ShopEngine } from "../../src/engine/shop-engine.js";
import { graphqlCursor } from "./graphql-sim.js";

/** A value that is resolved against the shop when sent: a record's id by position, or as given. */
type Pick = { customer: number } | { code: number } | { cursor: number } | { value: unknown };
function resolvePick(shop: ShopEngine, pick: Pick): unknown {
  const { customers, codes } = shop.store.data;
  if ("customer" in pick) return customers[pick.customer % customers.length]!.id;
  if ("code" in pick) return String(codes[pick.code % Math.max(1, codes.length)]?.id ?? "1");
  if ("cursor" in pick) return graphqlCursor(String(pick.cursor));
  return pick.value;
}

const odd = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("", "0", "abc", "044", "9".repeat(30), "😀", "a/b", "\u202e"));
const wrongType = fc.constantFrom<unknown>(1.5, true, [], {}, "x", 2 ** 31, -(2 ** 31) - 1);
const anyValue = (main: fc.Arbitrary<Pick>) => fc.oneof({ weight: 40, arbitrary: main }, { weight: 1, arbitrary: wrongType.map((value) => ({ value })) }, { weight: 1, arbitrary: fc.constant({ value: null }) });
const value = (arbitrary: fc.Arbitrary<unknown>) => arbitrary.map((v): Pick => ({ value: v }));

/** Values for each argument name of the schema. */
const ARGUMENTS: Record<string, fc.Arbitrary<Pick>> = {
  id: fc.oneof(fc.nat().map((customer) => ({ customer })), value(fc.constantFrom("1", "2", "3", "101", "102", "106", "107", "201", "203", "301")), value(odd)),
  customerId: fc.oneof({ weight: 5, arbitrary: fc.nat().map((customer) => ({ customer })) }, value(odd)),
  stamps: value(fc.oneof({ weight: 6, arbitrary: fc.integer({ min: -30, max: 60 }) }, { weight: 1, arbitrary: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }) })),
  comment: value(fc.oneof(fc.string({ maxLength: 20 }), fc.string({ minLength: 995, maxLength: 1005 }))),
  internalComment: value(fc.string({ maxLength: 20 })),
  earnRuleId: value(fc.oneof(fc.constantFrom("201", "202", "203", "204", "205", "206", "207", "999"), odd)),
  rewardProductId: value(fc.oneof(fc.constantFrom("101", "102", "103", "104", "105", "106", "107", "108", "109", "999"), odd, fc.integer({ min: 100, max: 110 }))),
  variableAmount: value(fc.option(fc.integer({ min: -2, max: 120 }))),
  rewardCodeId: fc.oneof(fc.nat().map((code) => ({ code })), value(odd)),
  tierId: value(fc.oneof(fc.constantFrom("1", "2", "3", "4", "99", "03"), odd)),
  triggerRewards: value(fc.option(fc.boolean())),
  email: value(fc.option(fc.oneof(fc.emailAddress(), fc.string({ maxLength: 330 })))),
  limit: value(fc.option(fc.integer({ min: -5, max: 1005 }))),
  after: fc.oneof(fc.constant({ value: null }), fc.nat().map((cursor) => ({ cursor })), value(odd)),
  before: fc.oneof(fc.constant({ value: null }), fc.nat().map((cursor) => ({ cursor })), value(odd)),
  hasCount: value(fc.option(fc.boolean())),
  available: value(fc.option(fc.boolean())),
  input: value(
    fc.record(
      { birthdayMonth: fc.option(fc.integer({ min: -1, max: 14 })), birthdayDay: fc.option(fc.integer({ min: -1, max: 33 })), excluded: fc.option(fc.boolean()) },
      { requiredKeys: [] },
    ),
  ),
};

export const rootField = (field: RootField): GraphQLField<unknown, unknown> => (schema.getQueryType()!.getFields()[field] ?? schema.getMutationType()!.getFields()[field])!;

/** Every leaf of a type, nested objects included. */
export function selectionOf(field: GraphQLField<unknown, unknown>): string {
  const named = getNamedType(field.type);
  if (!(named instanceof GraphQLObjectType)) return "";
  return `{ ${Object.values(named.getFields()).map((f) => `${f.name} ${selectionOf(f)}`).join(" ")} }`;
}

export interface Call {
  field: RootField;
  args: [string, Pick][];
}

export const call = (fields: readonly RootField[]) =>
  fc.constantFrom(...fields).chain((field) => {
    const args = rootField(field).args.map((arg) => {
      const values = ARGUMENTS[arg.name];
      if (values === undefined) throw new Error(`ARGUMENTS (test/graphql/generated-operations.ts) has no values for ${field}'s argument ${arg.name}`);
      const main = anyValue(values);
      const picked = isNonNullType(arg.type) ? main : fc.option(main, { nil: undefined });
      return picked.map((pick) => [arg.name, pick] as const);
    });
    return fc.tuple(...args).map((pairs): Call => ({ field, args: pairs.filter((p): p is [string, Pick] => p[1] !== undefined) }));
  });

export interface GeneratedOperation {
  type: "query" | "mutation";
  calls: Call[];
}

/** One operation of one to three root fields, its arguments passed as variables. */
export const operation: fc.Arbitrary<GeneratedOperation> = fc.oneof(
  fc.array(call(QUERY_FIELDS), { minLength: 1, maxLength: 3 }).map((calls) => ({ type: "query" as const, calls })),
  fc.array(call(MUTATION_FIELDS), { minLength: 1, maxLength: 3 }).map((calls) => ({ type: "mutation" as const, calls })),
);

/**
 * The operation's text and variables, ids picked in `shop` as it is now. `selection` writes a root
 * field's selection set (default: every leaf).
 */
export function documentOf(
  op: GeneratedOperation,
  shop: ShopEngine,
  selection: (field: GraphQLField<unknown, unknown>, i: number) => string = selectionOf,
): { query: string; variables: Record<string, unknown> } {
  const declarations: string[] = [];
  const variables: Record<string, unknown> = {};
  const fields = op.calls.map((c, i) => {
    const definition = rootField(c.field);
    const args = c.args.map(([name, pick]) => {
      const variable = `${name}${i}`;
      declarations.push(`$${variable}: ${String(definition.args.find((a) => a.name === name)!.type)}`);
      variables[variable] = resolvePick(shop, pick);
      return `${name}: $${variable}`;
    });
    return `f${i}: ${c.field}${args.length > 0 ? `(${args.join(", ")})` : ""} ${selection(definition, i)}`;
  });
  return { query: `${op.type}${declarations.length > 0 ? ` (${declarations.join(", ")})` : ""} { ${fields.join(" ")} }`, variables };
}
