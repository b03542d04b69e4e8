/**
 * @module The body limit, and the body read: 413 PAYLOAD_TOO_LARGE over the limit, judged from a
 * declared length before a byte is read, the body never read past it, the connection closed after
 * the answer. A body within it is read here, once, and kept on the request's record for every
 * step after this one.
 */
import type { Exchange } from "../exchange.js";
import { sendError } from "../errors.js";
import type { Step } from "../gateway.js";
import { bodyToRead, readDeclaredBody, readStreamWithin, tooLarge } from "../request-input.js";

/** `limitOf` gives each request's limit in bytes. */
export function bodyLimit(limitOf: (exchange: Exchange) => number): Step {
  return (exchange) => {
    const maxBytes = limitOf(exchange);
    switch (bodyToRead(exchange, maxBytes)) {
      case "none":
        return undefined;
      case "over":
        return refuse(exchange, maxBytes);
      case "declared":
        return readDeclaredBody(exchange);
      case "stream":
        return readStreamWithin(exchange, maxBytes).then((within) => (within ? undefined : refuse(exchange, maxBytes)));
    }
  };
}

function refuse(exchange: Exchange, maxBytes: number): Response {
  return sendError(exchange, tooLarge(maxBytes), "bodyLimit");
}
