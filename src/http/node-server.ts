/**
 * How the simulator's Node server is made (options of @hono/node-server's `serve`): repeated
 * headers joined in `incoming.headers` as fetch joins them, small bodies awaited one microtask
 * before the app runs (so that request-input.ts finds them whole), a client that sent `Expect:
 * 100-continue` asked for its body only when the app reads it (both for request-input.ts), and no
 * draining by the adapter: Node discards a body the app leaves unread once the response is sent
 * (request-input.ts closes the connection after a body over the limit instead).
 * @module
 */
import { createServer, type RequestListener, type ServerOptions } from "node:http";
import { askingForBodies, awaitingSmallBodies } from "./request-input.js";

export const nodeServerOptions = {
  autoCleanupIncoming: false,
  createServer: ((options: ServerOptions, listener: RequestListener) => {
    const server = createServer({ ...options, joinDuplicateHeaders: true }, awaitingSmallBodies(listener));
    // Without a listener, Node answers 100 Continue itself, before the app could refuse the body.
    return server.on("checkContinue", askingForBodies(listener));
  }) as typeof createServer,
};
