/** One simulator on a port for the whole run; each test file makes its own shop in it (file-shop.ts). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSimulator } from "loyalty-sim";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  interface ProvidedContext {
    loyaltyUrl: string;
    /** Where the files that run together meet (meet.ts). */
    meetingDir: string;
  }
}

export default async function setup(project: TestProject) {
  // No hourly quota: a watch-mode run passes 1000 requests in an hour. Shops made later take it too.
  const sim = await startSimulator({ rateLimit: "off" });
  const meetingDir = mkdtempSync(join(tmpdir(), "vitest-app-"));
  project.provide("loyaltyUrl", sim.url);
  project.provide("meetingDir", meetingDir);
  return async () => {
    await sim.close();
    rmSync(meetingDir, { recursive: true, force: true });
  };
}
