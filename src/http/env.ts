/** @module The values every request carries through the app, and their types. */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Context } from "hono";
import type { Clock } from "../engine/clock.js";
import type { ShopEngine } from "../engine/shop-engine.js";
import type { DomainError } from "../engine/errors.js";
import type { MaybePromise } from "./maybe-promise.js";
import type { DecidedBy, DecisionNotes, FieldIssue, GraphQLFacts, ScenarioRef } from "./facts.js";
import type { Fault } from "./faults.js";
import type { OperationRef } from "./operation.js";

export { DECIDERS, type DecidedBy, type ScenarioRef } from "./facts.js";

/** What a request's response will carry, gathered while it runs (see respond.ts). */
export interface Outgoing {
  /** Response headers gathered so far (the request id, CORS, the quota). */
  headers: Record<string, string>;
  /** The JSON text of the response the app wrote, with `headers`; kept for the journal. */
  text?: string;
}

export interface AppEnv {
  /** What the caller hands over with the request: the Node server its `incoming`, an in-process caller its `signal`. */
  Bindings: {
    incoming?: IncomingMessage;
    /** Under the Node server, where the response goes (for `100 Continue` and `Connection: close`). */
    outgoing?: ServerResponse;
    /** The caller's own AbortSignal (undici links the Request's copy to it only through a WeakRef). */
    signal?: AbortSignal;
  };
  /**
   * Read these with `c.get(...)`: hono builds a fresh object on every `c.var` access. They live in a
   * Map that grows (a rehash) once a request sets a fifth: a usual request sets four.
   */
  Variables: {
    clock: Clock;
    /** The shop the request's credentials identify (set by the credentials check). */
    shop: ShopEngine;
    /** The API operation the request is for, when it names one. */
    operation?: OperationRef;
    /** The scenario rule that decided the request, if any. */
    decision?: ScenarioRef;
    /** A network fault that answered instead of a response. */
    fault?: Fault;
    /** What answered, when not the handler (set only then: the usual request pays nothing). */
    decidedBy?: DecidedBy;
    /** Set by a gate that lets the request through: the answer to send instead of the handler's. */
    replaceAnswer?: (handlers: Response) => MaybePromise<Response>;
    /** The handler's answer, when a scenario rule replaced it after it committed. */
    committed?: { status: number; text: string; type: string | null };
    /** What the "why" trace cannot work out afterwards (journal/notes.ts); set only when there is some. */
    notes?: DecisionNotes;
    /** What the response will carry, gathered while the request runs (see respond.ts). */
    out?: Outgoing;
    /** Set by a route whose errors are not the REST envelope (GraphQL's): writes `sendError`'s refusals. */
    writeError?: (c: Context<AppEnv>, error: DomainError, status: number, details?: FieldIssue[]) => Response;
    /** A GraphQL request's operation, once known, for the journal and the log. */
    graphql?: GraphQLFacts;
  };
}
