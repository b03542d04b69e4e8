/** @module Every answer carries a request id, and the Idempotency-Key the request sent. */
import type { Gate } from "../gateway.js";
import { requestHeader } from "../request-input.js";
import { setHeader } from "../respond.js";

export function requestId(): Gate {
  let counter = 0;
  return (c) => {
    // A client's own request id is kept, so its logs and ours line up.
    setHeader(c, "X-Request-Id", requestHeader(c, "x-request-id") ?? `req_${(++counter).toString(36).padStart(6, "0")}`);
    const idempotencyKey = requestHeader(c, "idempotency-key");
    if (idempotencyKey !== undefined) setHeader(c, "Idempotency-Key", idempotencyKey);
    return undefined;
  };
}
