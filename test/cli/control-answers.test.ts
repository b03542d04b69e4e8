/**
 * Regression (issue 35, item 9): `loyalty-sim coverage --url` and `scenarios add` took whatever
 * JSON the URL answered for the control API's: `{"status":"ok"}` crashed them with a TypeError
 * (exit 1, which CI reads as "under --min"); a redirect was followed, a huge answer read whole, a
 * hang waited for ever. Now an answer that is not the control API's is exit 2 saying so, and a
 * URL that does not answer within --timeout is as one that cannot be reached.
 */
import { writeFileSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, killAll, runCli } from "../support/cli.js";
import { json, otherServer } from "../support/other-server.js";

const REPORT = { shop: "1", summary: { cells: 1, covered: 0, percent: 0 }, operations: { getShop: { cells: [{ outcome: "ok", count: 0, forced: 0, rest: 0, graphql: 0 }], missing: ["ok"] } }, duplicateWrites: [] };
const SCENARIO = { name: "x", owner: "this shop", rules: [] };

const statusOk = await otherServer((_req, res) => json(res, 200, { status: "ok" }));
const login = await otherServer((_req, res) => res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end("<html>log in</html>"));
const missing = await otherServer((_req, res) => json(res, 404, { message: "Not Found" }));
const elsewhere = await otherServer((req, res) => json(res, 200, req.method === "POST" ? SCENARIO : REPORT));
const redirect = await otherServer((req, res) => res.writeHead(req.method === "POST" ? 307 : 302, { Location: `${elsewhere.origin}${req.url}` }).end());
const huge = await otherServer((_req, res) => {
  // 17 MiB of JSON, no Content-Length: only the read itself can stop.
  res.writeHead(200, { "Content-Type": "application/json" });
  res.write('{"shop":"');
  const chunk = "x".repeat(1 << 16);
  for (let i = 0; i < 17 * 16; i++) res.write(chunk);
  res.end('"}');
});
const silent = await otherServer(() => undefined);
const stalled = await otherServer((_req, res) => res.writeHead(200, { "Content-Type": "application/json" }).write('{"shop":'));
const hostile = await otherServer((req, res) =>
  json(res, 200, req.method === "POST" ? { ...SCENARIO, name: "x\n::add-mask::\u001b[2J" } : { ...REPORT, operations: { 'getShop" injected="1': REPORT.operations.getShop } }),
);

let dir: string;
let scenario: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "loyalty-sim-control-answers-"));
  scenario = join(dir, "one.yaml");
  writeFileSync(scenario, "name: one\nrules:\n  - respond: { error: INTERNAL_ERROR }\n");
});
afterAll(() => killAll());

const ADVICE = "Give the origin of a running loyalty-sim (its banner names it), such as http://127.0.0.1:4747.";
const notCoverage = (origin: string, answered: string) => `loyalty-sim coverage: ${origin} is not a loyalty-sim control API (GET ${origin}/__sim/coverage answered ${answered}). ${ADVICE}\n`;
const notAdded = (origin: string, answered: string) =>
  `loyalty-sim scenarios: ${scenario} was not added: ${origin} is not a loyalty-sim control API (POST ${origin}/__sim/scenarios answered ${answered}). ${ADVICE}\n`;
const coverage = (origin: string, ...more: string[]) => runCli(["coverage", "--url", origin, ...more], {});
const add = (origin: string, ...more: string[]) => runCli(["scenarios", "add", "--url", origin, ...more, scenario], {});

describe("issue 35, item 9: coverage --url, an answer that is not the control API's", () => {
  it("JSON of another shape ({\"status\":\"ok\"}): exit 2, no TypeError", async () => {
    expect(await coverage(statusOk.origin)).toEqual({ code: 2, signal: null, stdout: "", stderr: notCoverage(statusOk.origin, "200 with JSON that is not a coverage report (shop: Invalid input: expected string, received undefined)") });
  });

  it("an HTML page, and a 404 of JSON that is not the control API's error: exit 2", async () => {
    expect((await coverage(login.origin)).stderr).toBe(notCoverage(login.origin, "200 text/html, not JSON"));
    expect(await coverage(missing.origin)).toMatchObject({ code: 2, stderr: notCoverage(missing.origin, "404 with JSON that is not the control API's error") });
  });

  it("a redirect is not followed: exit 2 naming where it pointed, nothing asked there", async () => {
    expect(await coverage(redirect.origin)).toMatchObject({ code: 2, stderr: notCoverage(redirect.origin, `302, a redirect to ${elsewhere.origin}/__sim/coverage, which loyalty-sim does not follow`) });
    expect(elsewhere.seen).toEqual([]);
  });

  it("an answer over 16 MiB is read no further: exit 2", async () => {
    const run = await coverage(huge.origin);
    expect(run).toMatchObject({ code: 2, stderr: notCoverage(huge.origin, "200: the answer is larger than 16777216 bytes (it went on past that), the most loyalty-sim reads of one answer (docs/limits.md); nothing more was read") });
  });

  it("a report whose operation names are not operation ids (XML or workflow commands in them): exit 2", async () => {
    expect(await coverage(hostile.origin, "--format", "junit")).toMatchObject({ code: 2, stdout: "", stderr: notCoverage(hostile.origin, "200 with JSON that is not a coverage report (operations: a name that is not an operation id)") });
  });

  it("no answer within --timeout: exit 2 as a simulator that cannot be reached; a body that stalls: exit 2", async () => {
    expect(await coverage(silent.origin, "--timeout", "1")).toMatchObject({ code: 2, stderr: `loyalty-sim coverage: could not read the coverage of ${silent.origin}: no answer from ${silent.origin} within 1 s\n` });
    expect(await coverage(stalled.origin, "--timeout", "1")).toMatchObject({ code: 2, stderr: notCoverage(stalled.origin, "200: the answer broke off: no answer within 1 s") });
  });

  it("a --url that is not http(s), a --timeout that is not seconds: usage, exit 2", async () => {
    const usage = (message: string) => ({ code: 2, signal: null, stdout: "", stderr: `loyalty-sim coverage: ${message}\nRun loyalty-sim coverage --help for the options.\n` });
    expect(await runCli(["coverage", "--url", "file:///etc/passwd"])).toEqual(usage('--url: "file:///etc/passwd" is not an http(s) URL, such as http://127.0.0.1:4747'));
    expect(await runCli(["coverage", "--url", statusOk.origin, "--timeout", "1e3"])).toEqual(usage('--timeout: "1e3" is not a whole number of seconds from 1 to 3600'));
  });

  it("a --url with a user and password: usage, exit 2, the password shown nowhere", async () => {
    const message = "--url holds a user name or password, which the control API takes none of: give its origin, such as http://127.0.0.1:4747";
    expect(await runCli(["coverage", "--url", `http://ci:s3cret@${new URL(statusOk.origin).host}`])).toEqual({ code: 2, signal: null, stdout: "", stderr: `loyalty-sim coverage: ${message}\nRun loyalty-sim coverage --help for the options.\n` });
    expect(await add(`http://ci:s3cret@${new URL(statusOk.origin).host}`)).toEqual({ code: 2, signal: null, stdout: "", stderr: `loyalty-sim scenarios: ${message}\nRun loyalty-sim scenarios --help for the options.\n` });
  });
});

describe("issue 35, item 9: scenarios add, an answer that is not the control API's", () => {
  it("JSON of another shape ({\"status\":\"ok\"}): exit 2, no TypeError", async () => {
    expect(await add(statusOk.origin)).toEqual({ code: 2, signal: null, stdout: "", stderr: notAdded(statusOk.origin, "200 with JSON that is not a scenario (name: Invalid input: expected string, received undefined)") });
  });

  it("an HTML page or another server's 404: exit 2, not the simulator's refusal", async () => {
    expect(await add(login.origin)).toMatchObject({ code: 2, stderr: notAdded(login.origin, "200 text/html, not JSON") });
    expect(await add(missing.origin)).toMatchObject({ code: 2, stderr: notAdded(missing.origin, "404 with JSON that is not the control API's error") });
  });

  it("a 307 is not followed: the scenario is not sent again elsewhere", async () => {
    expect(await add(redirect.origin)).toMatchObject({ code: 2, stderr: notAdded(redirect.origin, `307, a redirect to ${elsewhere.origin}/__sim/scenarios, which loyalty-sim does not follow`) });
    expect(elsewhere.seen).toEqual([]);
  });

  it("a name with control characters (a workflow command, a terminal escape) is not printed: exit 2", async () => {
    expect(await add(hostile.origin)).toEqual({ code: 2, signal: null, stdout: "", stderr: notAdded(hostile.origin, "200 with JSON that holds control characters") });
  });

  it("no answer within --timeout: exit 1, saying it may or may not have been added", async () => {
    expect(await add(silent.origin, "--timeout", "1")).toEqual({ code: 1, signal: null, stdout: "", stderr: `loyalty-sim scenarios: ${scenario} may or may not have been added: no answer from ${silent.origin} within 1 s\n` });
  });
});
