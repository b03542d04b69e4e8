/** @module Every answer carries a request id, and the Idempotency-Key the request sent. */
import type { Step } from "../gateway.js";
import { requestHeader } from "../request-input.js";

export function requestId(): Step {
  let counter = 0;
  return ({ c, headers }) => {
    // A client's own request id is kept, so its logs and ours line up.
    headers["X-Request-Id"] = requestHeader(c, "x-request-id") ?? `req_${(++counter).toString(36).padStart(6, "0")}`;
    const idempotencyKey = requestHeader(c, "idempotency-key");
    if (idempotencyKey !== undefined) headers["Idempotency-Key"] = idempotencyKey;
    return undefined;
  };
}
