/**
 * @module One headless Chromium and one built CLI for an inspector test file: started before its
 * tests (the CLI on a loopback address of its own, no customers, quiet), closed after them.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchBrowser } from "./browser.js";
import { ensureBuilt, killAll, startCli, stopCli, type StartedCli } from "./cli.js";

// Another loopback address than the tests' own fetches, where the platform has one.
const HOST = process.platform === "linux" ? "127.0.0.2" : "127.0.0.1";
export const AUTH = { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret", "Content-Type": "application/json" };

export interface InspectorSession {
  browser: Browser;
  cli: StartedCli;
}

/** Registers the file's start and stop; the session's fields are set once its tests run. */
export function inspectorSession(): InspectorSession {
  const session = {} as InspectorSession;
  beforeAll(() => ensureBuilt());
  beforeAll(async () => {
    [session.browser, session.cli] = await Promise.all([launchBrowser(), startCli(["--port", "0", "--host", HOST, "--customers", "0", "--quiet"])]);
  });
  afterAll(async () => {
    await session.browser?.close();
    if (session.cli) await stopCli(session.cli);
    await killAll();
  });
  return session;
}
