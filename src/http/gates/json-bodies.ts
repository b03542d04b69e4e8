/** @module A body that is not JSON is refused, never silently taken as empty (after the body limit, which read it). */
import type { Step } from "../gateway.js";
import { checkJsonType } from "../request-input.js";

export const jsonBodies: Step = (exchange) => {
  const method = exchange.c.req.method;
  if (method === "POST" || method === "PATCH" || method === "PUT") checkJsonType(exchange);
  return undefined;
};
