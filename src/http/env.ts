/** @module Types of the values every request carries through the app. */
import type { Clock } from "../engine/clock.js";
import type { DecisionNotes } from "../journal-trace.js";
import type { DecidedBy } from "../journal.js";
import type { ShopEngine } from "../engine/shop-engine.js";
import type { OperationRef } from "../scenarios/operations.js";
import type { Decision } from "../scenarios/registry.js";
import type { MaybePromise } from "./maybe-promise.js";
import type { Outgoing } from "./respond.js";

/**
 * Read these with `c.get(...)`: hono builds a fresh object on every `c.var` access. They live in a
 * Map that grows (a rehash) once a request sets a fifth: a usual request sets four.
 */
export interface AppEnv {
  Variables: {
    clock: Clock;
    /** The shop the request's credentials identify (set by the credentials check). */
    shop: ShopEngine;
    /** The API operation the request is for, when it names one. */
    operation?: OperationRef;
    /** The scenario rule that decided the request, if any. */
    decision?: Pick<Decision, "scenario" | "rule" | "ruleName">;
    /** A network fault that answered instead of a response. */
    fault?: string;
    /** What answered, when not the handler (set only then: the usual request pays nothing). */
    decidedBy?: DecidedBy;
    /** Set by a gate that lets the request through: the answer to send instead of the handler's. */
    replaceAnswer?: (handlers: Response) => MaybePromise<Response>;
    /** The handler's answer, when a scenario rule replaced it after it committed. */
    committed?: { status: number; text: string; type: string | null };
    /** What the "why" trace cannot work out afterwards (journal-trace.ts); set only when there is some. */
    notes?: DecisionNotes;
    /** What the response will carry, gathered while the request runs (see http/respond.ts). */
    out?: Outgoing;
  };
}
