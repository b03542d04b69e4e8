/**
 * The two guards of verify's outputs, each alone: `safeReport` takes every credential out of the
 * report's data (in each form a value of an answer may already hold it: as it is, JSON-escaped by
 * `show`, URI-encoded in a request) and escapes control characters before any renderer runs;
 * `redact` finds a credential in a rendered text however the format escaped it.
 */
import { describe, expect, it } from "vitest";
import { escapeXml } from "../../src/coverage/formats.js";
import { redact, renderReport, safeReport, textReport, type Report } from "../../src/verify/index.js";
import { REPORT_FORMATS } from "../../src/verify/options.js";

const SECRETS = [`key"\\&<'é|1`, `sec"ret\\&<'é|2`];
const forms = (s: string) => [s, JSON.stringify(s).slice(1, -1), escapeXml(s), encodeURIComponent(s), s.replace(/\|/g, "\\|"), escapeXml(JSON.stringify(s).slice(1, -1))];
const [key, secret] = SECRETS as [string, string];

/** A report whose strings hold the credentials as answers could have put them there. */
const report: Report = {
  target: "https://stamp.example",
  startedAt: "2026-11-23T12:00:00.000Z",
  mode: "write",
  requests: 3,
  summary: { pass: 0, fail: 1, skip: 1, waived: 0 },
  checks: [
    { id: "read.a", title: "a", status: "fail", basis: "documented", expected: `not ${secret}`, observed: `error.message: ${JSON.stringify(`bad ${secret}`)}`, request: `GET /rest_api/v1/customers?email=${encodeURIComponent(key)}`, reason: null },
    { id: "read.b", title: "b", status: "skip", basis: "model", expected: "e", observed: null, request: null, reason: `the code ${key} is \u001b[2Jnot listed` },
  ],
  customer: { id: "1", before: null, after: null, restore: [`POST /rest_api/v1/customers/1/reward-codes/${secret}/void`] },
  waivers: { unmatched: [], expired: [] },
  notes: [`echoed ${escapeXml(secret)}`],
};

const outputs = (r: Report) => [textReport(r), ...REPORT_FORMATS.map((format) => renderReport(r, format))];
const leaks = (texts: string[]) => texts.flatMap((text, i) => SECRETS.flatMap((s) => forms(s).filter((f) => text.includes(f)).map((f) => `output ${i}: ${f}`)));

describe("verify's output guards", () => {
  it("redact alone finds each credential in every rendered format, however escaped", () => {
    expect(leaks(outputs(report))).not.toEqual([]);
    expect(leaks(outputs(report).map((text) => redact(text, SECRETS)))).toEqual([]);
  });

  it("safeReport alone leaves no credential in any form for a renderer, and no control character", () => {
    const safe = safeReport(report, SECRETS);
    expect(leaks(outputs(safe))).toEqual([]);
    expect(safe.checks[1]!.reason).toBe("the code [redacted] is \\u001b[2Jnot listed");
    expect(safe.checks[0]!.request).toBe("GET /rest_api/v1/customers?email=[redacted]");
  });
});
