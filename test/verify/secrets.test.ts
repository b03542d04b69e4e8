/**
 * No credential in any output of verify, whatever the target echoes back and however a format
 * escapes it: a key and a secret holding `"`, `\`, `&`, `<`, `'` and a non-ASCII letter, echoed by
 * a target in error messages, field values, unknown keys, headers and an email verify sends back.
 * Each output is searched for the secret as it is and in each escaped form, and read back (JSON
 * parsed, XML parsed) and searched again. A credential a header cannot carry is a usage error that
 * does not echo it.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { XMLParser } from "fast-xml-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, runCli } from "../support/cli.js";
import { startHostileProxy, withJson } from "../support/hostile.js";
import { startStandIn } from "../support/verify.js";
import { escapeXml } from "../../src/coverage/formats.js";

const API_KEY = `key"\\&<'é-7f3a91`;
const API_SECRET = `secret"\\&<'é-c2d84e`;
const sim = await startStandIn({ apiKey: API_KEY, apiSecret: API_SECRET });
const ENV = { LOYALTY_SIM_VERIFY_API_KEY: API_KEY, LOYALTY_SIM_VERIFY_API_SECRET: API_SECRET };

beforeAll(() => ensureBuilt());

/** Every way an output could hold a credential. */
const forms = (secret: string) => [secret, JSON.stringify(secret).slice(1, -1), escapeXml(secret), encodeURIComponent(secret), secret.replace(/\|/g, "\\|")];

/** Every string in a parsed value. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (typeof value === "object" && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      out.push(key);
      strings(child, out);
    }
  }
  return out;
}

/** A target that echoes the credentials wherever an answer can hold text. */
const echoing = await startHostileProxy(sim.url, (answer) => {
  if (!answer.headers["content-type"]?.includes("json")) return undefined;
  const reply = withJson(answer, (body) => {
    if (body.error) body.error.message = `no such thing for ${API_KEY} / ${API_SECRET}`;
    if (Array.isArray(body.data) && body.data[0] && typeof body.data[0] === "object") {
      body.data[0][API_SECRET] = API_KEY;
      if ("email" in body.data[0]) body.data[0].email = API_SECRET;
    }
    if (body.data?.shop) body.data.shop.name = API_SECRET;
    if (body.data && !Array.isArray(body.data) && "name" in body.data) body.data.name = API_SECRET;
    return body;
  });
  if (reply.kind === "answer") reply.headers["x-ratelimit-limit"] = API_SECRET;
  return reply;
});

describe("verify's output with credentials a format escapes", () => {
  it("holds neither credential in any form: stdout, stderr, and the JSON, JUnit and Markdown reports, read back too", async () => {
    const dir = mkdtempSync(join(tmpdir(), "verify-escaped-secrets-"));
    const files = { json: join(dir, "r.json"), junit: join(dir, "r.xml"), markdown: join(dir, "r.md") };
    const reports = Object.entries(files).flatMap(([format, file]) => ["--report", `${format}:${file}`]);
    const run = await runCli(["verify", "--target", echoing.url, ...reports], ENV);
    expect(run.code).toBe(1);
    const texts: Record<string, string> = { stdout: run.stdout, stderr: run.stderr, json: readFileSync(files.json, "utf8"), junit: readFileSync(files.junit, "utf8"), markdown: readFileSync(files.markdown, "utf8") };
    const read = [...strings(JSON.parse(texts.json!)), ...strings(new XMLParser({ ignoreAttributes: false }).parse(texts.junit!))];
    const found = [...Object.entries(texts), ["read back", read.join("\n")]].flatMap(([where, text]) =>
      [API_KEY, API_SECRET].flatMap((secret) => forms(secret).filter((form) => text!.includes(form)).map((form) => `${where}: ${form}`)),
    );
    expect(found).toEqual([]);
    // The target did echo them, and the echo was caught: the outputs say where.
    expect(texts.stdout).toContain("[redacted]");
    expect(texts.json).toContain("[redacted]");
  });

  it.each([
    ["a newline", "secret-with\nnewline"],
    ["a character beyond Latin-1", "secret-€-euro"],
    ["a leading space", " secret-spaced"],
  ])("a secret holding %s is a usage error that does not echo it (exit code 2)", async (_what, secret) => {
    const run = await runCli(["verify", "--target", sim.url], { ...ENV, LOYALTY_SIM_VERIFY_API_SECRET: secret });
    expect([run.code, run.stdout]).toEqual([2, ""]);
    expect(run.stderr).toBe(
      "loyalty-sim verify: --api-secret: holds a character an HTTP header cannot carry (a control character such as a newline, one beyond Latin-1, or a space at either end): check it was copied whole\nRun loyalty-sim verify --help for the options.\n",
    );
  });
});
