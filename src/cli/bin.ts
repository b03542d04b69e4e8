#!/usr/bin/env node
/**
 * The `loyalty-sim` command: the only place that reads process.argv, process.env and signals.
 * @module
 */
import { setFlagsFromString } from "node:v8";
import { VERSION } from "../version.js";
import { HELP, parseCli } from "./args.js";
import { createLogger } from "./logger.js";
import { stdinIsPipe, watchParent } from "./parent-watch.js";
import type { RequestLogLine } from "../http/journal/recorder.js";

/** Problems of the user's input (bad option, fixture, scenario or data file): exit code 2, no stack. */
const USAGE_ERRORS = new Set(["ConfigError", "FixtureError", "ScenarioError", "DataFileError"]);

function fail(error: unknown): never {
  if ((error instanceof Error && USAGE_ERRORS.has(error.name)) || (error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS"))) {
    console.error(`loyalty-sim: ${(error as Error).message}\nRun loyalty-sim --help for the options.`);
    process.exit(2);
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL") {
    console.error(`loyalty-sim: cannot listen: ${(error as Error).message}`);
    process.exit(1);
  }
  throw error;
}

// Only the CLI sets V8 flags: the library never changes its host's. A small heap growing factor
// keeps a large shop near its live size, for a few percent of throughput.
setFlagsFromString("--heap-growing-percent=15");
// Without pretenuring, per-request garbage dies young instead of being made straight in the old
// generation, where it would have the major collector mark the whole shop.
setFlagsFromString("--no-allocation-site-pretenuring");

async function main(): Promise<void> {
  const command = parseCli(process.argv.slice(2), process.env);
  if (command.kind === "help") return void process.stdout.write(HELP);
  if (command.kind === "version") return void console.log(VERSION);
  if (command.kind === "verify") {
    const { runVerifyCli } = await import("./verify.js");
    process.exitCode = await runVerifyCli(command.argv, process.env, { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) });
    return;
  }
  if (command.kind === "import") {
    const { runImportCli } = await import("./import.js");
    const tty = process.stderr.isTTY;
    // Off a terminal (a CI log) a line every few seconds at most, but every wait: each is a line kept.
    let lastLine = 0;
    const progress = (line: string) => {
      if (tty) return void process.stderr.write(`\r\x1b[K${line}`);
      if (Date.now() - lastLine < 5000 && !line.startsWith("waiting")) return;
      lastLine = Date.now();
      process.stderr.write(`${line}\n`);
    };
    // On a terminal the progress line is rewritten in place, and cleared before anything else is said.
    const clear = () => tty && process.stderr.write("\r\x1b[K");
    const out = (text: string) => (clear(), process.stdout.write(text));
    const err = (text: string) => (clear(), process.stderr.write(text));
    process.exitCode = await runImportCli(command.argv, process.env, { out, err, progress });
    return;
  }
  if (command.kind === "coverage") {
    const { runCoverageCli } = await import("./coverage.js");
    process.exitCode = await runCoverageCli(command.argv, { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) });
    return;
  }
  if (command.kind === "scenarios") {
    const { runScenariosCli } = await import("./scenarios.js");
    process.exitCode = await runScenariosCli(command.argv, process.env, { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) });
    return;
  }

  const { config } = command;
  // Loaded only now, so --help and --version answer without loading the whole simulator.
  const { listen } = await import("../simulator/server.js");
  const log = createLogger(config);
  const sim = await listen(config, {
    onBug: (error) => log.error("loyalty-sim: internal error:", error),
    // A silent log needs no request lines: none is built.
    ...(log.logsRequests && { onRequest: (line: RequestLogLine) => log.request(line) }),
    dataFileHooks: {
      onFlush: (info) => log.debug("data file written", { ...info }),
      onFailing: (f) =>
        log.alert(`loyalty-sim: could not write the data file ${f.path}: ${f.error} (failing since ${f.since}; retried every ${config.flushMs} ms; GET /__sim/health answers 503 until a write succeeds)`),
      onRecovered: (f) => log.alert(`loyalty-sim: the data file ${f.path} is written again (it failed from ${f.since})`),
    },
  });
  const { engine } = sim;
  const restored = sim.built.restored ? `restored from ${config.data}` : `${engine.defaultShop().store.customerCount} customers`;
  // One write, ending with the Seed line: whoever waits for the banner can stop reading there.
  const banner = [
    `loyalty-sim ${VERSION} listening on ${sim.url}`,
    `  API:         ${sim.baseUrl}`,
    `  GraphQL:     ${sim.graphqlUrl} (GraphiQL in a browser)`,
    `  Docs:        ${sim.url}/doc`,
    ...(config.inspector ? [`  Inspector:   ${sim.url}/__sim/ui`] : []),
    `  OpenAPI:     ${sim.url}/openapi.json`,
    ...(config.data ? [`  Data file:   ${config.data} (flushed at most every ${config.flushMs} ms)`] : []),
    ...(config.scenario.length > 0 ? [`  Scenarios:   ${config.scenario.join(", ")}`] : []),
    `  Credentials: X-Api-Key: ${sim.apiKey}  X-Api-Secret: ${sim.apiSecret}`,
    `  Seed:        ${config.seed} (${restored})`,
  ];

  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`loyalty-sim: ${why}, shutting down`);
    // Written before the server closes, as its shops stand: the report the clients left.
    const { coverageReport } = config;
    const reported = coverageReport ? import("./coverage-report.js").then((m) => m.writeCoverageReport(sim, coverageReport)) : Promise.resolve();
    reported.then(() => sim.close()).then(
      () => process.exit(0),
      (error: unknown) => {
        // Exit non-zero: whatever changed since the last written state is lost, and a supervisor should know.
        console.error(`loyalty-sim: could not write the data file ${config.data} at exit; changes since its last write are lost: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
  // console.log ignores a failed write: the reader of our output may be gone with the parent.
  if (config.exitWithParent ?? stdinIsPipe()) watchParent(stop);
  // Last: whoever waits for the banner may signal the process at once.
  process.stdout.write(`${banner.join("\n")}\n`);
}

main().catch(fail);
