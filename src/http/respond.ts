/**
 * Writing responses. Headers gathered while a request runs go out as one plain object, which the
 * Node adapter writes straight out (hono's `c.header` builds a fetch `Headers`). A JSON response's
 * text is kept on the context, so the journal records what was sent without cloning the stream.
 * @module
 */
import { validateHeaderValue } from "node:http";
import type { Context } from "hono";
import type { StatusCode } from "hono/utils/http-status";
import type { AppEnv, Outgoing } from "./env.js";

function outgoing(c: Context<AppEnv>): Outgoing {
  let out = c.get("out");
  if (!out) c.set("out", (out = { headers: {} }));
  return out;
}

/** Whether an HTTP header can carry `value` (Node's rule: no control character but tab, nothing beyond U+00FF). */
export function isHeaderValue(value: string): boolean {
  try {
    validateHeaderValue("x", value);
    return true;
  } catch {
    return false;
  }
}

/** Adds a header to the response this request will get, whichever code writes it. */
export function setHeader(c: Context<AppEnv>, name: string, value: string): void {
  // Not `{ [name]: value }`: a computed key is defined through the runtime, on every request.
  outgoing(c).headers[name] = value;
}

/** Takes back a header gathered earlier (a refusal that must not carry it). */
export function dropHeader(c: Context<AppEnv>, name: string): void {
  const out = c.get("out");
  if (out) delete out.headers[name];
}

/** A response header gathered so far (the request id, for the log). */
export function gatheredHeader(c: Context<AppEnv>, name: string): string | undefined {
  return c.get("out")?.headers[name];
}

/** Every header gathered so far: with a response the app wrote (`sendJson`), all that it carries. */
export function gatheredHeaders(c: Context<AppEnv>): Record<string, string> | undefined {
  return c.get("out")?.headers;
}

/**
 * The JSON text of the answer the app wrote, forgotten with its Content-Type, so that another
 * answer can take its place (a scenario rule that answers after the handler committed).
 */
export function takeSentJson(c: Context<AppEnv>): string | undefined {
  const out = c.get("out");
  const text = out?.text;
  if (out && text !== undefined) {
    delete out.text;
    delete out.headers["Content-Type"];
  }
  return text;
}

/** The JSON text of the response, when the app wrote it (`sendJson`); else undefined. */
export function sentJsonText(c: Context<AppEnv>): string | undefined {
  return c.get("out")?.text;
}

export function sendJson(c: Context<AppEnv>, body: unknown, status: StatusCode, headers: Record<string, string> = {}): Response {
  return sendJsonText(c, JSON.stringify(body), status, headers);
}

/** A response whose body is the JSON text `text`. */
export function sendJsonText(c: Context<AppEnv>, text: string, status: StatusCode, headers: Record<string, string> = {}): Response {
  const out = outgoing(c);
  out.text = text;
  // The gathered headers themselves go out: they are this request's, and sent once.
  out.headers["Content-Type"] = "application/json";
  return new Response(text, { status, headers: withHeaders(out.headers, headers) });
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
export function applyHeaders(c: Context<AppEnv>): void {
  const out = c.get("out");
  if (!out || out.text !== undefined) return;
  const headers = out.headers;
  for (const [name, value] of Object.entries(headers)) if (!c.res.headers.has(name)) c.res.headers.set(name, value);
}
