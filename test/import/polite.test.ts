/**
 * import is polite to production: at most 10 requests a second, paced under the shop's hourly
 * quota from its X-RateLimit-* headers so it never takes the source into 429 itself, a source at
 * its quota waited out for its Retry-After (not failed), `--plan` sending nothing. The stand-in's
 * clock is moved by the importer's waits: an hour's pace costs no time.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runImportCli } from "../../src/cli/import.js";
import { runImport } from "../../src/import/index.js";
import { dir, startSource } from "../support/import.js";

const HOUR_MS = 3_600_000;
let outs = 0;
const outFile = () => join(dir, `polite-${outs++}.json`);

describe("issue 30: import's pace", () => {
  it("reads a source with 1000 requests an hour left at 10 a second, never a 429", async () => {
    const source = startSource();
    const result = await runImport({ ...source.credentials, out: outFile(), customers: "all", salt: "s" }, source.deps);
    expect(result).toMatchObject({ kind: "written", requests: 54, waitedMs: 0 });
    expect(source.statuses).toEqual(Array(54).fill(200));
    // 53 gaps of 100 ms (the first request waits for nothing).
    expect(source.clock.sleeps).toEqual(Array(53).fill(100));
  });

  it("spreads what is left of a small quota over the hour: 54 requests against 30 an hour, never a 429", async () => {
    const source = startSource({ change: (file) => (file.access.rateLimit = 30) });
    const started = source.clock.now;
    const lines: string[] = [];
    const result = await runImport({ ...source.credentials, out: outFile(), customers: "all", salt: "s" }, { ...source.deps, progress: (line) => lines.push(line) });
    expect(result).toMatchObject({ kind: "written", requests: 54 });
    expect(source.statuses).toEqual(Array(54).fill(200));
    // It took more than an hour: the quota gave 30 of the 54 in the first.
    expect(source.clock.now - started).toBeGreaterThan(HOUR_MS);
    expect(lines.some((line) => /^waiting \d+\.\d s: paced under the shop's quota \(\d+ of 30 left this hour, \d+ requests to go\)$/.test(line))).toBe(true);
  });

  it("waits out a source already at its quota for its Retry-After, then reads on", async () => {
    const source = startSource({ change: (file) => (file.access.rateLimit = 30) });
    // Someone else spent the hour's quota 10 minutes ago.
    for (let i = 0; i < 30; i++) await source.get("/shop");
    source.clock.now += 10 * 60_000;
    const lines: string[] = [];
    const out = outFile();
    const result = await runImport({ ...source.credentials, out, customers: "3", salt: "s" }, { ...source.deps, progress: (line) => lines.push(line) });
    expect(result).toMatchObject({ kind: "written", customers: 3 });
    expect(existsSync(out)).toBe(true);
    expect(source.statuses[0]).toBe(429);
    expect(source.statuses.slice(1)).toEqual(Array(source.statuses.length - 1).fill(200));
    expect(source.clock.sleeps[0]).toBe(50 * 60_000);
    expect(lines[0]).toBe("waiting 3000.0 s: the source is at its quota (429, Retry-After 3000 s)");
  });
});

describe("issue 30: import --plan", () => {
  it("prints the requests it would send and their count, and sends none", async () => {
    const source = startSource();
    const said = { out: "", err: "" };
    const io = { out: (t: string) => (said.out += t), err: (t: string) => (said.err += t), progress: () => {} };
    const out = outFile();
    expect(await runImportCli(["--from", source.credentials.from, "--out", out, "--customers", "1500", "--plan"], {}, io, source.deps)).toBe(0);
    expect(source.statuses).toEqual([]);
    expect(existsSync(out)).toBe(false);
    expect(said.err).toBe("");
    expect(said.out).toBe(
      [
        "GET /rest_api/v1/shop",
        "GET /rest_api/v1/tiers",
        "GET /rest_api/v1/earn-rules",
        "GET /rest_api/v1/rewards",
        "GET /rest_api/v1/beacons",
        "GET /rest_api/v1/customers?limit=1000&hasCount=true",
        "GET /rest_api/v1/customers?limit=1000&after={nextCursor}   (each further page of 1000)",
        "GET /rest_api/v1/customers/{id}/activities?limit=100&hasCount=true   (each of up to 1500 customers)",
        "GET /rest_api/v1/customers/{id}/reward-codes   (each of up to 1500 customers)",
        "GET /rest_api/v1/customers/{id}, its activities and codes   (each customer one of them was merged into, when not among them)",
        "at most 3007 requests (3 more for each customer merged into one not read)",
        "",
      ].join("\n"),
    );
  });
});
