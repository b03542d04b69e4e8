/**
 * `loyalty-sim coverage` as a user runs it (the built command) against a CLI server, each format
 * read back (JUnit parsed as XML, JSON equal to the control API's), its exit codes, and the
 * server's `--coverage-report FILE` written at SIGTERM.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createControlClient } from "../../src/index.js";
import { ensureBuilt, killAll, runCli, startCli, stopCli, type StartedCli } from "../support/cli.js";

const AUTH = { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret", "Content-Type": "application/json" };
const dir = mkdtempSync(join(tmpdir(), "coverage-cli-"));
const atExit = join(dir, "at-exit.xml");
let cli: StartedCli;

beforeAll(() => ensureBuilt());
beforeAll(async () => {
  cli = await startCli(["--port", "0", "--customers", "0", "--quiet", "--rate-limit", "off", "--coverage-report", atExit]);
  const api = (method: string, path: string, body?: object, headers: Record<string, string> = {}) =>
    fetch(`${cli.origin}${path}`, { method, headers: { ...AUTH, ...headers }, ...(body && { body: JSON.stringify(body) }) });
  expect((await api("POST", "/__sim/customers", { id: "5550003", firstName: "Edsger", lastName: "Dijkstra", email: "ed@example.com" })).status).toBe(201);
  expect((await api("POST", "/__sim/scenarios", { name: "lost", rules: [{ match: { operation: "awardStamps" }, times: 1, respond: { fault: "empty_response", commit: true } }] })).status).toBe(201);
  expect((await api("GET", "/rest_api/v1/customers/5550003")).status).toBe(200);
  expect((await api("GET", "/rest_api/v1/shop", undefined, { Prefer: "error=INTERNAL_ERROR" })).status).toBe(500);
  await expect(api("POST", "/rest_api/v1/customers/5550003/stamps/award", { stamps: 1 }, { "X-Request-Id": "award-a" })).rejects.toThrow("fetch failed");
  expect((await api("POST", "/rest_api/v1/customers/5550003/stamps/award", { stamps: 1 }, { "X-Request-Id": "award-b" })).status).toBe(200);
});
afterAll(async () => {
  if (cli) await stopCli(cli);
  await killAll();
});

const parseJunit = (xml: string) =>
  new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", isArray: (name) => name === "testcase" || name === "property" }).parse(xml) as {
    testsuite: { name: string; tests: string; failures: string; skipped: string; testcase: { classname: string; name: string; skipped?: { message: string }; failure?: { message: string; type: string } }[] };
  };

describe("issue 29: loyalty-sim coverage", () => {
  it("writes JUnit with a test case per cell (untested skipped) and the duplicate write failed; exit 1", async () => {
    const run = await runCli(["coverage", "--url", cli.origin, "--format", "junit"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("loyalty-sim coverage: 1 duplicate write(s): a write was sent again after its answer was lost\n");
    const { testsuite } = parseJunit(run.stdout);
    expect([testsuite.name, testsuite.tests, testsuite.failures, testsuite.skipped]).toEqual(["loyalty-sim coverage", "225", "1", "220"]);
    const passed = testsuite.testcase.filter((t) => t.skipped === undefined && t.failure === undefined).map((t) => t.name);
    expect(passed).toEqual(["getCustomer ok", "awardStamps ok", "awardStamps lostAfterCommit", "getShop INTERNAL_ERROR"]);
    const failed = testsuite.testcase.filter((t) => t.failure !== undefined);
    expect(failed.map((t) => [t.classname, t.name, t.failure!.type])).toEqual([["loyalty-sim.coverage.duplicateWrites", "duplicate awardStamps award-b", "duplicateWrite"]]);
    expect(failed[0]!.failure!.message).toBe("awardStamps for customer 5550003: award-a lost its answer after it committed, award-b wrote it again (without an Idempotency-Key)");
  });

  it("answers JSON as the control API does, exits 0 with --allow-duplicates and 1 under --min", async () => {
    const run = await runCli(["coverage", "--url", cli.origin, "--format", "json", "--allow-duplicates"]);
    expect([run.code, run.stderr]).toEqual([0, ""]);
    expect(JSON.parse(run.stdout)).toEqual(await createControlClient(fetch, cli.origin).coverage());
    const under = await runCli(["coverage", "--url", cli.origin, "--min", "50", "--allow-duplicates", "--shop", "all"]);
    expect(under.code).toBe(1);
    expect(under.stderr).toBe("loyalty-sim coverage: coverage 1.8% is under the minimum of 50%\n");
    expect(under.stdout.split("\n")[0]).toBe("loyalty-sim coverage, every shop: 4 of 224 cells (1.8%) met; 1 duplicate write");
    const over = await runCli(["coverage", "--url", cli.origin, "--min", "1.8", "--allow-duplicates", "--format", "markdown", "--out", join(dir, "cov.md")]);
    expect([over.code, over.stdout]).toEqual([0, "loyalty-sim coverage, shop 1: 4 of 224 cells (1.8%) met; 1 duplicate write\n"]);
    expect(readFileSync(join(dir, "cov.md"), "utf8")).toContain("| awardStamps | 2/12 | `ok` | `lostAfterCommit` | `UNAUTHORIZED` `CUSTOMER_NOT_FOUND`");
  });

  it("exits 2 on a wrong usage or a simulator it cannot reach", async () => {
    expect(await runCli(["coverage", "--url", cli.origin, "--format", "yaml"])).toMatchObject({ code: 2, stderr: expect.stringContaining('--format: "yaml" is not one of text, json, markdown, junit') });
    expect(await runCli(["coverage"])).toMatchObject({ code: 2, stderr: expect.stringContaining("--url is required") });
    expect(await runCli(["coverage", "--url", cli.origin, "--min", "abc"])).toMatchObject({ code: 2, stderr: expect.stringContaining('--min: "abc" is not a percentage') });
    expect(await runCli(["coverage", "--url", cli.origin, "--shop", "nobody"])).toMatchObject({ code: 2, stderr: expect.stringContaining("names no shop") });
    expect(await runCli(["coverage", "--url", "http://127.0.0.1:9"])).toMatchObject({ code: 2, stderr: expect.stringContaining("could not read the coverage of http://127.0.0.1:9") });
  });

  it("writes --coverage-report at SIGTERM, in the format of its extension", async () => {
    expect(existsSync(atExit)).toBe(false);
    cli.kill("SIGTERM");
    expect(await cli.exited).toEqual({ code: 0, signal: null });
    const { testsuite } = parseJunit(readFileSync(atExit, "utf8"));
    expect([testsuite.tests, testsuite.failures, testsuite.skipped]).toEqual(["225", "1", "220"]);
    expect(cli.stdout()).toContain(`loyalty-sim: coverage report written to ${atExit} (1.8% of cells met, 1 duplicate write(s))`);
  });
});
