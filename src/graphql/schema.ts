/**
 * The executable schema: the SDL built once, with the DateTime scalar's serialisation and the root
 * fields' resolvers, and its printed form (`graphql/schema.graphql`, `GET /graphql/schema.graphql`).
 * @module
 */
import { buildSchema, GraphQLError, GraphQLScalarType, printSchema, type GraphQLSchema } from "graphql";
import { rootResolvers } from "./resolvers.js";
import type { RootField } from "../contract/index.js";
import { graphqlSchemaSDL } from "./sdl.js";

/** REST's timestamps end in `+00:00`; the GraphQL docs show only the `Z` form of the same instant. */
const UTC_OFFSET = /\+00:00$/;

function serializeDateTime(value: unknown): string {
  if (typeof value === "string" && (UTC_OFFSET.test(value) || value.endsWith("Z"))) return value.replace(UTC_OFFSET, "Z");
  throw new GraphQLError(`DateTime cannot represent value: ${JSON.stringify(value) ?? String(value)}`);
}

/**
 * The schema, built once. The DateTime scalar built from SDL passes values through unchanged;
 * its serialisation and the root fields' resolvers are set here, before the schema is used, as
 * schema-first servers do (graphql-jit reads resolvers only from the schema).
 */
function build(): GraphQLSchema {
  const schema = buildSchema(graphqlSchemaSDL);
  const dateTime = schema.getType("DateTime");
  if (!(dateTime instanceof GraphQLScalarType)) throw new Error("the SDL must declare scalar DateTime");
  dateTime.serialize = serializeDateTime;
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      const resolver = rootResolvers[field.name as RootField];
      if (resolver === undefined) throw new Error(`no resolver for the root field ${field.name}`);
      field.resolve = resolver;
    }
  }
  return schema;
}

export const schema: GraphQLSchema = build();

/** The schema as graphql-js prints it: the committed `graphql/schema.graphql`. */
export function printedSchema(): string {
  return `${printSchema(schema)}\n`;
}
