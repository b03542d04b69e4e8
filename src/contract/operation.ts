/**
 * An operation of the API, declared once: its REST form (method, path, input schemas, the answer's
 * kind and schema, the error codes production documents for it), the engine call both APIs make
 * for it, and its GraphQL twin. src/api makes the REST routes and the OpenAPI document of it,
 * src/graphql the root fields and their resolvers; neither reads the other.
 * @module
 */
import type { z } from "@hono/zod-openapi";
import type { ErrorCode } from "../engine/errors.js";
import type { JsonView } from "../engine/json-view.js";
import type { Page } from "../engine/pagination.js";
import type { ShopEngine } from "../engine/shop-engine.js";
import type { GraphQLTwin } from "./twin.js";

export type Method = "get" | "post" | "patch";

/** How the answer comes: one record, a small list answered whole, or a page of a cursor-paginated list. */
export type AnswerKind = "one" | "list" | "page";

/** What `run` returns for each kind, of the records `T` the answer's schema describes (a kept view for one record may bring its JSON text). */
export type Answer<K extends AnswerKind, T> = K extends "one" ? T | JsonView<T> : K extends "list" ? T[] : Page<T>;

type Part = z.ZodType | undefined;

/** The checked input as REST shapes it: path parameters, query and JSON body, each when the operation takes it. */
export type Input<P extends Part, Q extends Part, B extends Part> = (P extends z.ZodType ? { params: z.output<P> } : {}) &
  (Q extends z.ZodType ? { query: z.output<Q> } : {}) &
  (B extends z.ZodType ? { body: z.output<B> } : {});

export interface Declaration<
  M extends Method = Method,
  Path extends string = string,
  P extends Part = Part,
  Q extends Part = Part,
  B extends Part = Part,
  K extends AnswerKind = AnswerKind,
  S extends z.ZodType = z.ZodType,
  E extends ErrorCode = ErrorCode,
  G extends GraphQLTwin | null = GraphQLTwin | null,
> {
  method: M;
  /** Below the API base, with `{name}` for each path parameter. */
  path: Path;
  tags: string[];
  summary: string;
  description: string;
  params?: P;
  query?: Q;
  /** A JSON body, always required when the operation takes one. */
  body?: B;
  /** The answer: its kind and the schema of the records in it (REST wraps them in its envelope). */
  answer: { kind: K; description: string; schema: S };
  /** The domain errors production documents for it; the ones every operation can meet are added. */
  errors?: readonly E[];
  /** The one mapping from checked input to the engine call: the REST handler and the GraphQL resolver both make it. */
  // A method-style signature: its parameter is checked bivariantly, so any declaration fits `Declaration`.
  run(shop: ShopEngine, input: Input<P, Q, B>): Answer<K, z.output<S>>;
  /** The GraphQL root field that does the same, or null when GraphQL has none. */
  graphql: G;
}

/** One operation's declaration, its input types flowing from its schemas into `run`. */
export function operation<
  const M extends Method,
  const Path extends string,
  const K extends AnswerKind,
  S extends z.ZodType,
  const G extends GraphQLTwin | null,
  P extends Part = undefined,
  Q extends Part = undefined,
  B extends Part = undefined,
  const E extends ErrorCode = never,
>(declared: Declaration<M, Path, P, Q, B, K, S, E, G>): Declaration<M, Path, P, Q, B, K, S, E, G> {
  return declared;
}

/** A declared operation with its id, the name the OpenAPI document, scenarios and the journal give it. */
export type Operation<Id extends string = string, D extends Declaration = Declaration> = D & { readonly id: Id };

/**
 * A resource's operations, by id: each key is the operation's id, spelled nowhere else. (Its
 * declarations are typed by `operation()` alone: a contextual `Declaration` here would give the
 * parts an operation does not take the type of those it may.)
 */
export function resource<const R extends Record<string, object>>(declared: R): { [Id in keyof R & string]: R[Id] extends Declaration ? Operation<Id, R[Id]> : never } {
  return Object.fromEntries(Object.entries(declared).map(([id, d]) => [id, { ...d, id }])) as never;
}
