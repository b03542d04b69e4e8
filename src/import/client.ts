/**
 * The one way `import` talks to the source: `PoliteReader.get` sends a GET (anything else is
 * refused before it leaves), keeps to a pace under the shop's hourly quota (read from
 * `X-RateLimit-Limit` and `X-RateLimit-Remaining`), waits out a 429 for its `Retry-After`, and
 * checks each answer against the contract's schema. The credentials go in headers and nowhere
 * else: no error or progress line carries them. verify's client (src/verify) reads Retry-After and
 * a failed fetch alike (http/client-answers.ts); its pace is its own (a small budget, no schemas).
 * Every request goes out through http/outbound.ts: no redirect followed, an answer read no further
 * than MAX_ANSWER_BYTES, one timeout for the request and its body.
 * @module
 */
import type { z } from "zod";
import { API_BASE } from "../http/base.js";
import { retryAfterSeconds } from "../http/client-answers.js";
import { OutboundError, sendOutbound, type OutboundAnswer } from "../http/outbound.js";
import { VERSION } from "../version.js";
import { fieldPath } from "../zod-issues.js";

/** The source gave no usable answer (unreachable, refused, an answer the contract does not describe): the import stops, nothing written. */
export class SourceError extends Error {
  override readonly name = "SourceError";
}

/** At most this many requests a second, whatever the quota. */
export const MAX_PER_SECOND = 10;
const HOUR_MS = 3_600_000;
/** 429s in a row on one request before the import stops. */
const MAX_RETRIES = 5;
/** A `Retry-After` longer than an hour (the quota's window) and a minute stops the import instead of waiting. */
export const MAX_RETRY_AFTER_S = 3_660;

export interface ReaderOptions {
  /** Scheme, host and port: the API's paths are added to it. */
  origin: string;
  fetch: typeof fetch;
  apiKey: string;
  apiSecret: string;
  /** How many requests the import still means to send, this one included (for the quota's pace). */
  left: () => number;
  /** Told of every wait longer than a second: how long and why. */
  onWait?: (ms: number, why: string) => void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** A request the reader is asked for: only GETs below the API's base go out. */
export interface SourceRequest {
  method: string;
  /** Below the API's base, with its query: `/customers?limit=50`. */
  path: string;
}

export class PoliteReader {
  /** Requests sent, retries included. */
  sent = 0;
  /** Milliseconds spent waiting for the quota (its pace, or a 429's Retry-After). */
  waitedMs = 0;
  /** The shop's hourly quota, once an answer has told it. */
  limit: number | undefined;
  readonly #o: ReaderOptions;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #now: () => number;
  #lastStart = Number.NEGATIVE_INFINITY;
  #remaining: number | undefined;

  constructor(options: ReaderOptions) {
    this.#o = options;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#now = options.now ?? Date.now;
  }

  /** The answer's `data` (and `meta`), checked against `schema`, the contract's envelope of the operation. */
  async get<S extends z.ZodType>(path: string, schema: S): Promise<z.output<S>> {
    return this.request({ method: "GET", path }, schema);
  }

  async request<S extends z.ZodType>(request: SourceRequest, schema: S): Promise<z.output<S>> {
    // The import reads; a request that could change the source is a bug, refused before it leaves.
    if (request.method !== "GET") throw new Error(`loyalty-sim import tried to send ${request.method} ${request.path}: it only ever reads (GET); nothing was sent`);
    const line = `GET ${API_BASE}${request.path}`;
    for (let attempt = 0; ; attempt++) {
      const res = await this.#once(line);
      if (res.status === 429) {
        if (attempt >= MAX_RETRIES) throw new SourceError(`${line} was answered 429 ${MAX_RETRIES + 1} times in a row: the shop's quota is taken by someone else too; import again later`);
        const wait = retryAfterSeconds(res.headers.get("retry-after"), this.#now());
        if (wait > MAX_RETRY_AFTER_S) throw new SourceError(`${line} was answered 429 with Retry-After ${wait} s (more than ${MAX_RETRY_AFTER_S} s); import again later`);
        await this.#wait(wait * 1000, `the source is at its quota (429, Retry-After ${wait} s)`);
        continue;
      }
      const body = res.text;
      if (res.status !== 200) throw new SourceError(`${line} was answered ${res.status}${errorCode(body)}${HINTS[res.status] ?? ""}`);
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        throw new SourceError(`${line} was answered 200 with a body that is not JSON`);
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new SourceError(`${line} was answered with ${fieldPath(issue.path)}: ${issue.message}, which the contract (production's documented answers) does not take; nothing was written`);
      }
      return parsed.data;
    }
  }

  async #once(line: string): Promise<OutboundAnswer> {
    await this.#pace();
    this.sent++;
    let res: OutboundAnswer;
    try {
      res = await sendOutbound(this.#o.fetch, `${this.#o.origin}${line.slice(4)}`, {
        method: "GET",
        headers: { Accept: "application/json", "User-Agent": `loyalty-sim-import/${VERSION}`, "X-Api-Key": this.#o.apiKey, "X-Api-Secret": this.#o.apiSecret },
      });
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      throw new SourceError(`${line} to ${this.#o.origin} failed: ${error.message}; nothing was written`);
    }
    const limit = Number(res.headers.get("x-ratelimit-limit") ?? Number.NaN);
    const remaining = Number(res.headers.get("x-ratelimit-remaining") ?? Number.NaN);
    if (Number.isInteger(limit) && limit > 0) this.limit = limit;
    if (Number.isInteger(remaining) && remaining >= 0) this.#remaining = remaining;
    return res;
  }

  /**
   * At most MAX_PER_SECOND request starts a second. When `X-RateLimit-Remaining` is below the
   * requests still to send, the rest of the quota is spread over an hour (one request every
   * 3600 s / remaining): the hour's window ends before that is spent, so the import never takes
   * the source into 429 itself. At 0 left, one request a quota slot (3600 s / limit) until the
   * window ends; a 429 there is waited out for its Retry-After.
   */
  async #pace(): Promise<void> {
    let interval = 1000 / MAX_PER_SECOND;
    const remaining = this.#remaining;
    if (remaining !== undefined && this.limit !== undefined && remaining < this.#o.left()) {
      interval = Math.max(interval, Math.ceil(HOUR_MS / (remaining > 0 ? remaining : this.limit)));
    }
    const wait = this.#lastStart + interval - this.#now();
    if (wait > 0) await this.#wait(wait, `paced under the shop's quota (${remaining} of ${this.limit} left this hour, ${this.#o.left()} requests to go)`);
    this.#lastStart = this.#now();
  }

  async #wait(ms: number, reason: string): Promise<void> {
    if (ms > 1000) {
      this.waitedMs += ms;
      this.#o.onWait?.(ms, reason);
    }
    await this.#sleep(ms);
  }
}

const HINTS: Record<number, string> = {
  401: ": the source refused the credentials; check --api-key and --api-secret",
  403: ": the shop's API access is off or its plan has none; see the shop's admin settings",
};

/** ` CODE` of an error envelope when it is one (UPPER_SNAKE, short), else nothing: the source wrote it. */
function errorCode(body: string): string {
  try {
    const code = (JSON.parse(body) as { error?: { code?: unknown } }).error?.code;
    return typeof code === "string" && /^[A-Z][A-Z0-9_]{0,63}$/.test(code) ? ` ${code}` : "";
  } catch {
    return "";
  }
}
