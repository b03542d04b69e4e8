/**
 * Global setup: a folder for this run where the npm package is packed once, by the first test
 * file that needs it (support/pack.ts), and removed at the end.
 * @module
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "loyalty-sim-pack-"));
  project.provide("packDir", dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
