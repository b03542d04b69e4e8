/**
 * One request's record. The gateway makes it when the request arrives and hands it, as a
 * parameter, to every step of the request's way: the gates, the route's input checks and its
 * handler, the error writer and the journal. It holds what the request learns on the way (its
 * shop, its body, what decided it, what it committed, what it answers with); hono's context
 * carries none of it.
 * @module
 */
import type { Context } from "hono";
import type { Clock } from "../engine/clock.js";
import type { DomainError } from "../engine/errors.js";
import type { ShopEngine } from "../engine/shop-engine.js";
import type { AppEnv } from "./env.js";
import type { DecidedBy, DecisionNotes, FieldIssue, GraphQLFacts, ScenarioRef } from "./facts.js";
import type { Fault } from "./faults.js";
import type { MountedRoute } from "./operation.js";

/** Writes a refusal (`sendError`'s) in the shape the request's API answers errors in. */
export type ErrorWriter = (exchange: Exchange, error: DomainError, status: number, details?: FieldIssue[]) => Response;

/** An answer something other than the handler decided: a documented error, a raw response, or a fault (see forced.ts). */
export type ForcedAnswer =
  | { error: DomainError; headers?: Record<string, string> }
  | { status: number; body?: unknown; headers: Record<string, string> }
  | { fault: Fault };

/** When the request arrived: by the wall (its duration) and by its shop's clock (the journal). */
export interface Arrival {
  started: number;
  at: number;
}

/** Real time, until the request names its shop (`identifyShop` sets the shop's clock on every request). */
const WALL_CLOCK: Clock = { now: () => Date.now() };

export class Exchange {
  /** Times the answer and the journal entry: the shop's clock, else the default shop's. */
  clock: Clock = WALL_CLOCK;
  /** The shop both credential headers name (`identifyShop`); undefined when they name none. Steps after the credentials check can count on it. */
  shop!: ShopEngine;
  /** Set once the journal has noted the request (API requests, past the every-request gates): it is journaled when answered. */
  arrival: Arrival | undefined = undefined;
  /** The body's text, once the body limit's step has read it ("" for a request without one). */
  body: string | undefined = undefined;
  /** Why the body was left unread (over the limit, or answered before the client sent it). */
  bodyNotRead: string | undefined = undefined;
  /** The scenario rule that decided the request, or only delayed or counted it. */
  decision: ScenarioRef | undefined = undefined;
  /** What answered, when not the handler. */
  decidedBy: DecidedBy | undefined = undefined;
  /** What the journal's "why" trace cannot work out afterwards (journal/notes.ts). */
  notes: DecisionNotes | undefined = undefined;
  /** A network fault that answered instead of a response. */
  fault: Fault | undefined = undefined;
  /** The answer to give instead of the handler's, once the handler has answered (a scenario rule with `commit`). */
  instead: ForcedAnswer | undefined = undefined;
  /** The handler's answer, when `instead` replaced it after it committed. */
  committed: { status: number; text: string; type: string | null } | undefined = undefined;
  /** A GraphQL request's operation, once known, for the journal and the log. */
  graphql: GraphQLFacts | undefined = undefined;
  /** A GraphQL request's root fields once its document is prepared (before any runs): what an answer to the whole request counts against in coverage. */
  rootFields: readonly { readonly field: string; readonly responseKey: string }[] | undefined = undefined;
  /** The root fields (by response key) a scenario rule or `Prefer` failed with an error. */
  forcedFields: ReadonlyMap<string, { readonly error?: string }> | undefined = undefined;
  /** The error code of the answer the client gets, when it is a refusal (`sendError`). */
  errorCode: string | undefined = undefined;
  /** Response headers gathered while the request runs (the request id, CORS, the quota); see respond.ts. */
  readonly headers: Record<string, string> = {};
  /** The JSON text of the answer the app wrote (`sendJson`), sent with `headers`; kept for the journal. */
  sentText: string | undefined = undefined;
  #params: Record<string, string> | undefined = undefined;

  constructor(
    /** hono's context: the request as hono and the Node adapter read it. */
    readonly c: Context<AppEnv>,
    /** The route that matched; undefined for a path no route has. */
    readonly route: MountedRoute | undefined,
    /** How refusals are written: the REST envelope, or GraphQL's shape on its side of the gateway. */
    readonly writeError: ErrorWriter,
  ) {}

  /** The path's parameters, decoded as the router decodes them (read once: hono makes a new object each time). */
  get params(): Record<string, string> {
    return (this.#params ??= this.c.req.param() as Record<string, string>);
  }
}
