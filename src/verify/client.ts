/**
 * The one way verify talks to a target: every request goes through `PoliteClient.send`, which
 * counts it, keeps to the pace, waits out a 429, refuses in read mode anything that could write,
 * and in plan mode only writes the request down. It goes out through `sendOutbound`: no redirect
 * followed, no answer read past its bound. Credentials go in headers and nowhere else: no error,
 * plan line or exchange carries them, not even one a target echoes back.
 * @module
 */
import { retryAfterSeconds } from "../http/client-answers.js";
import { MAX_ANSWER_BYTES, OutboundError, sendOutbound, type OutboundAnswer } from "../http/outbound.js";
import { VERSION } from "../version.js";
import { MAX_RUN_ANSWER_BYTES, parseAnswer } from "./answer.js";
import { assertReadOnly } from "./read-only.js";
import type { Exchange, VerifyRequest } from "./request.js";
import { withoutSecrets } from "./scrub.js";

export type { Exchange, VerifyRequest } from "./request.js";
export { retryAfterSeconds } from "../http/client-answers.js";
export { MAX_ANSWER_VALUES, MAX_RUN_ANSWER_BYTES } from "./answer.js";

/** The target gave no usable answer (unreachable, no answer in time, quota spent): the run stops, exit code 2. */
export class TargetError extends Error {
  override readonly name = "TargetError";
  constructor(
    message: string,
    /** True when no answer came at all (unreachable, no answer in time): a run stops sending. */
    readonly noAnswer = false,
  ) {
    super(message);
  }
}

/** The secret sent on purpose to see a 401: fixed, so it is never derived from the real one. */
export const WRONG_SECRET = "loyalty-sim-verify-wrong-secret";

/** Requests a full run may send, retries included. */
export const REQUEST_BUDGET = 150;
/** What a run that stopped half-way may send beyond its budgets to undo its writes and read the customer (docs/verify.md). */
export const UNDO_ALLOWANCE = { requests: 10, bytes: 1024 * 1024 };
/** At most this many requests a second. */
export const MAX_PER_SECOND = 10;
const HOUR_MS = 3_600_000;
/** 429s in a row on one request before the run stops. */
const MAX_RETRIES = 3;
/** A `Retry-After` longer than this stops the run instead of waiting. */
export const MAX_RETRY_AFTER_S = 300;
/** A request and the reading of its answer, together. */
export const TIMEOUT_MS = 30_000;
/** Headers the checks read. */
const KEPT_HEADERS = ["x-ratelimit-limit", "x-ratelimit-remaining", "retry-after", "content-type"];

export interface ClientOptions {
  origin: string;
  fetch: typeof fetch;
  apiKey: string;
  apiSecret: string;
  /** Whether requests that write may go (`--allow-writes`); else only REST GETs and GraphQL queries. */
  writes: boolean;
  /** Write each request down, send none. */
  plan: boolean;
  /** Keep to MAX_PER_SECOND and the quota (off for `--target self`, which has no quota to spare). */
  pace: boolean;
  /** How many requests the run still means to send, this one included (for the quota's pace). */
  left: () => number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** TIMEOUT_MS unless a test waits less. */
  timeoutMs?: number;
}

export class PoliteClient {
  /** Requests sent, retries included. */
  sent = 0;
  /** In plan mode: the `METHOD /path` of each request, in order. */
  readonly planned: string[] = [];
  /** Whether the quota ever slowed the run, for the summary. */
  slowed = false;
  readonly #o: ClientOptions;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #now: () => number;
  #lastStart = Number.NEGATIVE_INFINITY;
  #limit: number | undefined;
  #remaining: number | undefined;
  /** Bytes of answers read so far, against MAX_RUN_ANSWER_BYTES. */
  #read = 0;
  #budget = { requests: REQUEST_BUDGET, bytes: MAX_RUN_ANSWER_BYTES };

  constructor(options: ClientOptions) {
    this.#o = options;
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.#now = options.now ?? Date.now;
  }

  /** The answer, or undefined in plan mode. Throws TargetError when the target gives none. */
  async send(request: VerifyRequest): Promise<Exchange | undefined> {
    // Before anything, in plan mode too: a plan must not list what the run may not send.
    if (!this.#o.writes) await assertReadOnly(request);
    const line = `${request.method} ${request.path}`;
    if (this.#o.plan) {
      this.planned.push(line);
      return undefined;
    }
    for (let attempt = 0; ; attempt++) {
      const exchange = await this.#once(request, line);
      if (exchange.status !== 429) return attempt === 0 ? exchange : { ...exchange, tries: attempt + 1 };
      if (attempt >= MAX_RETRIES) throw new TargetError(`${line} was answered 429 ${MAX_RETRIES + 1} times in a row: the target's quota is spent; run verify again later`);
      const wait = retryAfterSeconds(exchange.headers["retry-after"]);
      if (wait > MAX_RETRY_AFTER_S) throw new TargetError(`${line} was answered 429 with Retry-After ${wait} s (more than ${MAX_RETRY_AFTER_S} s): the target's quota is spent; run verify again later`);
      await this.#sleep(wait * 1000);
    }
  }

  async #once(request: VerifyRequest, line: string): Promise<Exchange> {
    if (this.sent >= this.#budget.requests) throw new TargetError(`the run's budget of ${REQUEST_BUDGET} requests is spent (retries after 429 count too): stopped before ${line}`);
    await this.#pace();
    this.sent++;
    const headers: Record<string, string> = {
      Accept: "application/json",
      "User-Agent": `loyalty-sim-verify/${VERSION}`,
      "X-Api-Key": this.#o.apiKey,
      "X-Api-Secret": request.wrongSecret ? WRONG_SECRET : this.#o.apiSecret,
    };
    if (request.body !== undefined) headers["Content-Type"] = "application/json";
    const answer = await this.#fetch(request, line, headers);
    const kept: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = answer.headers.get(name);
      if (value !== null) kept[name] = value;
    }
    const parsed = parseAnswer(answer.text, this.#secrets());
    if ("problem" in parsed) throw new TargetError(`${line}: ${parsed.problem}`);
    const safeHeaders = withoutSecrets(kept, this.#secrets());
    if (!request.wrongSecret) this.#noteQuota(safeHeaders);
    return { request: line, method: request.method, path: request.path, wrongSecret: request.wrongSecret === true, status: answer.status, headers: safeHeaders, body: parsed.body };
  }

  #secrets = () => [this.#o.apiKey, this.#o.apiSecret];

  /** A run that stopped half-way may go past its budgets by UNDO_ALLOWANCE to undo its writes, once. */
  allowUndo(): void {
    this.#budget = { requests: this.sent + UNDO_ALLOWANCE.requests, bytes: this.#read + UNDO_ALLOWANCE.bytes };
  }

  /** The answer within its bounds (one answer's, and what is left of the run's), or a TargetError naming the request. */
  async #fetch(request: VerifyRequest, line: string, headers: Record<string, string>): Promise<OutboundAnswer> {
    const left = this.#budget.bytes - this.#read;
    const init = { method: request.method, headers, ...(request.body !== undefined && { body: JSON.stringify(request.body) }) };
    try {
      const answer = await sendOutbound(this.#o.fetch, `${this.#o.origin}${request.path}`, init, { timeoutMs: this.#o.timeoutMs ?? TIMEOUT_MS, maxBytes: Math.min(MAX_ANSWER_BYTES, left) });
      this.#read += answer.bytes;
      return answer;
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      if (error.kind === "no-answer") throw new TargetError(`could not reach ${this.#o.origin} (${line}): ${error.reason}`, true);
      if (error.kind === "too-large" && left < MAX_ANSWER_BYTES) {
        throw new TargetError(`${line}: the run's answers together are larger than ${MAX_RUN_ANSWER_BYTES} bytes, the most loyalty-sim reads in one run (docs/limits.md); nothing more was read`);
      }
      throw new TargetError(`${line}: ${error.message}`);
    }
  }

  /**
   * At most MAX_PER_SECOND request starts a second. When `X-RateLimit-Remaining` is below the
   * requests the run still has to send, the hour's quota would not last at that pace: the run
   * slows to the quota's own, one request every (3600 s / X-RateLimit-Limit), so it never takes the
   * quota faster than the hour gives it.
   */
  async #pace(): Promise<void> {
    if (!this.#o.pace) return;
    let interval = 1000 / MAX_PER_SECOND;
    if (this.#limit !== undefined && this.#remaining !== undefined && this.#remaining < this.#o.left()) {
      interval = Math.max(interval, Math.ceil(HOUR_MS / this.#limit));
      this.slowed = true;
    }
    const wait = this.#lastStart + interval - this.#now();
    if (wait > 0) await this.#sleep(wait);
    this.#lastStart = this.#now();
  }

  #noteQuota(headers: Record<string, string>): void {
    const limit = Number(headers["x-ratelimit-limit"]);
    const remaining = Number(headers["x-ratelimit-remaining"]);
    if (Number.isInteger(limit) && limit > 0) this.#limit = limit;
    if (Number.isInteger(remaining) && remaining >= 0) this.#remaining = remaining;
  }
}
