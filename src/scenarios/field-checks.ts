/**
 * Scenario fields that need more than a type: bodies that can be written out again, and response
 * headers and statuses a server can actually send. Each is refused when the scenario is added
 * (422 naming the field), never found out on every matching request.
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

type Check = (value: unknown, ctx: z.RefinementCtx) => void;

/** `schema`, with `check` run first on the value as written. */
const checkedFirst = <S extends z.ZodType>(check: Check, schema: S) =>
  z.preprocess((value, ctx) => {
    check(value, ctx);
    return value;
  }, schema);

const boundedDepth: Check = (value, ctx) => {
  if (valueTooDeep(value)) ctx.addIssue({ code: "custom", message: TOO_DEEP, input: value });
};

/** Any JSON value, at most MAX_JSON_DEPTH deep. */
export const jsonValue = () => checkedFirst(boundedDepth, z.unknown());

/** An object to match partially, at most MAX_JSON_DEPTH deep. */
export const matchObject = () => checkedFirst(boundedDepth, z.record(z.string(), z.unknown()));

/** Response headers a server can send: valid names and values, no framing header. */
export const responseHeaders = () =>
  z.record(z.string(), z.string()).superRefine((headers, ctx) => {
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
