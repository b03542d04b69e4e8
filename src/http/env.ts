/** @module Types of the values every request carries through the app. */
import type { Clock } from "../engine/clock.js";
import type { ShopEngine } from "../engine/shop-engine.js";
import type { OperationRef } from "../scenarios/operations.js";
import type { Decision } from "../scenarios/registry.js";

/** Read these with `c.get(...)`: hono builds a fresh object on every `c.var` access. */
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
    /** The JSON text of the response the app wrote, kept for the journal. */
    responseText?: string;
    /** This request's id (a client's own X-Request-Id, or ours). */
    requestId: string;
    /** Response headers gathered so far (see http/respond.ts). */
    outHeaders?: Record<string, string>;
    /** Whether the response was written with them already. */
    outHeadersSent?: boolean;
  };
}
