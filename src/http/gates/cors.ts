/**
 * CORS for browser apps under test: preflights answered without credentials, the API's headers
 * exposed, on requests that carry an Origin, for the requests `covers` names. Not hono/cors, which
 * touches `c.res` before the handler runs and so makes the Node adapter rebuild every response as
 * a fetch Response.
 * @module
 */
import type { Step } from "../gateway.js";
import { requestHeader } from "../request-input.js";

export interface CorsOptions {
  /** Whether CORS covers a request (its path and method; a preflight's, the method it asks for): the API's, never a page's. */
  covers: (path: string, method: string) => boolean;
  allowHeaders: string[];
  allowMethods: string[];
  exposeHeaders: string[];
  maxAgeSeconds: number;
}

export function cors(options: CorsOptions): Step {
  const allowHeaders = options.allowHeaders.join(",");
  const allowMethods = options.allowMethods.join(",");
  const exposeHeaders = options.exposeHeaders.join(",");
  return ({ c, headers }) => {
    // A browser sends Origin with every cross-origin request, preflights included; a request
    // without one (a server-side client, a test) has no use for CORS headers.
    if (requestHeader(c, "origin") === undefined) return undefined;
    // A preflight is covered as the request it asks for.
    const asked = c.req.method === "OPTIONS" ? requestHeader(c, "access-control-request-method") : undefined;
    if (!options.covers(c.req.path, asked ?? c.req.method)) return undefined;
    // Any origin may call a simulator; no cookies are involved, so "*" is enough.
    headers["Access-Control-Allow-Origin"] = "*";
    if (asked !== undefined) {
      return c.body(null, 204, {
        "Access-Control-Allow-Methods": allowMethods,
        "Access-Control-Allow-Headers": requestHeader(c, "access-control-request-headers") ?? allowHeaders,
        "Access-Control-Max-Age": String(options.maxAgeSeconds),
        Vary: "Access-Control-Request-Headers",
      });
    }
    headers["Access-Control-Expose-Headers"] = exposeHeaders;
    return undefined;
  };
}
