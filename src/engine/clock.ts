/**
 * The engine's sense of time. Everything time-dependent (timestamps, expiry, rate windows,
 * earn-rule limits) reads this clock, so tests and the control API can move or freeze time.
 * @module
 */

export interface Clock {
  /** Current time in epoch milliseconds. */
  now(): number;
}

/**
 * A clock that follows real time by default and can be shifted, set or frozen.
 * @example
 * const clock = new SimClock();
 * clock.advance(3600_000); // one hour later, still ticking
 */
export class SimClock implements Clock {
  #offset = 0;
  #frozenAt: number | null = null;

  constructor(private readonly realNow: () => number = Date.now) {}

  now(): number {
    return this.#frozenAt ?? this.realNow() + this.#offset;
  }

  get frozen(): boolean {
    return this.#frozenAt !== null;
  }

  advance(ms: number): void {
    if (this.#frozenAt !== null) this.#frozenAt += ms;
    else this.#offset += ms;
  }

  set(epochMs: number): void {
    if (this.#frozenAt !== null) this.#frozenAt = epochMs;
    else this.#offset = epochMs - this.realNow();
  }

  freeze(frozen: boolean): void {
    if (frozen && this.#frozenAt === null) this.#frozenAt = this.now();
    if (!frozen && this.#frozenAt !== null) {
      this.#offset = this.#frozenAt - this.realNow();
      this.#frozenAt = null;
    }
  }

  /** Back to real time, unfrozen. */
  reset(): void {
    this.#offset = 0;
    this.#frozenAt = null;
  }
}

/** A clock stopped at a given instant; handy for tests and seeded generation. */
export function fixedClock(epochMs: number): SimClock {
  const clock = new SimClock(() => epochMs);
  clock.freeze(true);
  return clock;
}

export const DAY_MS = 86_400_000;

/** ISO 8601 with an explicit `+00:00` offset, as production writes every timestamp. */
export function isoTimestamp(epochMs: number): string {
  const second = Math.floor(epochMs / 1000);
  // Every response's envelope asks for "now": one cached second saves a Date per request.
  if (second !== cached.second) {
    cached.second = second;
    cached.text = `${new Date(second * 1000).toISOString().slice(0, 19)}+00:00`;
  }
  return cached.text;
}

const cached = { second: Number.NaN, text: "" };
