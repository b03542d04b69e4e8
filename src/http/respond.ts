/**
 * Writing a JSON response once: the text is kept on the context so the journal records exactly
 * what was sent without cloning and re-reading the response stream.
 * @module
 */
import type { Context } from "hono";
import type { StatusCode } from "hono/utils/http-status";
import type { AppEnv } from "./env.js";

export function sendJson(c: Context<AppEnv>, body: unknown, status: StatusCode, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(body);
  c.set("responseText", text);
  return c.body(text, status as never, { "Content-Type": "application/json", ...headers });
}
