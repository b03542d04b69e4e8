import { readFileSync } from "node:fs";
import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  GraphQLObjectType,
  isLeafType,
  printSchema,
  type IntrospectionQuery,
} from "graphql";
import { describe, expect, it } from "vitest";
import { graphqlSchemaSDL, MUTATION_FIELDS, printedSchema, QUERY_FIELDS, REST_TWINS, schema } from "../../src/graphql/index.js";
import { OPERATION_IDS, OPERATIONS } from "../../src/contract/index.js";
import { graphqlSim } from "./graphql-sim.js";

const committed = readFileSync(new URL("../../graphql/schema.graphql", import.meta.url), "utf8");

describe("the GraphQL schema", () => {
  it("is the committed graphql/schema.graphql (run `npm run graphql-schema` after changing the SDL)", () => {
    expect(printedSchema()).toBe(committed);
  });

  it("has the documented root fields, in the docs' order, and no enums, interfaces, unions or subscriptions", () => {
    expect(Object.keys(schema.getQueryType()!.getFields())).toEqual([...QUERY_FIELDS]);
    expect(Object.keys(schema.getMutationType()!.getFields())).toEqual([...MUTATION_FIELDS]);
    expect(schema.getSubscriptionType()).toBeUndefined();
    expect(graphqlSchemaSDL).not.toMatch(/^\s*(enum|interface|union|directive|subscription)\b/m);
    const own = Object.keys(schema.getTypeMap()).filter((name) => !name.startsWith("__")).sort();
    expect(own).toEqual(
      ["Activity", "ActivityConnection", "Beacon", "Boolean", "Customer", "CustomerConnection", "DateTime", "EarnRule", "Float", "ID", "Int",
        "Mutation", "NextReward", "PageInfo", "Query", "Redemption", "Reward", "RewardCode", "Shop", "StampResult", "String", "Tier",
        "UpdateCustomerInput"].sort(),
    );
  });

  it("has each root field's arguments exactly where its REST twin takes them", () => {
    for (const field of [...QUERY_FIELDS, ...MUTATION_FIELDS]) {
      const definition = schema.getQueryType()!.getFields()[field] ?? schema.getMutationType()!.getFields()[field]!;
      const args = definition.args.flatMap((arg) => {
        const named = getNamedType(arg.type);
        return "getFields" in named && !isLeafType(named) ? Object.keys(named.getFields()).map((f) => `${arg.name}.${f}`) : [arg.name];
      });
      expect(Object.keys(REST_TWINS[field].args).sort(), field).toEqual(args.sort());
    }
  });

  it("maps each root field onto a REST operation of its own, every operation that declares a twin; a GET's twin is a query", () => {
    const twins = Object.values(REST_TWINS).map((t) => t.operation);
    expect(twins.sort()).toEqual(OPERATION_IDS.filter((id) => OPERATIONS[id].graphql !== null).sort());
    expect(Object.entries(REST_TWINS).filter(([, t]) => t.method === "GET").map(([f]) => f)).toEqual([...QUERY_FIELDS]);
  });

  // Check 9.
  it("answers introspection with the documented types, and prints back as the committed SDL", async () => {
    const { gql } = graphqlSim({ customers: 3 });
    const res = await gql(getIntrospectionQuery({ descriptions: true }));
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const client = buildClientSchema(res.body.data as IntrospectionQuery);
    expect(`${printSchema(client)}\n`).toBe(committed);
    const query = client.getQueryType()!.getFields();
    const mutation = client.getMutationType()!.getFields();
    expect(Object.keys(query).length + Object.keys(mutation).length).toBe(QUERY_FIELDS.length + MUTATION_FIELDS.length);
    expect(query.customerActivities!.args.map((a) => a.name)).toEqual(["customerId", "limit", "after", "hasCount"]);
    expect(String(mutation.updateCustomer!.type)).toBe("Customer");
    expect(String(mutation.setCustomerTier!.type)).toBe("Customer!");
    const customer = client.getType("Customer") as GraphQLObjectType;
    expect(String(customer.getFields().mergedIntoCustomerId!.type)).toBe("Int");
    expect(String(customer.getFields().vipTierId!.type)).toBe("Int");
    expect(String(customer.getFields().stampsExpireAt!.type)).toBe("String");
    expect(client.getType("DateTime")?.toString()).toBe("DateTime");
    // No argument has an SDL default (A14): defaults are applied by the resolvers.
    const defaults = [...Object.values(query), ...Object.values(mutation)].flatMap((f) => f.args.filter((a) => a.defaultValue !== undefined).map((a) => `${f.name}.${a.name}`));
    expect(defaults).toEqual([]);
  });

  it("selects every field of every type from seeded data with no unexpected null", async () => {
    const sim = graphqlSim();
    const fieldsOf = (typeName: string): string => {
      const type = schema.getType(typeName) as GraphQLObjectType;
      const fields = Object.values(type.getFields()).map((f) => {
        const named = getNamedType(f.type);
        return named instanceof GraphQLObjectType ? `${f.name} ${fieldsOf(named.name)}` : f.name;
      });
      return `{ ${fields.join(" ")} }`;
    };
    const C = sim.activeCustomer(20);
    sim.shop.redeemReward(C, 101);
    const res = await sim.gql(`{
      shop ${fieldsOf("Shop")}
      earnRules ${fieldsOf("EarnRule")}
      tiers ${fieldsOf("Tier")}
      beacons ${fieldsOf("Beacon")}
      rewards ${fieldsOf("Reward")}
      customer(id: "${C}") ${fieldsOf("Customer")}
      customerActivities(customerId: "${C}", hasCount: true) ${fieldsOf("ActivityConnection")}
      rewardCodes(customerId: "${C}") ${fieldsOf("RewardCode")}
    }`);
    expect(res.body.errors).toBeUndefined();
    const nulls: string[] = [];
    const walk = (value: unknown, path: string) => {
      if (value === null) nulls.push(path);
      else if (typeof value === "object") for (const [k, v] of Object.entries(value as object)) walk(v, `${path}.${k}`);
    };
    walk(res.body.data, "data");
    // The only null: the seeded customer was never merged (REST leaves the field out).
    expect(nulls).toEqual(["data.customer.mergedIntoCustomerId"]);
  });
});
