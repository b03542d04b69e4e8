/**
 * A meeting point for the files that run at the same time: each waits here until all have come,
 * so each checks its shop while the others' clocks are moved. A clock shared by the shops could
 * not pass both files then, whatever order they ran in.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inject, vi } from "vitest";

export async function meet(me: string, everyone: string[]): Promise<void> {
  const dir = inject("meetingDir");
  writeFileSync(join(dir, me), "");
  await vi.waitFor(
    () => {
      const missing = everyone.filter((name) => !existsSync(join(dir, name)));
      if (missing.length > 0) throw new Error(`${me} waits for ${missing.join(", ")}: run these files together`);
    },
    // Files start one after another on a busy machine: the test's own timeout is the guard.
    { timeout: 170_000, interval: 50 },
  );
}
