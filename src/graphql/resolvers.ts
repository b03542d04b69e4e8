/**
 * The root resolvers: each checks its arguments as its REST twin would, runs the twin's engine call
 * (the contract's `run`, which its REST handler runs too), and returns the engine's view (whose
 * field names are GraphQL's).
 * A refusal is a field error whose message is the code, as production writes it; a decision taken
 * before execution (`forced`) answers instead of the engine.
 * @module
 */
import { GraphQLError, type GraphQLFieldResolver } from "graphql";
import { graphqlCursorOf } from "../contract/cursors.js";
import { operationOf, REST_TWINS, ROOT_FIELDS, type RootField } from "../contract/index.js";
import type { AnswerKind, Operation } from "../contract/operation.js";
import type { FieldCode } from "../contract/twin.js";
import { DomainError, ERROR_MESSAGES, type ErrorCode, type RefusalReason } from "../engine/errors.js";
import { JsonView } from "../engine/json-view.js";
import type { Page } from "../engine/pagination.js";
import type { ShopEngine } from "../engine/shop-engine.js";
import { asArgumentIssues, checkArguments, type ArgumentIssue } from "./twins.js";

/** Codes a field can end with: REST's, and GraphQL's own refusal of a tier change. */
export type FieldErrorCode = FieldCode;

/** What was decided for one root field before execution (a scenario rule, a `Prefer` header). */
export interface FieldDecision {
  /** The field fails with this code; its resolver never runs. */
  error?: FieldErrorCode;
  /** `extensions.reason` of that error. */
  reason?: string;
  /** The field waits this long before it resolves (or fails). */
  delayMs?: number;
}

export interface GraphQLContext {
  shop: ShopEngine;
  /** Decisions by response key (the alias, else the field name) of root fields. */
  forced?: ReadonlyMap<string, FieldDecision>;
  /** How a delayed field waits (the caller's may end early when the client gives up); default a timer. */
  wait?: (ms: number) => Promise<void>;
  /** Told of anything a resolver throws that is not a refusal: a bug, answered INTERNAL_ERROR. */
  onBug?: (error: unknown) => void;
  /** Told of the engine's reason for a field's refusal (a balance and a price), for the journal's why. */
  onRefusal?: (reason: RefusalReason) => void;
}

/** A field error as production writes one: the code as `message`, the simulator's why in `extensions`. */
export function fieldError(code: FieldErrorCode, reason: string, details?: readonly ArgumentIssue[]): GraphQLError {
  return new GraphQLError(code, { extensions: { reason, ...(details && details.length > 0 && { details }) } });
}

type Args = Record<string, unknown>;

function connection<T>(page: Page<T>) {
  const { pagination } = page;
  return {
    items: page.items,
    pageInfo: {
      ...pagination,
      nextCursor: graphqlCursorOf(pagination.nextCursor),
      previousCursor: graphqlCursorOf(pagination.previousCursor),
    },
  };
}

/** What a field resolves to, by the kind of answer: a page as a connection, one record as its view (not its kept JSON text). */
const VALUE_OF: Record<AnswerKind, (result: unknown) => unknown> = {
  one: (result) => (result instanceof JsonView ? result.value : result),
  list: (result) => result,
  page: (result) => connection(result as Page<unknown>),
};

/** What a thrown refusal or bug becomes: the field's error. */
function asFieldError(field: RootField, error: unknown, ctx: GraphQLContext): GraphQLError {
  if (error instanceof GraphQLError) return error;
  if (error instanceof DomainError) {
    if (error.reason !== undefined) ctx.onRefusal?.(error.reason);
    const code = REST_TWINS[field].declared.codes?.[error.code as ErrorCode] ?? (error.code as ErrorCode);
    return fieldError(code, error.message, error.details && asArgumentIssues(field, error.details));
  }
  ctx.onBug?.(error);
  return fieldError("INTERNAL_ERROR", ERROR_MESSAGES.INTERNAL_ERROR);
}

/** The field's twin operation, run on its checked input: the engine call its REST handler makes. */
function resolve(field: RootField, operation: Operation, args: Args, ctx: GraphQLContext, decision: FieldDecision | undefined): unknown {
  if (decision?.error !== undefined) throw fieldError(decision.error, decision.reason ?? `forced for ${field}`);
  try {
    const checked = checkArguments(field, args);
    if (checked.issues) throw fieldError("VALIDATION_ERROR", ERROR_MESSAGES.VALIDATION_ERROR, checked.issues);
    return VALUE_OF[operation.answer.kind](operation.run(ctx.shop, checked.input as never));
  } catch (error) {
    throw asFieldError(field, error, ctx);
  }
}

/** A root field's resolver: the schema's root fields carry these (both executors call them there). */
type RootResolver = GraphQLFieldResolver<unknown, GraphQLContext, Args>;

function rootResolver(field: RootField): RootResolver {
  const operation = operationOf(REST_TWINS[field].operation)!;
  return (_, args, ctx, info) => {
    const decision = ctx.forced?.get(String(info.path.key));
    const delayMs = decision?.delayMs ?? 0;
    if (delayMs <= 0) return resolve(field, operation, args, ctx, decision);
    const wait = ctx.wait ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
    return wait(delayMs).then(() => resolve(field, operation, args, ctx, decision));
  };
}

/** A resolver per root field, by field name. */
export const rootResolvers: Readonly<Record<RootField, RootResolver>> = Object.fromEntries(ROOT_FIELDS.map((field) => [field, rootResolver(field)])) as Record<RootField, RootResolver>;
