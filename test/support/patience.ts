/**
 * How long a test waits for one event (a banner, an exit, a child command, a page element, a
 * journal entry) before it calls the wait a hang. Every wait in the tests follows its event and
 * uses these only as a safety net: a 2-core runner that other jobs keep busy can be ten times
 * slower than a quiet one, so no limit here is a speed check, and none may be reached by a slow
 * machine. One place, so that a slower world needs one change.
 * @module
 */

/** One event: a process's banner or exit, a command run to its end, a browser page's element. */
export const HANG_MS = 180_000;

/** A whole test or hook (vitest.config.ts): several events in a row. */
export const TEST_MS = 600_000;

/** `npm pack` or an install of the packed package, which also builds (tsc) on the way. */
export const NPM_MS = 400_000;

/**
 * Polls `probe` every `intervalMs` until it gives something other than `undefined` or `false`, and
 * resolves with that: for an event nothing announces (a file written, a process's log line). A
 * failure names `what` and is a hang, after HANG_MS.
 */
export async function until<T>(what: string, probe: () => T | false | undefined | Promise<T | false | undefined>, intervalMs = 10): Promise<T> {
  const deadline = Date.now() + HANG_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${HANG_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
