/**
 * What a request brings: its headers, its body and whether that body is JSON, each read once and
 * without a promise when it is already here. Under the Node server headers come from Node's own
 * `incoming.headers` and a body sent with its headers from the request stream's buffer; anywhere
 * else (in-process `app.fetch`) from the fetch Request. Refusals are DomainErrors, thrown here.
 * @module
 */
import type { IncomingMessage, RequestListener } from "node:http";
import type { Context } from "hono";
import type { z } from "@hono/zod-openapi";
import { DomainError } from "../engine/errors.js";
import type { AppEnv } from "./env.js";
import { invalidInput, validationError } from "./errors.js";
import { jsonTextTooDeep, TOO_DEEP } from "./json-depth.js";
import { andThen, type MaybePromise } from "./maybe-promise.js";

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

type NodeIncoming = Pick<IncomingMessage, "readableLength" | "readableDidRead" | "read" | "resume">;

/** Where the body's text is kept once known (hono's own cache holds promises), or why it was left unread. */
const TEXT = Symbol("bodyText");
const NOT_READ = Symbol("bodyNotRead");
type BodyCache = { text?: Promise<string>; [TEXT]?: string; [NOT_READ]?: string };

/** Requests whose client sent `Expect: 100-continue` and waits to be asked for the body (see node-server.ts). */
const awaitingContinue = new WeakSet<IncomingMessage>();

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
function leaveUnread(c: C, why: string): false {
  (c.req.bodyCache as BodyCache)[NOT_READ] = why;
  const outgoing = c.env?.outgoing;
  if (outgoing !== undefined && !outgoing.headersSent) outgoing.setHeader("Connection", "close");
  return false;
}

/** Keeps the body's text where `bodyText` and hono's `c.req.text()` / `c.req.json()` find it. */
function keep(cache: BodyCache, text: string): string {
  cache[TEXT] = text;
  cache.text = Promise.resolve(text);
  return text;
}

// The adapter decodes a body so too: invalid UTF-8 becomes U+FFFD and a leading BOM is dropped.
const decoder = new TextDecoder();

/** The request body as text: a string when it is here already, else a promise. Read once. */
export function bodyText(c: C): MaybePromise<string> {
  const cache = c.req.bodyCache as BodyCache;
  const known = cache[TEXT];
  if (known !== undefined) return known;
  if (cache.text !== undefined) return cache.text;
  const incoming = c.env?.incoming;
  const declared = declaredLength(c);
  askForBody(c);
  let read: Promise<string>;
  if (incoming === undefined || declared === undefined) {
    read = c.req.raw.text();
  } else {
    const length = Number(declared);
    const now = length === 0 ? "" : buffered(incoming, length);
    if (now !== undefined) return keep(cache, now);
    read = Promise.resolve().then(() => buffered(incoming, length) ?? c.req.raw.text());
  }
  return (cache.text = read.then((text) => (cache[TEXT] = text)));
}

/** The whole body, when all `length` bytes of it are in the stream's buffer and nothing has been read. */
function buffered(incoming: NodeIncoming, length: number): string | undefined {
  if (incoming.readableLength !== length || incoming.readableDidRead) return undefined;
  const body = incoming.read() as Buffer;
  // Flowing, the stream ends once Node has seen the whole message, as the adapter expects.
  incoming.resume();
  return decoder.decode(body);
}

/**
 * `listener`, handing each request that declares a body of at most `maxBytes` on one microtask
 * late: by then Node has pushed a body sent with its headers, and `bodyText` finds it buffered.
 */
export function awaitingSmallBodies(listener: RequestListener, maxBytes = 64 * 1024): RequestListener {
  return (incoming, outgoing) => {
    const length = Number(incoming.headers["content-length"]);
    if (length > 0 && length <= maxBytes && incoming.readableLength < length) queueMicrotask(() => listener(incoming, outgoing));
    else listener(incoming, outgoing);
  };
}

/**
 * Whether the body is within `maxBytes`. A declared Content-Length answers from the header alone
 * (a client waiting with `Expect: 100-continue` is asked for a body within it, and never sends one
 * over it); a body of unknown length (chunked, or an in-process request's) is read from its stream
 * up to the limit and kept for `bodyText`. Either way the rest of a body over the limit is never
 * read, and the connection closes after the answer.
 */
export function bodyWithin(c: C, maxBytes: number): MaybePromise<boolean> {
  const length = declaredLength(c);
  if (length === undefined) return readBodyWithin(c, maxBytes);
  if (Number.parseInt(length, 10) > maxBytes) return leaveUnread(c, overLimit(maxBytes));
  // Taken: whatever reads it next (bodyText, or a library's reader) finds it coming.
  askForBody(c);
  return true;
}

const overLimit = (maxBytes: number) => `over the ${maxBytes}-byte limit`;

/**
 * The body as the journal keeps it, read no further than `maxBytes` (whatever answered the
 * request), or undefined when it is left unread: `bodyNotRead` says why.
 */
export function bodyToKeep(c: C, maxBytes: number): MaybePromise<string | undefined> {
  const cache = c.req.bodyCache as BodyCache;
  if (cache[NOT_READ] !== undefined) return undefined;
  if (cache[TEXT] !== undefined || cache.text !== undefined) return bodyText(c);
  const incoming = c.env?.incoming;
  // Answered without asking for it: the client will not send it.
  if (incoming !== undefined && awaitingContinue.has(incoming)) {
    leaveUnread(c, "answered before the client sent it (Expect: 100-continue)");
    return undefined;
  }
  return andThen(bodyWithin(c, maxBytes), (within) => (within ? bodyText(c) : undefined));
}

/** Why the body was left unread, if it was. */
export function bodyNotRead(c: C): string | undefined {
  return (c.req.bodyCache as BodyCache)[NOT_READ];
}

async function readBodyWithin(c: C, maxBytes: number): Promise<boolean> {
  askForBody(c);
  const stream = c.req.raw.body;
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
        return leaveUnread(c, overLimit(maxBytes));
      }
      chunks.push(value);
    }
  }
  keep(c.req.bodyCache as BodyCache, chunks.length === 1 ? decoder.decode(chunks[0]) : decoder.decode(Buffer.concat(chunks)));
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
export function refused(c: C, error: DomainError): DomainError {
  c.set("decidedBy", "validation");
  return error;
}

function notJson(c: C, type: string | undefined): DomainError {
  const why = `must be application/json (optionally with "; charset=utf-8"), got ${type ?? "none"}`;
  return refused(c, invalidInput("header", "Content-Type", why, "Request body must be JSON"));
}

/** Refuses a body that is not JSON, read to tell: never silently taken as empty. An empty body passes. */
export function checkJsonType(c: C): MaybePromise<undefined> {
  const type = requestHeader(c, "content-type");
  if (isJsonType(type)) return undefined;
  return andThen(bodyText(c), (text) => {
    if (text.length > 0) throw notJson(c, type);
    return undefined;
  });
}

/**
 * The body as JSON. A Content-Type that is not JSON, or a body without one, is refused; no
 * Content-Type and no body is `{}`. With `depthLimit`, a body nested deeper than MAX_JSON_DEPTH is
 * refused before it is parsed: the journal could not write it out again.
 */
export function readJson(c: C, depthLimit: boolean): MaybePromise<unknown> {
  const type = requestHeader(c, "content-type");
  if (type && !isJsonType(type)) throw notJson(c, type);
  return andThen(bodyText(c), (text) => {
    if (!type) {
      if (text.length > 0) throw notJson(c, type);
      return {};
    }
    if (depthLimit && jsonTextTooDeep(text)) {
      throw refused(c, invalidInput("body", "(root)", TOO_DEEP, "Request body is nested too deeply"));
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw refused(c, invalidInput("body", "(root)", "is not valid JSON", "Request body is not valid JSON"));
    }
  });
}

/** A value of the request (`where` it came from) checked by `schema`: its output, or a 422 naming each field. */
export function checked<S extends z.ZodType>(c: C, schema: S, value: unknown, where: "body" | "query" | "path" | "header"): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw refused(c, validationError(result.error, where));
  return result.data;
}

/** A route's required JSON body, checked by `schema`. */
export function readJsonBody<S extends z.ZodType>(c: C, schema: S): MaybePromise<z.output<S>> {
  return andThen(readJson(c, true), (value) => checked(c, schema, value, "body"));
}
