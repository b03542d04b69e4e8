/**
 * How the simulator's Node server is made (options of @hono/node-server's `serve`): repeated
 * headers joined in `incoming.headers` as fetch joins them, small bodies awaited before the app
 * runs (both for request-input.ts), and no draining by the adapter: Node discards a body the app
 * leaves unread once the response is sent.
 * @module
 */
import { createServer, type RequestListener, type ServerOptions } from "node:http";
import { awaitingSmallBodies } from "./request-input.js";

export const nodeServerOptions = {
  autoCleanupIncoming: false,
  createServer: ((options: ServerOptions, listener: RequestListener) =>
    createServer({ ...options, joinDuplicateHeaders: true }, awaitingSmallBodies(listener))) as typeof createServer,
};
