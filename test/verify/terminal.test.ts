/**
 * What verify prints to a terminal holds no control character a target sent: an escape sequence
 * in an error code or a field, a C1 control (CSI, which JSON does not escape) in a header, a
 * carriage return or a bidi override. Each is written as `\u001b`, and each line the run prints
 * stays its own line.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, runCli } from "../support/cli.js";
import { startHostileProxy, withJson } from "../support/hostile.js";
import { startStandIn } from "../support/verify.js";

const sim = await startStandIn();
const ENV = { LOYALTY_SIM_VERIFY_API_KEY: sim.apiKey, LOYALTY_SIM_VERIFY_API_SECRET: sim.apiSecret };
const HOSTILE = "\u001b[2J\u001b]0;owned\u0007\r\u009b31m\u202eevil\nFAKE LINE";
// Every control character but the newline, and the marks that reorder text.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

beforeAll(() => ensureBuilt());

describe("verify's output on a terminal", () => {
  it("a report of answers holding control characters (an error code, a field): escaped, on their own lines", async () => {
    const proxy = await startHostileProxy(sim.url, (answer) => {
      if (!answer.headers["content-type"]?.includes("json")) return undefined;
      return withJson(answer, (body) => {
        if (body.error) body.error.code = HOSTILE;
        if (body.data && !Array.isArray(body.data) && "currency" in body.data) body.data.name = HOSTILE;
        return body;
      });
    });
    const run = await runCli(["verify", "--target", proxy.url], ENV);
    expect(run.code).toBe(1);
    expect(run.stdout).not.toMatch(CONTROL);
    expect(run.stdout).toContain("\\u001b[2J");
    expect(run.stdout).not.toMatch(/^FAKE LINE/m);
  });

  it("a stopped run's message quoting a header with a C1 control: escaped", async () => {
    const proxy = await startHostileProxy(sim.url, () => ({ kind: "answer", status: 200, headers: { "content-type": "text/html\u009b2J\u009b31m" }, text: "<html></html>" }));
    const run = await runCli(["verify", "--target", proxy.url], ENV);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toMatch(CONTROL);
    expect(run.stderr).toBe(`loyalty-sim verify: ${proxy.url} did not answer as the loyalty API does: GET /rest_api/v1/shop answered 200 text/html\\u009b2J\\u009b31m; --target takes the service's origin, e.g. https://stamp.appydesign.io\n`);
  });
});
