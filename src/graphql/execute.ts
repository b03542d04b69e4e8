/**
 * Runs a prepared operation. graphql-js runs it the first time; a query that comes again runs as
 * the function graphql-jit compiled from it, which skips graphql-js's work per field (argument
 * maps, resolve infos, type checks): a `customer(id)` costs about half as much (see
 * docs/performance.md). Clients cannot tell which ran (a property test holds the two side by
 * side), because graphql-js answers wherever they part:
 * - a query in which a field failed runs again on graphql-js (graphql-jit runs the siblings of a
 *   failed non-null field, which graphql-js does not, and orders errors its own way); queries only
 *   read, so running one twice changes nothing;
 * - a mutation always runs on graphql-js (after one whose non-null result failed, graphql-jit goes
 *   on running the next ones);
 * - so does a document with `@skip` or `@include` (graphql-jit orders the fields of a selection
 *   merged around a skipped fragment its own way);
 * - so does an operation with scenario decisions (a delayed field must not wait twice).
 * @module
 */
import { BREAK, execute, visit, type DocumentNode, type ExecutionResult } from "graphql";
import { compileQuery, isCompiledQuery, type CompiledQuery } from "graphql-jit";
import type { PreparedOperation } from "./operation.js";
import type { GraphQLContext } from "./resolvers.js";
import { schema } from "./schema.js";

/** How graphql-jit compiles: no stack traces captured for field errors; `@skip`/`@include` by path (still left to graphql-js, see above). */
export const JIT_OPTIONS = { disablingCapturingStackErrors: true, useExperimentalPathBasedSkipInclude: true };

/** Runs before a query is compiled: one-off documents (a fuzzer's, an explorer's) are never compiled. */
const RUNS_BEFORE_COMPILING = 1;

/** Whether the document holds a directive (`@skip`, `@include`: the only ones an operation can use). */
function hasDirectives(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Directive() {
      found = true;
      return BREAK;
    },
  });
  return found;
}

/**
 * The function graphql-jit makes of a query, or null when graphql-js is to run it every time. A
 * validated query it cannot compile is a bug (two copies of graphql loaded, say): told to `onBug`.
 */
function compile(prepared: PreparedOperation, onBug: GraphQLContext["onBug"]): CompiledQuery | null {
  if (hasDirectives(prepared.document)) return null;
  const compiled = compileQuery(schema, prepared.document, prepared.operationName ?? undefined, JIT_OPTIONS);
  if (isCompiledQuery(compiled)) return compiled;
  onBug?.(new Error(`graphql-jit did not compile a valid query: ${compiled.errors?.map((e) => e.message).join("; ")}`));
  return null;
}

/** The compiled function to run `prepared` with, once it is due; undefined or null while graphql-js runs it. */
function compiledFor(prepared: PreparedOperation, context: GraphQLContext): CompiledQuery | null | undefined {
  const { plan } = prepared;
  if (prepared.operationType !== "query") plan.compiled = null;
  else if (plan.compiled === undefined && ++plan.runs > RUNS_BEFORE_COMPILING) plan.compiled = compile(prepared, context.onBug);
  return plan.compiled;
}

/** Runs the operation: a plain result unless a resolver waits (a delayed field). */
export function executePrepared(prepared: PreparedOperation, context: GraphQLContext): ExecutionResult | Promise<ExecutionResult> {
  const compiled = context.forced === undefined ? compiledFor(prepared, context) : undefined;
  if (compiled) {
    // A bug a resolver meets is told once, by the run that answers. Without decisions no field
    // waits (only a delayed root field's resolver returns a promise), so the answer is here at once.
    const result = compiled.query(undefined, { ...context, onBug: undefined }, prepared.variables) as ExecutionResult;
    if (result.errors === undefined) return result;
  }
  return execute({
    schema,
    document: prepared.document,
    contextValue: context,
    variableValues: prepared.variables,
    operationName: prepared.operationName ?? undefined,
  });
}
