/**
 * @module The body limit: 413 PAYLOAD_TOO_LARGE over the limit, judged from a declared length
 * before a byte is read, the body never read past it, the connection closed after the answer.
 */
import type { Context } from "hono";
import type { AppEnv } from "../env.js";
import { sendError } from "../errors.js";
import type { Gate } from "../gateway.js";
import { bodyWithin, tooLarge } from "../request-input.js";

/** `limitOf` gives each request's limit in bytes. */
export function bodyLimit(limitOf: (c: Context<AppEnv>) => number): Gate {
  return (c) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return undefined;
    const maxBytes = limitOf(c);
    const within = bodyWithin(c, maxBytes);
    if (within === true) return undefined;
    if (within === false) return refuse(c, maxBytes);
    return within.then((ok) => (ok ? undefined : refuse(c, maxBytes)));
  };
}

function refuse(c: Context<AppEnv>, maxBytes: number): Response {
  return sendError(c, tooLarge(maxBytes), "bodyLimit");
}
