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
export { checkArguments, type ArgumentIssue, type CheckedArguments } from "./twins.js";
// The root fields and their twins are the contract's; tests and tools find them here too.
export { MUTATION_FIELDS, QUERY_FIELDS, REST_TWINS, type RestTwin, type RootField } from "../contract/index.js";
export { restTwinRequest, type RestTwinRequest } from "../contract/twin-request.js";
export type { ArgumentTwin } from "../contract/twin.js";
export { graphiqlAsset, graphiqlInit, graphiqlPage, graphqlSchemaFile, type GraphiQLFile, type GraphiQLOptions } from "./graphiql.js";
