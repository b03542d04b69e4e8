/**
 * verify's reports and waivers, read as a CI would: the JSON against the issue's shape, the JUnit
 * file through an XML parser, the Markdown; a waiver that matches turns a failure into `waived`, one
 * past its date fails the run, one that matched nothing is named; a waiver file that does not read
 * is a usage error naming the file and the field. And docs/verify.md: its table of checks is the
 * code's, its options are `verify --help`'s, its CI job runs.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { XMLParser } from "fast-xml-parser";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { VERIFY_HELP } from "../../src/cli/verify.js";
import { CHECKS, verify, VerifyUsageError } from "../../src/verify/index.js";
import { BIN, ensureBuilt, ROOT, runCli, startCli, stopCli } from "../support/cli.js";
import { codeBlocks } from "../support/doc-snippets.js";
import { eachObject, startProxy, startStandIn } from "../support/verify.js";

const sim = await startStandIn();
const ENV = { LOYALTY_SIM_VERIFY_API_KEY: sim.apiKey, LOYALTY_SIM_VERIFY_API_SECRET: sim.apiSecret };
const page = readFileSync(join(ROOT, "docs/verify.md"), "utf8");
const dir = mkdtempSync(join(tmpdir(), "verify-reports-"));
const file = (name: string, text?: string) => {
  if (text !== undefined) writeFileSync(join(dir, name), text);
  return join(dir, name);
};

/** A customer of the stand-in whose ledger has no second page of 2: the walk of its activities is skipped. */
async function shortLedger(): Promise<string> {
  const headers = { "X-Api-Key": sim.apiKey, "X-Api-Secret": sim.apiSecret };
  const listed = (await (await fetch(`${sim.baseUrl}/customers?limit=50`, { headers })).json()) as { data: { id: string; state: string }[] };
  for (const { id } of listed.data) {
    const ledger = (await (await fetch(`${sim.baseUrl}/customers/${id}/activities?limit=2`, { headers })).json()) as { meta: { pagination: { hasNext: boolean } } };
    if (!ledger.meta.pagination.hasNext) return id;
  }
  throw new Error("no customer with a short ledger in this seed");
}

/** A command as a CI step runs it: bash, in `cwd`, with `env`. The simulator answers meanwhile: this process does not block. */
function shell(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn("bash", ["-c", command], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let [stdout, stderr] = ["", ""];
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  return new Promise((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

/** The issue's shape of the JSON report. */
const ReportShape = z.object({
  target: z.string(),
  startedAt: z.iso.datetime(),
  requests: z.int().min(1).max(150),
  summary: z.strictObject({ pass: z.int(), fail: z.int(), skip: z.int(), waived: z.int() }),
  checks: z.array(
    z.object({
      id: z.string().regex(/^(read|write)\.[a-z-]+(\.[a-z-]+)*$/),
      title: z.string().min(1),
      status: z.enum(["pass", "fail", "skip", "waived"]),
      basis: z.enum(["documented", "model"]),
      expected: z.string().min(1),
      observed: z.string().nullable(),
      request: z.string().regex(/^(GET|POST|PATCH) \/\S*$/).nullable(),
    }),
  ),
});

const FUTURE = "2999-12-31";

describe("a run with a failure, a skip, waivers and all three reports", () => {
  // Z timestamps and another code for an unknown customer: two drifts, one of them waived.
  const drifted = {
    json: (body: any) => {
      if (body?.error?.code === "CUSTOMER_NOT_FOUND") body.error.code = "NOT_FOUND";
      eachObject(body, (o) => {
        for (const [key, value] of Object.entries(o)) if (typeof value === "string" && value.endsWith("+00:00")) o[key] = value.replace("+00:00", "Z");
      });
      return body;
    },
  };
  const waivers = file(
    "waivers.yaml",
    `waivers:
  - { id: read.errors.customer-not-found, reason: production answers NOT_FOUND (LOY-7), until: ${FUTURE} }
  - { id: read.envelope.timestamps, path: "/customers**", reason: customer instants in Z, until: ${FUTURE} }
  - { id: read.errors.cursor, reason: matches nothing, until: ${FUTURE} }
`,
  );
  let run: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    ensureBuilt();
    const proxy = await startProxy(sim.url, drifted);
    const reports = ["json", "junit", "markdown"].flatMap((format) => ["--report", `${format}:${file(`run.${format}`)}`]);
    run = await runCli(["verify", "--target", proxy.url, "--customer", await shortLedger(), "--waivers", waivers, ...reports], ENV);
  });

  it("exits 1 and says in its text what failed, what was skipped and waived, and which waiver matched nothing", () => {
    expect([run.code, run.stderr]).toEqual([1, ""]);
    expect(run.stdout).toMatch(/^FAIL {3}read\.envelope\.timestamps +Instants are ISO 8601 with an explicit offset, never Z \[documented\]\n {7}expected: .*\n {7}observed: timestamp: "[-\dT:]+Z" \(and \d+ more like it\)\n {7}request: {2}GET \/rest_api\/v1\/shop\n {7}partly waived: read\.envelope\.timestamps \(\/customers\*\*\) until 2999-12-31: customer instants in Z$/m);
    expect(run.stdout).toMatch(/^waived read\.errors\.customer-not-found +.*\n {7}waived: read\.errors\.customer-not-found until 2999-12-31: production answers NOT_FOUND \(LOY-7\)$/m);
    expect(run.stdout).toMatch(/^skip {3}read\.activities\.pages +.*\n {7}skipped: the list has no second page of 2/m);
    expect(run.stdout).toContain("\nWaiver that matched nothing: read.errors.cursor until 2999-12-31: matches nothing\n");
    expect(run.stdout).toContain("\n31 checks: 28 pass, 1 fail, 1 skip, 1 waived; 26 requests (at most 150)\n");
  });

  it("writes the JSON report in the issue's shape", () => {
    const report = ReportShape.parse(JSON.parse(readFileSync(file("run.json"), "utf8")));
    expect(report.checks.map((c) => c.id)).toEqual(CHECKS.filter((c) => c.phase === "read").map((c) => c.id));
    expect(report.summary).toEqual({ pass: 28, fail: 1, skip: 1, waived: 1 });
    const byId = Object.fromEntries(report.checks.map((c) => [c.id, c]));
    expect(byId["read.envelope.timestamps"]).toMatchObject({ status: "fail", basis: "documented", request: "GET /rest_api/v1/shop" });
    // The waiver's path took the customers' instants: those left are the other answers'.
    expect(byId["read.envelope.timestamps"]!.observed).not.toContain("data[");
    expect(byId["read.errors.customer-not-found"]).toMatchObject({ status: "waived", observed: 'error.code: "NOT_FOUND", expected "CUSTOMER_NOT_FOUND"' });
    expect(byId["read.activities.pages"]).toMatchObject({ status: "skip", observed: null, request: null });
    expect(JSON.parse(readFileSync(file("run.json"), "utf8")).waivers.unmatched).toEqual([{ id: "read.errors.cursor", reason: "matches nothing", until: FUTURE }]);
  });

  it("writes a JUnit file an XML parser reads: one testsuite, a testcase per check, failures and skips with their text", () => {
    const xml = readFileSync(file("run.junit"), "utf8");
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", isArray: (name) => name === "testcase" }).parse(xml) as {
      testsuite: { tests: string; failures: string; skipped: string; errors: string; testcase: { name: string; failure?: { "#text": string; type: string }; skipped?: { message: string } }[] };
    };
    const suite = parsed.testsuite;
    expect([suite.tests, suite.failures, suite.skipped, suite.errors]).toEqual(["31", "1", "2", "0"]);
    expect(suite.testcase.map((t) => t.name.split(":")[0])).toEqual(CHECKS.filter((c) => c.phase === "read").map((c) => c.id));
    const failed = suite.testcase.filter((t) => t.failure);
    expect(failed.map((t) => [t.name, t.failure!.type])).toEqual([["read.envelope.timestamps: Instants are ISO 8601 with an explicit offset, never Z", "documented"]]);
    expect(failed[0]!.failure!["#text"]).toMatch(/^expected: .*\nobserved: timestamp: "[-\dT:]+Z".*\nrequest: GET \/rest_api\/v1\/shop\nbasis: documented$/);
    expect(suite.testcase.filter((t) => t.skipped).map((t) => [t.name.split(":")[0], t.skipped!.message.split(":")[0]])).toEqual([
      ["read.activities.pages", "the list has no second page of 2 (count 2; answered 200)"],
      ["read.errors.customer-not-found", "waived"],
    ]);
  });

  it("writes a Markdown report: the counts, a row per check, the details of those that did not pass", () => {
    const md = readFileSync(file("run.markdown"), "utf8");
    expect(md).toContain("**28 pass, 1 fail, 1 skip, 1 waived**, 26 requests.");
    expect(md.split("\n").filter((l) => /^\| (pass|\*\*FAIL\*\*|skip|waived) \| `/.test(l))).toHaveLength(31);
    expect(md).toContain("| **FAIL** | `read.envelope.timestamps` | documented |");
    expect(md).toContain("### `read.activities.pages` (skip, documented)");
    expect(md).toContain("- matched nothing: read.errors.cursor until 2999-12-31: matches nothing");
  });
});

describe("waivers", () => {
  it("one past its date fails a run where every check passed", async () => {
    const run = await runCli(["verify", "--target", sim.url, "--waivers", file("old.json", JSON.stringify([{ id: "read.headers.quota", reason: "was flaky", until: "2020-01-01" }]))], ENV);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("\nExpired waiver (the run fails): read.headers.quota until 2020-01-01: was flaky\n31 checks: 31 pass, 0 fail, 0 skip, 0 waived;");
  });

  it.each([
    ["waivers:\n  - { id: read.ids, reason: x, until: 2026-13-01 }\n", "waivers[0].until: is not a day of the calendar"],
    ["- { id: read.ids, until: 2027-01-01 }\n", "[0].reason: required"],
    ["- { id: read.ids, reason: x, until: 2027-01-01, owner: me }\n", "[0].owner: unknown key (not in the format)"],
    ["- { id: read.ids, path: customers, reason: x, until: 2027-01-01 }\n", "[0].path: must start with /"],
    ["{ waivers: [], more: 1 }\n", "must hold a list of waivers { id, path?, reason, until }, bare or as the only key waivers:"],
    ["[ { id: read.ids\n", "is neither YAML nor JSON"],
  ])("a file that does not read is a usage error naming the file and the field: %j", async (text, message) => {
    const path = file("bad.yaml", text);
    const error = await verify({ target: "self", plan: true, waivers: path }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VerifyUsageError);
    expect((error as Error).message).toContain(`--waivers ${path}: `);
    expect((error as Error).message).toContain(message);
  });

  it("the docs' example reads", async () => {
    const example = codeBlocks({ source: "docs/verify.md", markdown: page }).find((b) => b.lang === "yaml" && b.lines[0] === "waivers:")!;
    const result = await verify({ target: "self", plan: true, waivers: file("example.yaml", example.lines.join("\n")) });
    expect(result.kind).toBe("plan");
  });
});

describe("docs/verify.md", () => {
  const rows = (header: string) => {
    const lines = page.split("\n");
    const start = lines.indexOf(header);
    return lines.slice(start + 2).filter((_, i, all) => all.slice(0, i + 1).every((l) => l.startsWith("|"))).map((l) => l.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim()));
  };

  it("lists every check with its mode and basis, as the code declares them", () => {
    expect(rows("| id | mode | basis | checks |")).toEqual(CHECKS.map((c) => [`\`${c.id}\``, c.phase, c.basis, c.title]));
  });

  it("lists the options and variables verify --help lists", () => {
    const table = rows("| flag | environment variable | meaning |");
    const tokens = (text: string, pattern: RegExp) => [...new Set(text.match(pattern))].sort();
    expect(tokens(table.map((r) => r[0]).join(" "), /--[\w-]+/g)).toEqual(tokens(VERIFY_HELP, /--[\w-]+/g));
    expect(tokens(table.map((r) => r[1]).join(" "), /LOYALTY_SIM_\w+/g)).toEqual(tokens(VERIFY_HELP, /LOYALTY_SIM_\w+/g));
  });

  it("its CI job's run steps pass against `loyalty-sim --seed 1 --customers 50` on a port, and write the reports it names", async () => {
    ensureBuilt();
    const cli = await startCli(["--port", "0", "--seed", "1", "--customers", "50", "--quiet"]);
    onTestFinished(() => stopCli(cli));
    const job = codeBlocks({ source: "docs/verify.md", markdown: page }).find((b) => b.lang === "yaml" && b.lines[0]!.includes(".github/workflows"))!;
    const steps = (parseYaml(job.lines.join("\n")) as { jobs: { verify: { steps: { name?: string; run?: string; env?: Record<string, string> }[] } } }).jobs.verify.steps;
    const [check, summary] = steps.filter((s) => s.run !== undefined && s.run !== "npm ci");
    const cwd = mkdtempSync(join(tmpdir(), "verify-ci-"));
    writeFileSync(join(cwd, "loyalty-waivers.yaml"), `waivers:\n  - { id: read.customers.order, reason: not seen here, until: ${FUTURE} }\n`);
    const secrets: Record<string, string> = { "${{ secrets.LOYALTY_API_KEY }}": "sim_key", "${{ secrets.LOYALTY_API_SECRET }}": "sim_secret" };
    const env = { ...process.env, ...Object.fromEntries(Object.entries(check!.env!).map(([k, v]) => [k, secrets[v] ?? v])), LOYALTY_ORIGIN: cli.origin, GITHUB_STEP_SUMMARY: join(cwd, "summary.md") };
    const ran = await shell(check!.run!.replace(/^npx loyalty-sim /, `node ${BIN} `), cwd, env);
    expect([ran.code, ran.stderr]).toEqual([0, ""]);
    expect(ran.stdout).toContain("\nWaiver that matched nothing: read.customers.order");
    expect((await shell(summary!.run!, cwd, env)).code).toBe(0);
    expect(ReportShape.parse(JSON.parse(readFileSync(join(cwd, "reports/verify.json"), "utf8"))).summary).toEqual({ pass: 31, fail: 0, skip: 0, waived: 0 });
    expect(new XMLParser({ ignoreAttributes: false }).parse(readFileSync(join(cwd, "reports/verify.xml"), "utf8")).testsuite["@_tests"]).toBe("31");
    expect(readFileSync(join(cwd, "summary.md"), "utf8")).toContain(`# loyalty-sim verify: ${cli.origin}`);
  });
});
