/**
 * Per-request forcing through the `Prefer` header, as Prism does: `error=CODE`, `status=NNN`,
 * `delay=MS`, comma-separated. A malformed value is a 422, never silently ignored. The header's
 * grammar is also written as one pattern for the OpenAPI document, with the answers it can force.
 * @module
 */
import { ERROR_CODES, type ErrorCode } from "../engine/errors.js";
import { ERROR_STATUS, invalidInput } from "../http/errors.js";
import { ErrorEnvelopeSchema } from "../http/schemas.js";
import { MAX_DELAY_MS, type Respond } from "./schema.js";

/** A delay is written with at most as many digits as its largest value. */
const DELAY_DIGITS = String(MAX_DELAY_MS).length;
const DELAY_TEXT = new RegExp(`^\\d{1,${DELAY_DIGITS}}$`);

export function parsePrefer(header: string | undefined): Respond | undefined {
  if (header === undefined || header.trim() === "") return undefined;
  const out: { error?: ErrorCode; status?: number; delayMs?: number } = {};
  for (const part of header.split(",")) {
    const [rawKey, ...rest] = part.split("=");
    const key = rawKey?.trim().toLowerCase() ?? "";
    const value = rest.join("=").trim().replace(/^"(.*)"$/, "$1");
    const bad = (why: string) => invalidInput("header", "Prefer", `${part.trim() || "(empty)"}: ${why}`);
    // Own keys only: `in` would also find what every object inherits (`constructor`, `__proto__`).
    if (Object.hasOwn(out, key === "delay" ? "delayMs" : key)) throw bad("is given twice");
    if (key === "error") {
      if (!ERROR_CODES.includes(value as ErrorCode)) throw bad(`unknown error code; use one of ${ERROR_CODES.join(", ")}`);
      out.error = value as ErrorCode;
    } else if (key === "status") {
      if (!/^\d{3}$/.test(value) || Number(value) < 200 || Number(value) > 599) throw bad("must be an HTTP status from 200 to 599 (a 1xx status is not a final answer)");
      out.status = Number(value);
    } else if (key === "delay") {
      if (!DELAY_TEXT.test(value) || Number(value) > MAX_DELAY_MS) throw bad(`must be milliseconds from 0 to ${MAX_DELAY_MS}`);
      out.delayMs = Number(value);
    } else {
      throw bad("unknown preference; loyalty-sim takes error=CODE, status=NNN and delay=MS");
    }
  }
  if (out.error !== undefined && out.status !== undefined) {
    throw invalidInput("header", "Prefer", "takes error or status, not both");
  }
  return out;
}

/** Digit strings as long as `max` and not above it, digit by digit (for 120000: 0xxxxx, 1[01]xxxx and 120000). */
function notAbove(max: string): string {
  const below = [...max].flatMap((digit, i) => (digit === "0" ? [] : [`${max.slice(0, i)}${digit === "1" ? "0" : `[0-${Number(digit) - 1}]`}[0-9]{${max.length - i - 1}}`]));
  return [...below, max].join("|");
}

/**
 * What parsePrefer takes, as one regular expression (no look-around, for any validator): an
 * empty value, or `error` or `status`, and `delay`, each at most once, in either order. Names in
 * any case, values as they are or in double quotes, spaces around each. A test holds the two equal.
 */
export function preferPattern(): string {
  const anyCase = (word: string) => [...word].map((c) => `[${c.toUpperCase()}${c}]`).join("");
  const part = (name: string, value: string) => `\\s*${anyCase(name)}\\s*=\\s*(?:${value}|"(?:${value})")\\s*`;
  const force = `${part("error", ERROR_CODES.join("|"))}|${part("status", "[2-5][0-9]{2}")}`;
  const delay = part("delay", `[0-9]{1,${DELAY_DIGITS - 1}}|${notAbove(String(MAX_DELAY_MS))}`);
  return `^(?:\\s*|(?:${force})(?:,${delay})?|${delay}(?:,(?:${force}))?)$`;
}

const codesOf = (range: 4 | 5) => ERROR_CODES.filter((code) => Math.floor(ERROR_STATUS[code] / 100) === range).map((code) => `\`${code}\` (${ERROR_STATUS[code]})`);
const EMPTY = "`Prefer: status=NNN`: that status with an empty body";

/** The `Prefer` header in the OpenAPI document: one parameter component, and what it can force on each operation that honours it. */
export const PREFER_DOCUMENT = {
  name: "Prefer",
  parameter: {
    name: "Prefer",
    in: "header",
    required: false,
    description:
      "loyalty-sim only: forces this request's answer, as Prism's `Prefer` does (e.g. `error=INSUFFICIENT_STAMPS, delay=250`). " +
      "`error=CODE` answers the code's status with the error envelope, for any code of the catalogue, also one this operation never answers itself; " +
      "`status=NNN` answers NNN (200 to 599) with an empty body, also a status this operation lists with a body; " +
      `\`delay=MS\` (0 to ${MAX_DELAY_MS}) waits first, then answers as forced or as the operation does. ` +
      "Comma-separated, each at most once, `error` or `status` but not both; names in any case, values may be in double quotes. " +
      "Read after the credentials and the quota, before scenarios; an empty value forces nothing, anything else is a 422 `VALIDATION_ERROR` naming the header.",
    // No `example`: Swagger UI would send it with every "Try it out", forcing an error each time.
    schema: { type: "string", pattern: preferPattern() },
  },
  /** The answers only forcing gives, as status ranges: an operation's own listed statuses come first. */
  responses: {
    "2XX": { description: `Only when forced by ${EMPTY}.` },
    "3XX": { description: `Only when forced by ${EMPTY}.` },
    "4XX": {
      description: `Only when forced by the \`Prefer\` header. \`Prefer: error=CODE\`: the code's status with the error envelope (${codesOf(4).join(", ")}); ${EMPTY}.`,
      content: { "application/json": { schema: ErrorEnvelopeSchema } },
    },
    "5XX": {
      description: `Only when forced by the \`Prefer\` header. \`Prefer: error=CODE\`: the code's status with the error envelope (${codesOf(5).join(", ")}); ${EMPTY}.`,
      content: { "application/json": { schema: ErrorEnvelopeSchema } },
    },
  },
} as const;
