/**
 * The GraphQL API, one entry: the app imports it (`import()`) on the first request for `/graphql`,
 * so that start-up does not load graphql-js. Transport-agnostic: the gateway hands over the
 * request's method, headers and body text, and writes out what comes back.
 * @module
 */
export { graphqlSchemaSDL } from "./sdl.js";
export { schema, printedSchema } from "./schema.js";
export { DocumentCache, GRAPHQL_LIMITS, type Compiled } from "./documents.js";
export { prepareOperation, type OperationPlan, type PreparedOperation, type RootFieldUse } from "./operation.js";
export { executePrepared, JIT_OPTIONS } from "./execute.js";
export {
  negotiate,
  operationRecord,
  prepareRequest,
  readRequest,
  refusalResponse,
  wantsGraphiQL,
  writeResult,
  GRAPHQL_RESPONSE,
  JSON_MEDIA,
  type FieldRecord,
  type GraphQLHttpRequest,
  type GraphQLHttpResponse,
  type GraphQLParams,
  type MediaType,
  type OperationRecord,
} from "./http.js";
export { fieldError, type FieldDecision, type FieldErrorCode, type GraphQLContext } from "./resolvers.js";
export {
  argumentIssues,
  MUTATION_FIELDS,
  QUERY_FIELDS,
  REST_TWINS,
  restTwinRequest,
  type ArgumentIssue,
  type ArgumentTwin,
  type RestTwin,
  type RestTwinRequest,
  type RootField,
} from "./twins.js";
export { graphiqlAsset, graphiqlInit, graphiqlPage, graphqlSchemaFile, type GraphiQLFile, type GraphiQLOptions } from "./graphiql.js";
