/**
 * `loyalty-sim coverage`: a running simulator's coverage report, in a format, with an exit code a
 * CI step can use: 0 passed, 1 under `--min` or a duplicate write seen (`--allow-duplicates`:
 * only reported), 2 wrong usage, the simulator could not be reached, or the URL answered as no
 * loyalty-sim does (control-answers.ts).
 * @module
 */
import { writeFileSync } from "node:fs";
import { COVERAGE_FORMATS, coverageFailures, formatCoverage, textCoverage, type CoverageFormat } from "../coverage/formats.js";
import type { CoverageReport } from "../coverage/report.js";
import { CoverageReportSchema } from "../control/coverage.routes.js";
import { createControlClient } from "../simulator/control-client.js";
import { CONTROL_TIMEOUT_S, controlFetch, NotControlApi, parseTimeout, urlProblem, type ExpectedAnswer } from "./control-answers.js";
import { parseFlags } from "./did-you-mean.js";

export const COVERAGE_HELP = `loyalty-sim coverage: which outcomes of each operation an app's tests met, and its duplicate writes

Usage: loyalty-sim coverage --url URL [options]

Options:
  --url URL               the running simulator (http://127.0.0.1:4747)
  --shop ID|KEY|all       the shop, by id or API key, or all of them summed (default: the default shop)
  --format FORMAT         text, json, markdown or junit (default text)
  --min PERCENT           exit 1 when fewer cells than this were met
  --out FILE              write the report to FILE (stdout gets the one-line summary)
  --allow-duplicates      report duplicate writes without failing
  --timeout SECONDS       how long to wait for the simulator's answer (default ${CONTROL_TIMEOUT_S})
  --help                  show this help

Exit code: 0 passed, 1 under --min or a duplicate write was seen, 2 wrong usage, the simulator
could not be reached, or the URL is not a loyalty-sim control API. See docs/coverage.md.
`;

export interface CoverageIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

class UsageError extends Error {}

interface CoverageCliOptions {
  url: string;
  shop?: string;
  format: CoverageFormat;
  min?: number;
  out?: string;
  allowDuplicates: boolean;
  timeoutMs: number;
}

/** A report, its operations named as operation ids are (they go into XML and Markdown as they are). */
const REPORT: ExpectedAnswer = {
  schema: CoverageReportSchema,
  what: "a coverage report",
  problem: (body) => (Object.keys((body as CoverageReport).operations).every((name) => /^[A-Za-z][A-Za-z0-9]{0,63}$/.test(name)) ? undefined : "operations: a name that is not an operation id"),
};

const COVERAGE_OPTIONS = {
  url: { type: "string" },
  shop: { type: "string" },
  format: { type: "string" },
  min: { type: "string" },
  out: { type: "string" },
  "allow-duplicates": { type: "boolean" },
  timeout: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

function parseCoverageCli(argv: string[]): CoverageCliOptions | "help" {
  const { values } = parseFlags(argv, COVERAGE_OPTIONS, (message) => new UsageError(message));
  if (values.help) return "help";
  if (values.url === undefined) throw new UsageError("--url is required: the simulator's origin, e.g. --url http://127.0.0.1:4747");
  const badUrl = urlProblem(values.url);
  if (badUrl !== undefined) throw new UsageError(badUrl);
  const timeoutMs = parseTimeout(values.timeout);
  if (typeof timeoutMs === "string") throw new UsageError(timeoutMs);
  const format = values.format ?? "text";
  if (!(COVERAGE_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format: ${JSON.stringify(format)} is not one of ${COVERAGE_FORMATS.join(", ")}`);
  const min = values.min === undefined ? undefined : Number(values.min);
  if (min !== undefined && (values.min!.trim() === "" || !Number.isFinite(min) || min < 0 || min > 100)) throw new UsageError(`--min: ${JSON.stringify(values.min)} is not a percentage from 0 to 100`);
  return {
    url: values.url,
    ...(values.shop !== undefined && { shop: values.shop }),
    format: format as CoverageFormat,
    ...(min !== undefined && { min }),
    ...(values.out !== undefined && { out: values.out }),
    allowDuplicates: values["allow-duplicates"] ?? false,
    timeoutMs,
  };
}

/** Runs the command; resolves with its exit code. */
export async function runCoverageCli(argv: string[], io: CoverageIo): Promise<number> {
  let options;
  try {
    options = parseCoverageCli(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`loyalty-sim coverage: ${error.message}\nRun loyalty-sim coverage --help for the options.\n`);
    return 2;
  }
  if (options === "help") {
    io.out(COVERAGE_HELP);
    return 0;
  }
  let report: CoverageReport;
  try {
    report = await createControlClient(controlFetch(options.timeoutMs, REPORT), options.url).coverage(options.shop === undefined ? {} : { shop: options.shop });
  } catch (error) {
    if (error instanceof NotControlApi) {
      io.err(`loyalty-sim coverage: ${error.message}\n`);
      return 2;
    }
    const why = error instanceof Error ? error.message : String(error);
    io.err(`loyalty-sim coverage: could not read the coverage of ${options.url}: ${why}\n`);
    return 2;
  }
  const text = formatCoverage(report, options.format);
  if (options.out === undefined) io.out(text);
  else {
    writeFileSync(options.out, text);
    io.out(textCoverage(report).split("\n")[0]! + "\n");
  }
  const failures = coverageFailures(report, { ...(options.min !== undefined && { min: options.min }), allowDuplicates: options.allowDuplicates });
  for (const failure of failures) io.err(`loyalty-sim coverage: ${failure}\n`);
  return failures.length > 0 ? 1 : 0;
}
