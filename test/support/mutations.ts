/**
 * The hostile answers of verify's fuzz, as fast-check arbitraries: what a target may send instead
 * of the stand-in's answer (nulls, wrong types, objects for arrays, `[null]` items, prototype keys,
 * control characters, huge numbers, other statuses and absurd Retry-After values, redirects, huge,
 * endless, broken-off and stalled bodies, JSON nested a million deep, text that is not JSON), each
 * aimed at one answer of the run by its index.
 * @module
 */
import fc from "fast-check";
import type { Forwarded, Reply } from "./hostile.js";

/** Text that would rewrite a terminal: an escape sequence, a carriage return, a C1 control, a bidi override. */
const CONTROLS = "\u001b[2J\u001b[31mred\r\u009b31m\u202eevil";

/** Values no field of the contract should hold, and some that break careless code. */
const HOSTILE_VALUES: unknown[] = [
  null,
  0,
  -1,
  1.5,
  "",
  "x",
  CONTROLS,
  {},
  [],
  [null],
  true,
  { toString: 1, valueOf: 1 },
  "9".repeat(600),
];

export type Mutation =
  | { kind: "data"; to: "null" | "object" | "nullItems" | "string" | "absent" }
  | { kind: "field"; pick: number; value: number }
  | { kind: "proto"; pick: number }
  | { kind: "hugeNumber" }
  | { kind: "status"; status: number; retryAfter: string | undefined }
  | { kind: "redirect"; status: number }
  | { kind: "endless" }
  | { kind: "declared" }
  | { kind: "broken" }
  | { kind: "stall" }
  | { kind: "text"; status: number }
  | { kind: "deep" };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("data" as const), to: fc.constantFrom("null", "object", "nullItems", "string", "absent") }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("field" as const), pick: fc.nat(), value: fc.nat({ max: HOSTILE_VALUES.length - 1 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("proto" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: "hugeNumber" as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("status" as const), status: fc.constantFrom(201, 204, 400, 404, 429, 500, 503), retryAfter: fc.constantFrom(undefined, "0", "1", "99999999999999999999", "-5", "Wed, 21 Oct 2015 07:28:00 GMT", "soon") }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("redirect" as const), status: fc.constantFrom(301, 302, 303, 307, 308) }) },
  { weight: 1, arbitrary: fc.constantFrom({ kind: "endless" as const }, { kind: "declared" as const }, { kind: "broken" as const }, { kind: "stall" as const }, { kind: "deep" as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("text" as const), status: fc.constantFrom(200, 502) }) },
);

/** Every object and array of a JSON value, in a fixed order, for a pick to choose among. */
function containers(value: unknown, found: (Record<string, unknown> | unknown[])[] = []) {
  if (typeof value !== "object" || value === null) return found;
  found.push(value as Record<string, unknown>);
  for (const child of Object.values(value)) containers(child, found);
  return found;
}

const json = (answer: Forwarded, body: unknown, text = JSON.stringify(body)): Reply => ({ kind: "answer", status: answer.status, headers: { ...answer.headers, "content-type": "application/json" }, text });

/** The answer the proxy sends instead of `answer`. `elsewhere` is an origin a redirect may point to. */
export function mutate(m: Mutation, answer: Forwarded, elsewhere: string): Reply {
  let body: any;
  try {
    body = JSON.parse(answer.text);
  } catch {
    body = {};
  }
  switch (m.kind) {
    case "data": {
      if (m.to === "absent") delete body.data;
      else body.data = { null: null, object: { ...(body.data ?? {}) }, nullItems: [null], string: "data" }[m.to];
      return json(answer, body);
    }
    case "field": {
      const all = containers(body);
      const target = all[m.pick % all.length]!;
      const keys = Object.keys(target);
      if (keys.length === 0) return json(answer, body);
      const key = keys[m.pick % keys.length]!;
      // Of another type than the value it replaces (a value of the right type is a lie, which no client can see through), or text with control characters.
      const typeOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
      const others = HOSTILE_VALUES.filter((v) => typeOf(v) !== typeOf((target as Record<string, unknown>)[key]) || v === CONTROLS);
      (target as Record<string, unknown>)[key] = structuredClone(others[m.value % others.length]);
      return json(answer, body);
    }
    case "proto": {
      const all = containers(body).filter((c) => !Array.isArray(c));
      const text = JSON.stringify(body);
      if (all.length === 0) return json(answer, body);
      // JSON.parse makes "__proto__" an own key: written into the text, not through an object.
      return json(answer, body, text.replace(/\{"/, '{"__proto__":{"success":true,"id":"1","data":[]},"constructor":{"prototype":{}},"'));
    }
    case "hugeNumber":
      return json(answer, body, JSON.stringify(body).replace(/:(-?\d+)([,}])/g, ":1e400$2"));
    case "status":
      return { kind: "answer", status: m.status, headers: { ...answer.headers, ...(m.retryAfter !== undefined && { "retry-after": m.retryAfter }) }, text: m.status === 204 ? "" : answer.text };
    case "redirect":
      return { kind: "redirect", status: m.status, location: `${elsewhere}${answer.path}` };
    case "text":
      return { kind: "answer", status: m.status, headers: { "content-type": "text/html" }, text: "<html><body>Bad gateway, {\"success\": true}</body></html>" };
    case "deep":
      return json(answer, body, `${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`);
    case "broken":
      return { kind: "broken", text: answer.text.slice(0, Math.floor(answer.text.length / 2)) };
    case "stall":
      return { kind: "stall", text: answer.text.slice(0, 10) };
    case "endless":
      return { kind: "endless" };
    case "declared":
      return { kind: "declared", bytes: 64 * 1024 * 1024 * 1024 };
  }
}
