/**
 * The request body: read once, without a promise when it is already here, and parsed as JSON in
 * one step.
 *
 * Under the Node server a body that declares its length is taken straight from the request
 * stream's buffer once all of it is there. `awaitingSmallBodies` hands a request with a small body
 * to the app one microtask late, by when Node has pushed a body that came with its headers (the
 * usual write), so that the app answers it without waiting at all, as it answers a GET. A body
 * still on its way is read through the adapter, asynchronously; a body of unknown length (chunked,
 * or any in-process request's) is read from its stream by the body limit (`readBodyWithin`).
 * @module
 */
import type { IncomingMessage, RequestListener } from "node:http";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { z } from "@hono/zod-openapi";
import { DomainError } from "../engine/errors.js";
import type { AppEnv } from "./env.js";
import { sendError } from "./errors.js";
import type { Gate } from "./gateway.js";
import { jsonTextTooDeep, TOO_DEEP } from "./json-depth.js";
import { andThen, type MaybePromise } from "./maybe-promise.js";
import { requestHeader } from "./request-headers.js";

type NodeIncoming = Pick<IncomingMessage, "readableLength" | "readableDidRead" | "read" | "resume">;

/** Where the body's text is kept once known (hono's own cache holds promises). */
const TEXT = Symbol("bodyText");
type BodyCache = { text?: Promise<string>; [TEXT]?: string };

/** Keeps the body's text where `bodyText` and hono's `c.req.text()` / `c.req.json()` find it. */
function keep(cache: BodyCache, text: string): string {
  cache[TEXT] = text;
  cache.text = Promise.resolve(text);
  return text;
}

// The adapter decodes a body so too: invalid UTF-8 becomes U+FFFD and a leading BOM is dropped.
const decoder = new TextDecoder();

/**
 * The request body as text: a string when it is here already, else a promise. Read once; hono's
 * `c.req.text()` and `c.req.json()` find it afterwards.
 */
export function bodyText(c: Context<AppEnv>): MaybePromise<string> {
  const cache = c.req.bodyCache as BodyCache;
  const known = cache[TEXT];
  if (known !== undefined) return known;
  if (cache.text !== undefined) return cache.text;
  const incoming = (c.env as { incoming?: NodeIncoming } | undefined)?.incoming;
  const declared = declaredLength(c);
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

/**
 * Reads a body that declares no length (a chunked upload, or an in-process `Request`, which carries
 * no Content-Length) up to `maxBytes`, and keeps its text for `bodyText`; false, with the rest left
 * unread, once it is larger. The stream is read directly: hono's bodyLimit would copy the body
 * into a new `Request`, whose signal follows the first through a WeakRef and a
 * FinalizationRegistry entry on every write.
 */
export async function readBodyWithin(c: Context<AppEnv>, maxBytes: number): Promise<boolean> {
  const cache = c.req.bodyCache as BodyCache;
  const stream = c.req.raw.body;
  const chunks: Uint8Array[] = [];
  if (stream) {
    const reader = stream.getReader();
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        return false;
      }
      chunks.push(value);
    }
  }
  keep(cache, chunks.length === 1 ? decoder.decode(chunks[0]) : decoder.decode(Buffer.concat(chunks)));
  return true;
}

/**
 * The body limit: 413 PAYLOAD_TOO_LARGE over `limit` bytes (a number, or one chosen per request).
 * A declared Content-Length is checked from the header alone; a body of unknown length (chunked,
 * or an in-process request's) is read up to the limit and kept for the handler. Either way the
 * rest of a body over the limit is never buffered.
 */
export function limitBody(limit: number | ((c: Context<AppEnv>) => number)): Gate {
  const limitOf = typeof limit === "number" ? () => limit : limit;
  return (c) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return undefined;
    const maxBytes = limitOf(c);
    const length = declaredLength(c);
    if (length !== undefined) return Number.parseInt(length, 10) > maxBytes ? tooLarge(c, maxBytes) : undefined;
    return readBodyWithin(c, maxBytes).then((within) => (within ? undefined : tooLarge(c, maxBytes)));
  };
}

function tooLarge(c: Context<AppEnv>, maxBytes: number): Response {
  return sendError(c, new DomainError("PAYLOAD_TOO_LARGE", `Request body is larger than ${maxBytes} bytes`), "bodyLimit");
}

/** The Content-Length of a body sent whole (not chunked), as the request declares it. */
export function declaredLength(c: Context<AppEnv>): string | undefined {
  const length = requestHeader(c, "content-length");
  return length !== undefined && requestHeader(c, "transfer-encoding") === undefined ? length : undefined;
}

/** The whole body, when all `length` bytes of it are in the stream's buffer and nothing has been read. */
function buffered(incoming: NodeIncoming, length: number): string | undefined {
  if (incoming.readableLength !== length || incoming.readableDidRead) return undefined;
  const body = incoming.read() as Buffer;
  // Flowing, the stream ends once Node has seen the whole message, as the adapter expects.
  incoming.resume();
  return decoder.decode(body);
}

/** The Content-Types @hono/zod-openapi accepts for a JSON body. */
const JSON_REQUEST = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;

/**
 * The zod parse of a route's required JSON body, in one step where @hono/zod-openapi takes three
 * async layers (a media-type gate, hono's JSON validator, zod's async parse), each a closure, a
 * promise and a `next`. Same outcomes: a Content-Type that is not JSON, or a body without one, is
 * hono's 415; a body that does not parse is hono's 400 (the app's error handler writes both as
 * VALIDATION_ERROR); no Content-Type and no body validates `{}`. A body nested deeper than
 * MAX_JSON_DEPTH is a 422 too: no route takes one, and the journal could not write it out again.
 */
export function parseJsonBody<S extends z.ZodType>(c: Context<AppEnv>, schema: S): MaybePromise<z.ZodSafeParseResult<z.output<S>>> {
  const type = requestHeader(c, "content-type");
  if (type && !JSON_REQUEST.test(type)) throw new HTTPException(415, { message: "Unsupported Media Type" });
  const text = bodyText(c);
  const parse = (text: string) => {
    if (!type) {
      if (text.length > 0) throw new HTTPException(415, { message: "Unsupported Media Type" });
      return schema.safeParse({});
    }
    if (jsonTextTooDeep(text)) {
      c.set("decidedBy", "validation");
      throw new DomainError("VALIDATION_ERROR", "Request body is nested too deeply", [{ in: "body", path: "(root)", message: TOO_DEEP }]);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new HTTPException(400, { message: "Malformed JSON in request body" });
    }
    return schema.safeParse(value);
  };
  return andThen(text, parse);
}

/**
 * `listener`, handing each request that declares a body of at most `maxBytes` on one microtask
 * late, so that a body sent with its headers is there when the app runs.
 */
export function awaitingSmallBodies(listener: RequestListener, maxBytes = 64 * 1024): RequestListener {
  return (incoming, outgoing) => {
    const length = Number(incoming.headers["content-length"]);
    if (length > 0 && length <= maxBytes && incoming.readableLength < length) queueMicrotask(() => listener(incoming, outgoing));
    else listener(incoming, outgoing);
  };
}
