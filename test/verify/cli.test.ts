/**
 * `loyalty-sim verify` as a user runs it (the built command) and as a library call: `--target self`
 * passes every check, read and write; `--plan` lists the requests and sends none; a bad usage or an
 * unreachable target exits 2; no credential reaches stdout, stderr or a report.
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { VERIFY_HELP } from "../../src/cli/verify.js";
import { verify } from "../../src/verify/index.js";
import { createSelfSimulator } from "../../src/verify/self.js";
import { ensureBuilt, ROOT, runCli } from "../support/cli.js";
import { startProxy, startStandIn, writableCustomers } from "../support/verify.js";

const API_KEY = "verify-key-7f3a91";
const API_SECRET = "verify-secret-c2d84e";
const sim = await startStandIn({ apiKey: API_KEY, apiSecret: API_SECRET });
const [portCustomer] = writableCustomers(sim.engine.defaultShop().store, 1);
/** The customer docs/verify.md gives for `--target self`: one every write check can run with. */
const selfCustomer = /--target self --allow-writes --customer (\d+)/.exec(readFileSync(join(ROOT, "docs/verify.md"), "utf8"))![1]!;
/** A removed customer of the stand-in: writes are refused for them. */
const removed = sim.engine.defaultShop().store.data.customers.find((c) => c.excluded)!.id;
const CREDENTIALS = { LOYALTY_SIM_VERIFY_API_KEY: API_KEY, LOYALTY_SIM_VERIFY_API_SECRET: API_SECRET };

beforeAll(() => ensureBuilt());

describe("verify --target self", () => {
  it("has the customer its docs name among those every write check can run with", () => {
    expect(writableCustomers(createSelfSimulator().engine.defaultShop().store, 3)).toContain(selfCustomer);
  });

  it("passes every read check, and every write check with --allow-writes (the command as a user runs it)", async () => {
    const read = await runCli(["verify", "--target", "self"], {});
    expect([read.code, read.stderr]).toEqual([0, ""]);
    expect(read.stdout).toContain("\n31 checks: 31 pass, 0 fail, 0 skip, 0 waived; 28 requests (at most 150)\n");
    const write = await runCli(["verify", "--target", "self", "--allow-writes", "--customer", selfCustomer], {});
    expect([write.code, write.stderr]).toEqual([0, ""]);
    expect(write.stdout).toContain("\n51 checks: 51 pass, 0 fail, 0 skip, 0 waived; 62 requests (at most 150)\n");
    expect(write.stdout).not.toMatch(/^(FAIL|skip)/m);
  });

  it("passes every check as a library call, within the budget of 150 requests", async () => {
    for (const [options, checks, requests] of [[{}, 31, 28], [{ allowWrites: true, customer: selfCustomer }, 51, 62]] as const) {
      const result = await verify({ target: "self", ...options });
      if (result.kind !== "report") throw new Error("expected a report");
      expect(result.report.summary).toEqual({ pass: checks, fail: 0, skip: 0, waived: 0 });
      expect(result.report.requests).toBe(requests);
      expect(result.report.requests).toBeLessThanOrEqual(150);
    }
  });
});

describe("verify --plan", () => {
  it("prints one METHOD /path line per request it would send, and sends none", async () => {
    const proxy = await startProxy(sim.url);
    const read = await runCli(["verify", "--target", proxy.url, "--plan"]);
    const write = await runCli(["verify", "--target", proxy.url, "--plan", "--allow-writes", "--customer", portCustomer!]);
    for (const run of [read, write]) {
      expect([run.code, run.stderr]).toEqual([0, ""]);
      expect(run.stdout.split("\n").filter((line) => !/^(GET|POST|PATCH) \/\S+$/.test(line))).toEqual([""]);
    }
    const lines = (text: string) => text.trim().split("\n");
    // Every step a run may send: the write run's two that go only when an over-priced redemption gets through are listed too.
    expect([lines(read.stdout).length, lines(write.stdout).length]).toEqual([28, 64]);
    expect(lines(read.stdout).slice(0, 3)).toEqual(["GET /rest_api/v1/shop", "GET /rest_api/v1/tiers", "GET /rest_api/v1/tiers/{tier}"]);
    expect(lines(write.stdout)[0]).toBe(`GET /rest_api/v1/customers/${portCustomer}`);
    expect(lines(write.stdout)).toContain(`POST /rest_api/v1/customers/${portCustomer}/reward-codes/{redeemed.codeId}/void`);
    expect(lines(read.stdout).every((line) => line.startsWith("GET ") || line === "POST /graphql")).toBe(true);
    expect(proxy.counts.requests).toBe(0);
  });
});

describe("verify --help", () => {
  it("prints the options, exit code 0", async () => {
    const run = await runCli(["verify", "--help"]);
    expect([run.code, run.stdout, run.stderr]).toEqual([0, VERIFY_HELP, ""]);
  });
});

describe("verify's exit code 2", () => {
  const closedPort = async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    return port;
  };

  it.each([
    [[], "--target: is required"],
    [["--target", "ftp://example.com"], '--target: "ftp://example.com" is not a target'],
    [["--target", "https://stamp.appydesign.io/other"], "is not a target"],
    [["--target", "self", "--allow-writes"], "--customer: is required with --allow-writes"],
    [["--target", "self", "--report", "xml:out.xml"], '--report: "xml:out.xml": the format must be json, junit, markdown'],
    [["--target", "self", "--report", "out.json"], '--report: "out.json" is not FORMAT:FILE'],
    [["--target", "self", "--tagret", "x"], "Unknown option '--tagret'"],
    [["--target", "https://stamp.appydesign.io"], "--api-key: is required for a target other than self (or set LOYALTY_SIM_VERIFY_API_KEY)"],
  ])("a usage error: %j", async (args, message) => {
    const run = await runCli(["verify", ...args]);
    expect([run.code, run.stdout]).toEqual([2, ""]);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain("Run loyalty-sim verify --help for the options.");
  });

  it("a target that cannot be reached, or refuses the credentials", async () => {
    const port = await closedPort();
    const unreachable = await runCli(["verify", "--target", `http://127.0.0.1:${port}`], CREDENTIALS);
    expect([unreachable.code, unreachable.stdout, unreachable.stderr]).toEqual([2, "", `loyalty-sim verify: could not reach http://127.0.0.1:${port} (GET /rest_api/v1/shop): ECONNREFUSED\n`]);
    const refused = await runCli(["verify", "--target", sim.url], { ...CREDENTIALS, LOYALTY_SIM_VERIFY_API_SECRET: "not-the-secret" });
    expect([refused.code, refused.stderr]).toEqual([2, "loyalty-sim verify: the target refused the credentials: GET /rest_api/v1/shop answered 401 UNAUTHORIZED; check --api-key and --api-secret (and that API access is enabled for the shop)\n"]);
  });

  it("a write run for a customer that is not active: refused after one read, nothing written", async () => {
    const proxy = await startProxy(sim.url);
    const run = await runCli(["verify", "--target", proxy.url, "--allow-writes", "--customer", removed], CREDENTIALS);
    expect([run.code, run.stderr]).toEqual([2, `loyalty-sim verify: customer ${removed} is removed: writes need an active customer; nothing was written\n`]);
    expect([proxy.counts.requests, proxy.counts.writes]).toEqual([1, 0]);
  });
});

describe("verify's output", () => {
  it("holds no credential: stdout, stderr and every report of a write run, and of a run that failed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "verify-secrets-"));
    const reports = ["json", "junit", "markdown"].flatMap((format) => ["--report", `${format}:${join(dir, `report.${format}`)}`]);
    const write = await runCli(["verify", "--target", sim.url, "--allow-writes", "--customer", portCustomer!, ...reports], CREDENTIALS);
    expect(write.code).toBe(0);
    const plan = await runCli(["verify", "--target", sim.url, "--plan", "--api-key", API_KEY, "--api-secret", API_SECRET]);
    const refused = await runCli(["verify", "--target", sim.url, "--api-key", API_KEY, "--api-secret", `${API_SECRET}x`]);
    expect(readdirSync(dir).sort()).toEqual(["report.json", "report.junit", "report.markdown"]);
    const outputs = [write, plan, refused].flatMap((r) => [r.stdout, r.stderr]).concat(readdirSync(dir).map((f) => readFileSync(join(dir, f), "utf8")));
    expect(outputs.filter((text) => text.includes(API_SECRET) || text.includes(API_KEY))).toEqual([]);
    expect(outputs.join("").length).toBeGreaterThan(10_000);
  });
});
