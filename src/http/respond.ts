/**
 * Writing responses. Headers gathered while a request runs (`exchange.headers`) go out as one
 * plain object, which the Node adapter writes straight out (hono's `c.header` builds a fetch
 * `Headers`). A JSON response's text is kept on the request's record, so the journal records what
 * was sent without cloning the stream.
 * @module
 */
import { validateHeaderValue } from "node:http";
import type { StatusCode } from "hono/utils/http-status";
import type { Exchange } from "./exchange.js";

/** Whether an HTTP header can carry `value` (Node's rule: no control character but tab, nothing beyond U+00FF). */
export function isHeaderValue(value: string): boolean {
  try {
    validateHeaderValue("x", value);
    return true;
  } catch {
    return false;
  }
}

/**
 * The JSON text of the answer the app wrote, forgotten with its Content-Type, so that another
 * answer can take its place (a scenario rule that answers after the handler committed).
 */
export function takeSentJson(exchange: Exchange): string | undefined {
  const text = exchange.sentText;
  if (text !== undefined) {
    exchange.sentText = undefined;
    delete exchange.headers["Content-Type"];
  }
  return text;
}

export function sendJson(exchange: Exchange, body: unknown, status: StatusCode, headers: Record<string, string> = {}): Response {
  return sendJsonText(exchange, JSON.stringify(body), status, headers);
}

/** A response whose body is the JSON text `text`. */
export function sendJsonText(exchange: Exchange, text: string, status: StatusCode, headers: Record<string, string> = {}): Response {
  exchange.sentText = text;
  // The gathered headers themselves go out: they are this request's, and sent once.
  exchange.headers["Content-Type"] = "application/json";
  return new Response(text, { status, headers: withHeaders(exchange.headers, headers) });
}

/** `base` with `extra` laid over it; header names compare without case, so none is sent twice. */
function withHeaders(base: Record<string, string>, extra: Record<string, string>): Record<string, string> {
  for (const name of Object.keys(extra)) {
    const lower = name.toLowerCase();
    for (const key of Object.keys(base)) if (key !== name && key.toLowerCase() === lower) delete base[key];
    base[name] = extra[name]!;
  }
  return base;
}

/** For responses written some other way (`c.json`, `c.body`): puts the gathered headers on them. */
export function withGatheredHeaders(exchange: Exchange, res: Response): void {
  if (exchange.sentText !== undefined) return;
  for (const [name, value] of Object.entries(exchange.headers)) if (!res.headers.has(name)) res.headers.set(name, value);
}
