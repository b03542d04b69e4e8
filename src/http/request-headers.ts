/**
 * Reading a request header. Under the Node server the header comes from the request's
 * `incoming.headers`, which Node builds for every request anyway (it reads `host` and `expect`
 * from it); the server joins repeated headers there with ", " (`joinDuplicateHeaders`, see
 * http/node-server.ts) and trims values, as fetch `Headers` do. `c.req.header()` would instead
 * have the adapter build a fetch `Headers` of its own from the raw list, and check the name against
 * a pattern, for each of the headers every API request reads. Anywhere else (in-process
 * `app.fetch`) the fetch Request's own headers answer.
 * @module
 */
import type { Context } from "hono";
import type { AppEnv } from "./env.js";

interface NodeBindings {
  incoming?: { headers?: Record<string, string | string[] | undefined>; rawHeaders?: string[] };
}

/** The request's `name` header (a lower-case name), or undefined. Names are matched without regard to case. */
export function requestHeader(c: Context<AppEnv>, name: string): string | undefined {
  const headers = (c.env as NodeBindings | undefined)?.incoming?.headers;
  if (headers === undefined) return c.req.header(name);
  const value = headers[name];
  // Only set-cookie is ever a list; an inherited property (a name such as "constructor") is none.
  return typeof value === "string" ? value : Array.isArray(value) ? value.join(", ") : undefined;
}

/** Under the Node server, the request's headers as received: names (in their own case) and values, alternating. */
export function rawRequestHeaders(c: Context<AppEnv>): readonly string[] | undefined {
  return (c.env as NodeBindings | undefined)?.incoming?.rawHeaders;
}
