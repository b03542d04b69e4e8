/**
 * What `loyalty-sim coverage --url` and `scenarios add` take from the URL they were given: the
 * control API's own answers, and nothing else. Each request goes out as sendOutbound sends it (no
 * redirect followed, at most MAX_ANSWER_BYTES read, one timeout); an answer that is not the
 * control API's (not JSON, another shape, a redirect, too large, too deep, control characters that
 * would rewrite a terminal or start a workflow command in a CI log) is a NotControlApi, which both
 * commands exit 2 on. No answer at all is a SimulatorError, as the control client makes it.
 * @module
 */
import type { z } from "@hono/zod-openapi";
import { fetchFailure } from "../http/client-answers.js";
import { jsonTextTooDeep, TOO_DEEP } from "../http/json-depth.js";
import { describeLocation, OutboundError, sendOutbound } from "../http/outbound.js";
import { ErrorEnvelopeSchema } from "../http/schemas.js";
import { SimulatorError } from "../simulator/control-client.js";

/** `--timeout`: seconds for a request and its answer, by default and at most. */
export const CONTROL_TIMEOUT_S = 30;
export const MAX_CONTROL_TIMEOUT_S = 3600;

/** The URL answered, but not as loyalty-sim's control API does; the message says what it answered and what to do. */
export class NotControlApi extends Error {
  override readonly name = "NotControlApi";
}

/** What a command expects of a success. */
export interface ExpectedAnswer {
  schema: z.ZodType;
  /** It in words: "a coverage report". */
  what: string;
  /** What else is wrong with a body of the right shape, if anything. */
  problem?: (body: unknown) => string | undefined;
}

/** `--url`'s problem, if any: only http(s) reaches a simulator; a password in it is never shown. */
export function urlProblem(url: string): string | undefined {
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) return `--url: ${JSON.stringify(url)} is not an http(s) URL, such as http://127.0.0.1:4747`;
  const { username, password } = new URL(url);
  if (username !== "" || password !== "") return "--url holds a user name or password, which the control API takes none of: give its origin, such as http://127.0.0.1:4747";
  return undefined;
}

/** `--timeout` in milliseconds, or its problem. */
export function parseTimeout(text: string | undefined): number | string {
  if (text === undefined) return CONTROL_TIMEOUT_S * 1000;
  const seconds = /^\d{1,4}$/.test(text) ? Number(text) : 0;
  if (seconds < 1 || seconds > MAX_CONTROL_TIMEOUT_S) return `--timeout: ${JSON.stringify(text)} is not a whole number of seconds from 1 to ${MAX_CONTROL_TIMEOUT_S}`;
  return seconds * 1000;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex
const clean = (text: string, max = 200) => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "").slice(0, max);

/** Whether any key or string of a parsed JSON value holds a control character (tab aside); a loop, not recursion. */
function holdsControl(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next === "string" && CONTROL.test(next)) return true;
    if (typeof next !== "object" || next === null) continue;
    for (const [key, item] of Object.entries(next)) {
      if (CONTROL.test(key)) return true;
      stack.push(item);
    }
  }
  return false;
}

const firstIssue = (error: z.ZodError) => {
  const issue = error.issues[0]!;
  return clean(`${issue.path.map(String).join(".") || "the answer"}: ${issue.message}`);
};

function unreachable(failure: unknown, origin: string, timeoutMs: number): SimulatorError {
  if (failure instanceof Error && failure.name === "TimeoutError") return new SimulatorError(0, "TIMEOUT", `no answer from ${origin} within ${timeoutMs / 1000} s`);
  const code = (failure as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return new SimulatorError(0, typeof code === "string" ? code : "UNREACHABLE", `could not reach loyalty-sim at ${origin}: ${fetchFailure(failure, timeoutMs)}`);
}

/** A fetch for the control client that answers only the control API's answers (the success `expected`, or its error envelope). */
export function controlFetch(timeoutMs: number, expected: ExpectedAnswer): typeof fetch {
  return async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const notControl = (answered: string) =>
      new NotControlApi(
        `${url.origin} is not a loyalty-sim control API (${init.method ?? "GET"} ${url.origin}${url.pathname} answered ${answered}). ` +
          "Give the origin of a running loyalty-sim (its banner names it), such as http://127.0.0.1:4747.",
      );
    // Which of "no answer" and "an answer refused" sendOutbound's failure was: its fetch, watched.
    let first: Response | undefined;
    let failure: unknown;
    const watched: typeof fetch = (...args) =>
      fetch(...args).then(
        (res) => (first = res),
        (error: unknown) => {
          failure = error;
          throw error;
        },
      );
    let answer;
    try {
      answer = await sendOutbound(watched, url.href, init, { timeoutMs });
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      if (first === undefined) throw unreachable(failure, url.origin, timeoutMs);
      if (first.status < 300 || first.status >= 400) throw notControl(`${first.status}: ${error.message}`);
      const location = first.headers.get("location");
      throw notControl(`${first.status}, a redirect to ${location === null ? "nowhere (no Location)" : describeLocation(location, url.href)}, which loyalty-sim does not follow`);
    }
    const { status, headers, text } = answer;
    // No body (a DELETE's 204); the control client reads it as such.
    if (status === 204 || status === 205) return new Response(null, { status, headers });
    if (jsonTextTooDeep(text)) throw notControl(`${status} with JSON that ${TOO_DEEP}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: said below.
    }
    if (body === undefined) throw notControl(`${status} ${clean(headers.get("content-type")?.split(";")[0] || "without a content type", 100)}, not JSON`);
    if (holdsControl(body)) throw notControl(`${status} with JSON that holds control characters`);
    if (status < 200 || status >= 300) {
      if (!ErrorEnvelopeSchema.safeParse(body).success) throw notControl(`${status} with JSON that is not the control API's error`);
    } else {
      const checked = expected.schema.safeParse(body);
      const problem = checked.success ? expected.problem?.(body) : firstIssue(checked.error);
      if (problem !== undefined) throw notControl(`${status} with JSON that is not ${expected.what} (${problem})`);
    }
    return new Response(text, { status, headers });
  };
}
