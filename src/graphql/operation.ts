/**
 * From a validated document to the operation a request runs: the operation chosen by name, its
 * variables coerced, and its root fields with their arguments, known before anything executes
 * (what scenario rules, the journal and the list-size cap need).
 * @module
 */
import {
  getArgumentValues,
  getDirectiveValues,
  GraphQLError,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  getVariableValues,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import type { CompiledQuery } from "graphql-jit";
import { documentError, GRAPHQL_LIMITS, type DocumentCache } from "./documents.js";
import { operationOf, REST_TWINS, ROOT_FIELDS, type RootField } from "../contract/index.js";
import { DEFAULT_PAGE_SIZE } from "../contract/inputs.js";
import { schema } from "./schema.js";

/** One root field as the operation selects it. */
export interface RootFieldUse {
  field: RootField;
  /** The alias, or null. */
  alias: string | null;
  /** Where the field's value goes in `data`: the alias, else the field's name. */
  responseKey: string;
  /** The arguments, coerced (variables filled in); shared by the requests of an operation kept prepared. */
  args: Readonly<Record<string, unknown>>;
}

/** What is kept of one operation of a cached document between requests. */
export interface OperationPlan {
  /** The operation prepared once, when it declares no variables: nothing about it can change then. */
  prepared?: PreparedOperation;
  /** How often it ran, and the function graphql-jit compiled from it (null: graphql-js runs it; see execute.ts). */
  runs: number;
  compiled?: CompiledQuery | null;
}

export interface PreparedOperation {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  operationType: "query" | "mutation";
  operationName: string | null;
  /** The variables as sent; execution coerces them as they were checked here. */
  variables: Record<string, unknown>;
  /** In document order, `@skip`/`@include` applied; `__typename`, `__schema` and `__type` left out. */
  rootFields: RootFieldUse[];
  plan: OperationPlan;
}

export type Prepared = { prepared: PreparedOperation; errors?: undefined } | { prepared?: undefined; errors: readonly GraphQLError[] };

/** The operation to run, as graphql-js chooses it (and with its messages). */
function chooseOperation(document: DocumentNode, name: string | null | undefined): OperationDefinitionNode | GraphQLError {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (name != null) return operations.find((o) => o.name?.value === name) ?? documentError(`Unknown operation named "${name}".`);
  if (operations.length === 1) return operations[0]!;
  return documentError(operations.length === 0 ? "Must provide an operation." : "Must provide operation name if query contains multiple operations.");
}

/** Whether a value holds more than `max` object fields and list items, at every level (counted with a stack of its own). */
function holdsMoreThan(value: unknown, max: number): boolean {
  const stack = [value];
  let count = 0;
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    const children = Array.isArray(node) ? node : Object.values(node);
    count += children.length;
    if (count > max) return true;
    stack.push(...children);
  }
  return false;
}

/** Whether `@skip`/`@include` leave a selection out, for these variables. */
function skipped(node: Parameters<typeof getDirectiveValues>[1], variables: Record<string, unknown>): boolean {
  if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.if === true) return true;
  return getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if === false;
}

/** The root field nodes in the order execution meets them: one per response key, fragments expanded. */
function rootFieldNodes(
  set: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
  out: Map<string, FieldNode>,
  visited: Set<string>,
): Map<string, FieldNode> {
  for (const selection of set.selections) {
    if (skipped(selection, variables)) continue;
    if (selection.kind === Kind.FIELD) {
      const key = selection.alias?.value ?? selection.name.value;
      if (!out.has(key)) out.set(key, selection);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      rootFieldNodes(selection.selectionSet, fragments, variables, out, visited);
    } else if (!visited.has(selection.name.value)) {
      visited.add(selection.name.value);
      const fragment = fragments.get(selection.name.value);
      if (fragment) rootFieldNodes(fragment.selectionSet, fragments, variables, out, visited);
    }
  }
  return out;
}

/** How many list items a root field may answer: a page's limit, or as many as a list answered whole may hold. */
function listItemsOf(field: RootField, args: Record<string, unknown>): number {
  const twin = REST_TWINS[field];
  if (operationOf(twin.operation)!.answer.kind === "page") return typeof args.limit === "number" ? Math.max(0, args.limit) : DEFAULT_PAGE_SIZE;
  return twin.declared.maxItems ?? 0;
}

/** The lists answered whole, as the refusal of too many items names them. */
const WHOLE_LISTS = ROOT_FIELDS.flatMap((field) => {
  const most = REST_TWINS[field].declared.maxItems;
  return most === undefined ? [] : [`${most} for each ${field}`];
}).join(", ");

/**
 * The operation a request runs, ready to execute; or the request errors that refuse it (an
 * operation not determinable, a subscription, variables that do not coerce, lists too long).
 * `cache` keeps an operation that declares no variables prepared, for the next request.
 */
export function prepareOperation(
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
  cache?: Pick<DocumentCache, "kept">,
): Prepared {
  const operation = chooseOperation(document, operationName);
  if (operation instanceof GraphQLError) return { errors: [operation] };
  if (operation.operation === "subscription") return { errors: [documentError("Schema is not configured to execute subscription operation.")] };
  const plan: OperationPlan = cache?.kept(operation, () => ({ runs: 0 })) ?? { runs: 0 };
  if (plan.prepared) return { prepared: plan.prepared };
  const declaresVariables = (operation.variableDefinitions ?? []).length > 0;
  // Kept for the next requests, an operation without variables must not keep this one's (unused) ones.
  const prepared = prepareFresh(document, operation, declaresVariables ? variables : null, plan);
  if (prepared.prepared && !declaresVariables) plan.prepared = prepared.prepared;
  return prepared;
}

/** `prepareOperation`'s work for one request: the variables checked and coerced, the root fields and their arguments. */
function prepareFresh(
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | null | undefined,
  plan: OperationPlan,
): Prepared {
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (variables && holdsMoreThan(variables[name], GRAPHQL_LIMITS.variableValues)) {
      return { errors: [documentError(`Variable "$${name}" may hold at most ${GRAPHQL_LIMITS.variableValues} object fields and list items.`)] };
    }
  }
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, { maxErrors: 50 });
  if (coerced.errors) return { errors: coerced.errors };
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const rootType = operation.operation === "query" ? schema.getQueryType()! : schema.getMutationType()!;
  const rootFields: RootFieldUse[] = [];
  let listItems = 0;
  for (const [responseKey, node] of rootFieldNodes(operation.selectionSet, fragments, coerced.coerced, new Map(), new Set())) {
    const definition = rootType.getFields()[node.name.value];
    if (definition === undefined || !Object.hasOwn(REST_TWINS, node.name.value)) continue;
    const args = getArgumentValues(definition, node, coerced.coerced);
    const field = node.name.value as RootField;
    listItems += listItemsOf(field, args);
    rootFields.push({ field, alias: node.alias?.value ?? null, responseKey, args });
  }
  if (listItems > GRAPHQL_LIMITS.listItems) {
    const summed = `the sum of its limits, ${WHOLE_LISTS}`;
    return { errors: [documentError(`An operation may ask for at most ${GRAPHQL_LIMITS.listItems} list items in all (${summed}); this one asks for ${listItems}.`)] };
  }
  return {
    prepared: {
      document,
      operation,
      operationType: operation.operation === "query" ? "query" : "mutation",
      operationName: operation.name?.value ?? null,
      variables: variables ?? {},
      rootFields,
      plan,
    },
  };
}
