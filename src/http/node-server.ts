/**
 * How the simulator's Node server is made (options of @hono/node-server's `serve`):
 * - repeated request headers are joined with ", " in `incoming.headers`, as fetch `Headers`
 *   join them, so that `requestHeader` reads them from there (http/request-headers.ts);
 * - a request that declares a small body reaches the app once the body is here, so that a write
 *   is answered without waiting (http/request-body.ts);
 * - the adapter's own draining of an unread body is off: it waits for the request stream's end,
 *   which for a body read from the buffer comes after the response, and would then drain what is
 *   gone. Node itself discards a body the app leaves unread (a refused request's) once the
 *   response is sent.
 * @module
 */
import { createServer, type RequestListener, type ServerOptions } from "node:http";
import { awaitingSmallBodies } from "./request-input.js";

export const nodeServerOptions = {
  autoCleanupIncoming: false,
  createServer: ((options: ServerOptions, listener: RequestListener) =>
    createServer({ ...options, joinDuplicateHeaders: true }, awaitingSmallBodies(listener))) as typeof createServer,
};
