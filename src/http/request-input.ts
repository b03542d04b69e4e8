/**
 * What a request brings: its headers, its signal, its body and whether that body is JSON. Headers
 * come from Node's own `incoming.headers` under the Node server, else from the fetch Request. The
 * body is read once (from Node's request stream when it is all there, else through hono's request:
 * `c.req.text()`, or its stream up to a limit), by the
 * body limit's step (gates/body-limit.ts), and kept on the request's record: every check after it
 * reads it without waiting. Refusals are DomainErrors, thrown here.
 * @module
 */
import type { IncomingMessage, RequestListener } from "node:http";
import type { Context } from "hono";
import type { z } from "@hono/zod-openapi";
import { DomainError } from "../engine/errors.js";
import type { AppEnv } from "./env.js";
import { invalidInput, validationError } from "./errors.js";
import type { Exchange } from "./exchange.js";
import { jsonTextTooDeep, TOO_DEEP } from "./json-depth.js";

type C = Context<AppEnv>;

/**
 * The request's `name` header (a lower-case name), or undefined. Node joins repeated headers with
 * ", " (`joinDuplicateHeaders`, see node-server.ts) and trims values, as fetch `Headers` do.
 */
export function requestHeader(c: C, name: string): string | undefined {
  const headers = c.env?.incoming?.headers;
  if (headers === undefined) return c.req.header(name);
  const value = headers[name];
  // Only set-cookie is ever a list; an inherited property (a name such as "constructor") is none.
  return typeof value === "string" ? value : Array.isArray(value) ? value.join(", ") : undefined;
}

/** Under the Node server, the request's headers as received: names (in their own case) and values, alternating. */
export function rawRequestHeaders(c: C): readonly string[] | undefined {
  return c.env?.incoming?.rawHeaders;
}

/** The Content-Length of a body sent whole (not chunked), as the request declares it. */
export function declaredLength(c: C): string | undefined {
  const length = requestHeader(c, "content-length");
  return length !== undefined && requestHeader(c, "transfer-encoding") === undefined ? length : undefined;
}

/**
 * Aborts when the client gives up: the signal an in-process caller hands over with the request
 * (`app.fetch(request, { signal })`), else the request's own. undici links a Request's own signal
 * to the caller's only through a WeakRef, which a garbage collection can break.
 */
export function clientSignal(exchange: Exchange): AbortSignal {
  return exchange.c.env?.signal ?? exchange.c.req.raw.signal;
}

/** Requests whose client sent `Expect: 100-continue` and waits to be asked for the body (see node-server.ts). */
const awaitingContinue = new WeakSet<object>();

/** `listener` for Node's `checkContinue` event: the request is answered as any other, its body asked for only when read. */
export function askingForBodies(listener: RequestListener): RequestListener {
  return (incoming, outgoing) => {
    awaitingContinue.add(incoming);
    listener(incoming, outgoing);
  };
}

/** Asks a client that waits with `Expect: 100-continue` for the body, which is about to be read. */
function askForBody(c: C): void {
  const incoming = c.env?.incoming;
  if (incoming !== undefined && awaitingContinue.delete(incoming)) c.env!.outgoing?.writeContinue();
}

/**
 * Leaves the rest of the body unread (`why`, for the journal). Under the Node server the answer
 * then closes the connection: the unread bytes cannot be told from a next request.
 */
function leaveUnread(exchange: Exchange, why: string): false {
  exchange.bodyNotRead = why;
  const outgoing = exchange.c.env?.outgoing;
  if (outgoing !== undefined && !outgoing.headersSent) outgoing.setHeader("Connection", "close");
  return false;
}

/**
 * How the request's body is to be read, told from its headers alone. `none`: no body comes (a GET
 * or HEAD; under the Node server, neither a Content-Length above 0 nor chunks, HTTP/1.1 having no
 * other way to send one; in process, a Request without a body), and its text is "". `over`: a
 * declared Content-Length over `maxBytes`, left unread. Else it is read whole (`declared`, with
 * `readDeclaredBody`) or from its stream up to the limit (`stream`, with `readStreamWithin`).
 */
export function bodyToRead(exchange: Exchange, maxBytes: number): "none" | "over" | "declared" | "stream" {
  const { c } = exchange;
  if (c.req.method === "GET" || c.req.method === "HEAD") {
    exchange.body = "";
    return "none";
  }
  const incoming = c.env?.incoming;
  const chunked = requestHeader(c, "transfer-encoding") !== undefined;
  if (incoming === undefined ? c.req.raw.body === null : !chunked && !(Number(incoming.headers["content-length"]) > 0)) {
    // A client waiting with `Expect: 100-continue` is asked for it all the same.
    askForBody(c);
    exchange.body = "";
    return "none";
  }
  const length = chunked ? undefined : requestHeader(c, "content-length");
  if (length === undefined) return "stream";
  if (Number.parseInt(length, 10) <= maxBytes) return "declared";
  leaveUnread(exchange, overLimit(maxBytes));
  return "over";
}

const overLimit = (maxBytes: number) => `over the ${maxBytes}-byte limit`;

/**
 * Reads a body of declared length within the limit (`bodyToRead`) whole into `exchange.body`: at
 * once when Node has received all of it (`receivedWhole`), else through hono's request.
 */
export function readDeclaredBody(exchange: Exchange): Promise<undefined> | undefined {
  const { c } = exchange;
  askForBody(c);
  const whole = receivedWhole(c.env?.incoming, Number.parseInt(requestHeader(c, "content-length")!, 10));
  if (whole !== undefined) {
    exchange.body = whole;
    return undefined;
  }
  return c.req.text().then((text) => {
    exchange.body = text;
    return undefined;
  });
}

/**
 * The body, when Node's request stream (the adapter's documented `c.env.incoming`) already holds all
 * `length` bytes of it and nothing has read it: taken with the stream's own `read()`, so that the
 * request is answered without waiting for a turn of the event loop (about a fifth of an award's
 * CPU time over a socket: docs/performance.md). Else undefined, and the body is read through hono.
 */
function receivedWhole(incoming: IncomingMessage | undefined, length: number): string | undefined {
  if (incoming === undefined || incoming.readableDidRead || incoming.readableLength !== length) return undefined;
  const body = incoming.read() as Buffer | null;
  if (body === null || body.byteLength !== length) return undefined;
  // Flowing, the stream ends once Node has seen the whole message, as the adapter expects.
  incoming.resume();
  return decoder.decode(body);
}

/**
 * `listener`, handing each request that declares a body of at most `maxBytes` on one microtask
 * late: by then Node has pushed a body sent with its headers, and `receivedWhole` finds it.
 */
export function awaitingSmallBodies(listener: RequestListener, maxBytes = 64 * 1024): RequestListener {
  return (incoming, outgoing) => {
    const length = Number(incoming.headers["content-length"]);
    if (length > 0 && length <= maxBytes && incoming.readableLength < length) queueMicrotask(() => listener(incoming, outgoing));
    else listener(incoming, outgoing);
  };
}

/**
 * Reads a body of unknown length (chunked, or an in-process request's) from its stream into
 * `exchange.body`, no further than `maxBytes`. False when it is over: the rest is never read, and
 * the connection closes after the answer.
 */
export async function readStreamWithin(exchange: Exchange, maxBytes: number): Promise<boolean> {
  askForBody(exchange.c);
  const stream = exchange.c.req.raw.body;
  const chunks: Uint8Array[] = [];
  if (stream) {
    // Read directly: hono's bodyLimit would copy the body into a second Request.
    const reader = stream.getReader();
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        return leaveUnread(exchange, overLimit(maxBytes));
      }
      chunks.push(value);
    }
  }
  exchange.body = chunks.length === 1 ? decoder.decode(chunks[0]) : decoder.decode(Buffer.concat(chunks));
  return true;
}

// The adapter decodes a body so too: invalid UTF-8 becomes U+FFFD and a leading BOM is dropped.
const decoder = new TextDecoder();

/** The body's text, as the body limit's step read it. */
export function bodyOf(exchange: Exchange): string {
  if (exchange.body === undefined) throw new Error(`${exchange.c.req.method} ${exchange.c.req.path}: the body is read before anything reads it (the body limit's step)`);
  return exchange.body;
}

/**
 * Whether the journal has yet to read the body of a request answered before it was read (a
 * refusal of the credentials). A client still waiting for `100 Continue` will not send it: it is
 * noted unread.
 */
export function bodyLeftToRead(exchange: Exchange): boolean {
  if (exchange.body !== undefined || exchange.bodyNotRead !== undefined) return false;
  const { c } = exchange;
  if (c.req.method === "GET" || c.req.method === "HEAD") return false;
  const incoming = c.env?.incoming;
  if (incoming !== undefined && awaitingContinue.has(incoming)) {
    leaveUnread(exchange, "answered before the client sent it (Expect: 100-continue)");
    return false;
  }
  return true;
}

/** The 413 of a body over `maxBytes`. */
export function tooLarge(maxBytes: number): DomainError {
  return new DomainError("PAYLOAD_TOO_LARGE", `Request body is larger than ${maxBytes} bytes`);
}

/**
 * THE rule for a JSON body's Content-Type: `application/json` or `application/<x>+json`, with
 * optional `; name=value` parameters (what @hono/zod-openapi takes for an `application/json` body).
 */
const JSON_TYPE = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;

export function isJsonType(type: string | undefined): boolean {
  return type !== undefined && JSON_TYPE.test(type);
}

/** `error`, noted as refused for the request's shape (the journal's `decidedBy: validation`). */
export function refused(exchange: Exchange, error: DomainError): DomainError {
  exchange.decidedBy = "validation";
  return error;
}

function notJson(exchange: Exchange, type: string | undefined): DomainError {
  const why = `must be application/json (optionally with "; charset=utf-8"), got ${type ?? "none"}`;
  return refused(exchange, invalidInput("header", "Content-Type", why, "Request body must be JSON"));
}

/** Refuses a body that is not JSON: never silently taken as empty. An empty body passes. */
export function checkJsonType(exchange: Exchange): void {
  const type = requestHeader(exchange.c, "content-type");
  if (!isJsonType(type) && bodyOf(exchange).length > 0) throw notJson(exchange, type);
}

/**
 * The body as JSON. A Content-Type that is not JSON, or a body without one, is refused; no
 * Content-Type and no body is `{}`. With `depthLimit`, a body nested deeper than MAX_JSON_DEPTH is
 * refused before it is parsed: the journal could not write it out again.
 */
export function readJson(exchange: Exchange, depthLimit: boolean): unknown {
  const type = requestHeader(exchange.c, "content-type");
  if (type && !isJsonType(type)) throw notJson(exchange, type);
  const text = bodyOf(exchange);
  if (!type) {
    if (text.length > 0) throw notJson(exchange, type);
    return {};
  }
  if (depthLimit && jsonTextTooDeep(text)) {
    throw refused(exchange, invalidInput("body", "(root)", TOO_DEEP, "Request body is nested too deeply"));
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw refused(exchange, invalidInput("body", "(root)", "is not valid JSON", "Request body is not valid JSON"));
  }
}

/** A value of the request (`where` it came from) checked by `schema`: its output, or a 422 naming each field. */
export function checked<S extends z.ZodType>(exchange: Exchange, schema: S, value: unknown, where: "body" | "query" | "path" | "header"): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw refused(exchange, validationError(result.error, where));
  return result.data;
}

/** A route's required JSON body, checked by `schema`. */
export function readJsonBody<S extends z.ZodType>(exchange: Exchange, schema: S): z.output<S> {
  return checked(exchange, schema, readJson(exchange, true), "body");
}
