/**
 * Reading a request header. Under the Node server the header is found in the request's raw
 * header list: `c.req.header()` there checks the name against a pattern, has Node build the whole
 * `incoming.headers` object, and normalises the value, about a tenth of a `GET /customers/{id}`
 * for the six headers every API request reads. Anywhere else (in-process `app.fetch`) the fetch
 * Request's own headers answer. Both trim the value and join repeated headers with ", ", as fetch
 * `Headers` do.
 * @module
 */
import type { Context } from "hono";
import type { AppEnv } from "./env.js";

interface NodeBindings {
  incoming?: { rawHeaders?: string[] };
}

/** The request's `name` header (a lower-case name), or undefined. Names are matched without regard to case. */
export function requestHeader(c: Context<AppEnv>, name: string): string | undefined {
  const raw = (c.env as NodeBindings | undefined)?.incoming?.rawHeaders;
  if (raw === undefined) return c.req.header(name);
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const rawName = raw[i]!;
    if (rawName.length !== name.length || !sameName(rawName, name)) continue;
    const rawValue = trimmed(raw[i + 1]!);
    value = value === undefined ? rawValue : `${value}, ${rawValue}`;
  }
  return value;
}

/** Whether `rawName` is `lower` (of the same length) but for the case of its letters, without making a lower-case copy. */
function sameName(rawName: string, lower: string): boolean {
  for (let i = 0; i < lower.length; i++) {
    const a = rawName.charCodeAt(i);
    const b = lower.charCodeAt(i);
    if (a !== b && !(a >= 65 && a <= 90 && a + 32 === b)) return false;
  }
  return true;
}

const isSpace = (code: number) => code === 32 || code === 9;

/** The value without leading or trailing spaces and tabs (HTTP's optional whitespace). */
function trimmed(value: string): string {
  return value.length > 0 && (isSpace(value.charCodeAt(0)) || isSpace(value.charCodeAt(value.length - 1))) ? value.replace(/^[ \t]+|[ \t]+$/g, "") : value;
}
