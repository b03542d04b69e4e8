/**
 * Per-request forcing through the `Prefer` header, as Prism does: `error=CODE`, `status=NNN`,
 * `delay=MS`, comma-separated. A malformed value is a 422, never silently ignored.
 * @module
 */
import { ERROR_CODES, type ErrorCode } from "../engine/errors.js";
import { invalidInput } from "../http/errors.js";
import { MAX_DELAY_MS, type Respond } from "./schema.js";

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
      if (!/^\d{1,6}$/.test(value) || Number(value) > MAX_DELAY_MS) throw bad(`must be milliseconds from 0 to ${MAX_DELAY_MS}`);
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
