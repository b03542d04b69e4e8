/**
 * What the source writes never rewrites the user's terminal (issue 35, hostile checks): a control
 * character, a bidirectional override or a line break in a value the command prints (an error
 * code, a reward's name in an assumption) comes out escaped, on its own line.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runImportCli } from "../../src/cli/import.js";
import { dir, startSource } from "../support/import.js";

type Json = Record<string, any>;
let outs = 0;
const HOSTILE = "Pie\u001b]0;pwned\u0007\u001b[2J\nloyalty-sim import: wrote /etc/passwd\u202e\u0085";
/** Anything a terminal would act on: C0 but the line feed, DEL, C1, and bidirectional controls. */
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;

async function importFrom(source: ReturnType<typeof startSource>, fetchImpl = source.deps.fetch) {
  const said = { out: "", err: "" };
  const io = { out: (t: string) => (said.out += t), err: (t: string) => (said.err += t), progress: (t: string) => (said.err += `${t}\n`) };
  const argv = ["--from", source.credentials.from, "--api-key", source.credentials.apiKey, "--api-secret", source.credentials.apiSecret, "--out", join(dir, `terminal-${outs++}.json`), "--salt", "s", "--customers", "all"];
  const code = await runImportCli(argv, {}, io, { ...source.deps, fetch: fetchImpl });
  return { code, ...said };
}

describe("issue 35: the source's text on the user's terminal", () => {
  it("an error code with control characters is not printed: the status is", async () => {
    const source = startSource({ customers: 0 });
    const body = { success: false, error: { code: HOSTILE, message: HOSTILE, statusCode: 503 }, timestamp: "2026-11-23T12:00:00+00:00" };
    const run = await importFrom(source, async () => new Response(JSON.stringify(body), { status: 503, headers: { "Content-Type": "application/json" } }));
    expect(run.code).toBe(1);
    expect(run.err).toBe("loyalty-sim import: GET /rest_api/v1/shop was answered 503\n");
  });

  it("a reward's name with control characters and a line break comes out escaped, on the assumption's own line", async () => {
    const source = startSource({ customers: 0, change: (file: Json) => (file.rewards.find((r: Json) => r.id === 108).name = HOSTILE) });
    const run = await importFrom(source);
    expect(run.code).toBe(0);
    expect(run.out + run.err).not.toMatch(UNSAFE);
    const line = run.out.split("\n").find((l) => l.startsWith("  rewards[8] = "))!;
    expect(line).toContain('codes were issued for "Pie\\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\nloyalty-sim import: wrote /etc/passwd\\u{202e}\\u{85}"');
    expect(run.out).not.toMatch(/^loyalty-sim import: wrote \/etc/m);
  });
});
