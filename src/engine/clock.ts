/**
 * The engine's sense of time. Everything time-dependent (timestamps, expiry, rate windows,
 * earn-rule limits) reads this clock, so tests and the control API can move or freeze time.
 * @module
 */

/**
 * The clock's range: years 1970 to 9999, where every instant it gives is written as a plain
 * `YYYY-MM-DDTHH:MM:SS+00:00` timestamp. The control API refuses to move it outside.
 */
export const CLOCK_MIN_MS = 0;
export const CLOCK_MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** Whether the clock may be put at this instant (false for NaN and the infinities too). */
export function inClockRange(epochMs: number): boolean {
  return epochMs >= CLOCK_MIN_MS && epochMs <= CLOCK_MAX_MS;
}

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

  /** Never past the range's end, which real time would otherwise carry a clock set there beyond. */
  now(): number {
    return Math.min(this.#frozenAt ?? this.realNow() + this.#offset, CLOCK_MAX_MS);
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

/** 0000-01-01T00:00:00Z, the first instant written with a plain four-digit year. */
const PLAIN_MIN_MS = -62_167_219_200_000;

/**
 * ISO 8601 with an explicit `+00:00` offset, as production writes every timestamp, and always
 * plain `YYYY-MM-DDTHH:MM:SS`. Total: an instant past 9999 (a date derived from the clock's last
 * year: an expiry, a window's end) is written as the clock's last second, one before year 0 as
 * 0000-01-01T00:00:00, and NaN as the epoch.
 */
export function isoTimestamp(epochMs: number): string {
  const bounded = epochMs >= PLAIN_MIN_MS ? Math.min(epochMs, CLOCK_MAX_MS) : Number.isNaN(epochMs) ? 0 : PLAIN_MIN_MS;
  const second = Math.floor(bounded / 1000);
  // Every response's envelope asks for "now": one cached second saves the formatting per request.
  if (second !== cached.second) {
    cached.second = second;
    cached.text = formatSecond(second);
  }
  return cached.text;
}

const cached = { second: Number.NaN, text: "" };

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * `YYYY-MM-DDTHH:MM:SS+00:00` by arithmetic (the civil-from-days algorithm of Howard Hinnant's
 * date library) rather than a Date and toISOString: a page of customers formats a dozen distinct
 * instants per customer. Years 0-999 go through Date (isoTimestamp keeps years in 0-9999).
 */
function formatSecond(second: number): string {
  const days = Math.floor(second / 86_400);
  const inDay = second - days * 86_400;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153); // months counted from March
  const day = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1;
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 1000) return `${new Date(second * 1000).toISOString().slice(0, -5)}+00:00`;
  const hour = Math.floor(inDay / 3600);
  const minute = Math.floor((inDay - hour * 3600) / 60);
  return `${year}-${pad2(month)}-${pad2(day)}T${pad2(hour)}:${pad2(minute)}:${pad2(inDay - hour * 3600 - minute * 60)}+00:00`;
}
