/**
 * What a caller hands over with each request, as hono's `c.env`. What a request learns on its way
 * is kept on its record (exchange.ts), not on hono's context.
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export { DECIDERS, type DecidedBy, type ScenarioRef } from "./facts.js";

export interface AppEnv {
  /** What the caller hands over with the request: the Node server its `incoming`, an in-process caller its `signal`. */
  Bindings: {
    incoming?: IncomingMessage;
    /** Under the Node server, where the response goes (for `100 Continue` and `Connection: close`). */
    outgoing?: ServerResponse;
    /** The caller's own AbortSignal (undici links the Request's copy to it only through a WeakRef). */
    signal?: AbortSignal;
  };
}
