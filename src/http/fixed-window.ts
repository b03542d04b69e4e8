/**
 * A fixed-window limiter: at most `limit` hits a window, which the first hit opens and which opens
 * again once the clock has left it (forwards, or backwards when a test moves it back).
 * @module
 */

export interface WindowVerdict {
  allowed: boolean;
  /** Hits left in the window. */
  remaining: number;
  /** Whole seconds until the window ends, at least 1. */
  retryAfterSeconds: number;
}

export class FixedWindow {
  #start = Number.NaN;
  #count = 0;

  /** When the current window ends (ms); NaN before the first hit. */
  endsAt(lengthMs: number): number {
    return this.#start + lengthMs;
  }

  /** Hits left at `now` (ms), counting none. */
  left(limit: number, lengthMs: number, now: number): number {
    return now >= this.#start && now < this.#start + lengthMs ? limit - this.#count : limit;
  }

  /** Counts one hit at `now` (ms) against `limit` hits per `lengthMs`. */
  hit(limit: number, lengthMs: number, now: number): WindowVerdict {
    // NaN until the first hit: every comparison with it is false, so the first hit opens the window.
    if (!(now >= this.#start && now < this.#start + lengthMs)) {
      this.#start = now;
      this.#count = 0;
    }
    const allowed = this.#count < limit;
    if (allowed) this.#count++;
    return { allowed, remaining: limit - this.#count, retryAfterSeconds: Math.max(1, Math.ceil((this.#start + lengthMs - now) / 1000)) };
  }
}
