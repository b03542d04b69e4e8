/**
 * The REST route of each operation of the contract, made once at start: its envelope and every
 * status it can answer (`apiRoute`), typed so that hono/client knows each answer's body.
 * @module
 */
import type { z } from "@hono/zod-openapi";
import { OPERATIONS, type OperationId } from "../contract/index.js";
import type { AnswerKind, Operation } from "../contract/operation.js";
import type { ErrorCode } from "../engine/errors.js";
import { apiRoute, type ApiRoute } from "../http/router.js";
import { envelope, listEnvelope, pagedEnvelope } from "../http/schemas.js";

type Operations = typeof OPERATIONS;

/** The REST envelope of each kind of answer. */
const ENVELOPES = { one: envelope, list: listEnvelope, page: pagedEnvelope } satisfies Record<AnswerKind, (schema: z.ZodType) => z.ZodType>;
type EnvelopeOf<A> = A extends { kind: "page"; schema: infer S extends z.ZodType }
  ? ReturnType<typeof pagedEnvelope<S>>
  : A extends { kind: "list"; schema: infer S extends z.ZodType }
    ? ReturnType<typeof listEnvelope<S>>
    : A extends { schema: infer S extends z.ZodType }
      ? ReturnType<typeof envelope<S>>
      : never;

/** A part of the input when the operation takes it, else nothing. */
type Part<Name extends string, T> = [NonNullable<T>] extends [never] ? {} : { [N in Name]: NonNullable<T> };
type RequestOf<O extends Operation> = Part<"params", O["params"]> &
  Part<"query", O["query"]> &
  Part<"body", [NonNullable<O["body"]>] extends [never] ? never : { required: true; content: { "application/json": { schema: NonNullable<O["body"]> } } }>;
type ErrorsOf<O extends Operation> = O["errors"] extends readonly (infer C extends ErrorCode)[] | undefined ? C[] : never[];

/** An operation's route, as `apiRoute` types it. */
export type RouteOf<O extends Operation> = ApiRoute<{
  method: O["method"];
  path: O["path"];
  operationId: O["id"];
  tags: string[];
  summary: string;
  description: string;
  request: RequestOf<O>;
  success: { description: string; schema: EnvelopeOf<O["answer"]> };
  errors: ErrorsOf<O>;
}>;

function routeOf<O extends Operation>(op: O): RouteOf<O> {
  const request = {
    ...(op.params && { params: op.params }),
    ...(op.query && { query: op.query }),
    ...(op.body && { body: { required: true, content: { "application/json": { schema: op.body } } } }),
  };
  // Typed by `RouteOf`, from the same declaration.
  return apiRoute({
    method: op.method,
    path: op.path,
    operationId: op.id,
    tags: op.tags,
    summary: op.summary,
    description: op.description,
    ...(Object.keys(request).length > 0 && { request }),
    success: { description: op.answer.description, schema: (ENVELOPES[op.answer.kind] as (schema: z.ZodType) => z.ZodType)(op.answer.schema) },
    ...(op.errors && { errors: [...op.errors] }),
  } as Parameters<typeof apiRoute>[0]) as never;
}

/** Every operation's route, by id, in the contract's order. */
export const ROUTES = Object.fromEntries(Object.values(OPERATIONS).map((op: Operation) => [op.id, routeOf(op)])) as unknown as { [Id in OperationId]: RouteOf<Operations[Id]> };
