/** @module A body that is not JSON is refused before anything reads it, never silently taken as empty. */
import type { Gate } from "../gateway.js";
import { checkJsonType } from "../request-input.js";

export const jsonBodies: Gate = (c) => {
  const method = c.req.method;
  if (method !== "POST" && method !== "PATCH" && method !== "PUT") return undefined;
  return checkJsonType(c);
};
