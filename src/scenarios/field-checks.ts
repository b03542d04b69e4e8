/**
 * Scenario fields that need more than a type: bodies that can be written out again, keys kept as
 * written, and response headers and statuses a server can actually send. Each is refused when the
 * scenario is added (422 naming the field), never found out on every matching request.
 * @module
 */
import { validateHeaderName, validateHeaderValue } from "node:http";
import { z } from "zod";
import { TOO_DEEP, valueTooDeep } from "../http/json-depth.js";

/**
 * Hop-by-hop and framing headers: the server writes them from the response it sends, and one
 * given by hand (a wrong `Content-Length`, a `Trailer`, `Connection: close`) breaks or ends the
 * keep-alive connection, which then corrupts the next response on it.
 */
export const FRAMING_HEADERS = ["connection", "content-length", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade"];

/** Statuses whose response has no body (fetch's `Response` refuses one). */
export const NO_BODY_STATUSES = [204, 205, 304];

const PROTO = "__proto__";
const PROTO_KEY = `${PROTO} cannot be a key here: it would be dropped, and the rule would match more requests (or send fewer headers) than it says; remove it`;

/** The path to the first `__proto__` key in a value (a depth-checked one: no cycle); each object is looked at once. */
function protoKeyPath(value: unknown): PropertyKey[] | undefined {
  const stack: [unknown, PropertyKey[]][] = [[value, []]];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (node === null || typeof node !== "object" || seen.has(node)) continue;
    seen.add(node);
    if (!Array.isArray(node) && Object.hasOwn(node, PROTO)) return [...path, PROTO];
    for (const [key, child] of Object.entries(node)) stack.push([child, [...path, Array.isArray(node) ? Number(key) : key]]);
  }
  return undefined;
}

/** Adds an issue and says false when `value` fails the check. */
type Check = (value: unknown, ctx: z.RefinementCtx) => boolean;

/** `schema`, with `check` run first on the value as written (zod rebuilds records without `__proto__`). */
const checkedFirst = <S extends z.ZodType>(check: Check, schema: S) =>
  z.preprocess((value, ctx) => {
    check(value, ctx);
    return value;
  }, schema);

const boundedDepth: Check = (value, ctx) => {
  if (!valueTooDeep(value)) return true;
  ctx.addIssue({ code: "custom", message: TOO_DEEP, input: value });
  return false;
};

const noProtoKey: Check = (value, ctx) => {
  const path = protoKeyPath(value);
  if (!path) return true;
  ctx.addIssue({ code: "custom", path, message: PROTO_KEY, input: value });
  return false;
};

/** Any JSON value, at most MAX_JSON_DEPTH deep. */
export const jsonValue = () => checkedFirst(boundedDepth, z.unknown());

/** An object to match partially, at most MAX_JSON_DEPTH deep and without `__proto__` keys. */
export const matchObject = () => checkedFirst((value, ctx) => boundedDepth(value, ctx) && noProtoKey(value, ctx), z.record(z.string(), z.unknown()));

/** Names to exact string values, without a `__proto__` name. */
export const stringRecord = () => checkedFirst(noProtoKey, z.record(z.string(), z.string()));

/** Response headers a server can send: valid names and values, no framing header. */
export const responseHeaders = () =>
  stringRecord().superRefine((headers, ctx) => {
    for (const [name, value] of Object.entries(headers)) {
      const refuse = (message: string) => ctx.addIssue({ code: "custom", path: [name], message, input: value });
      try {
        validateHeaderName(name);
      } catch {
        refuse("is not a valid header name: only letters, digits and !#$%&'*+-.^_`|~ may appear");
        continue;
      }
      if (FRAMING_HEADERS.includes(name.toLowerCase())) {
        refuse("is a hop-by-hop or framing header: the server sets it from the response it sends; remove it");
        continue;
      }
      try {
        validateHeaderValue(name, value);
      } catch {
        refuse("holds a character a header value cannot carry (a control character such as CR, LF or NUL, or one beyond U+00FF)");
      }
    }
  });
