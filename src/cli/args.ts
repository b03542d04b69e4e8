/**
 * Command-line parsing: flags over environment variables over defaults, validated by the one
 * config schema.
 * @module
 */
import { parseArgs } from "node:util";
import { DEFAULT_LIMITS, envName, optionsFromEnv, parseConfig, type SimulatorConfig } from "../config.js";
import { withSuggestion } from "./did-you-mean.js";

export const HELP = `loyalty-sim: a stateful simulator of the loyalty (stamp-card) REST API

Usage: loyalty-sim [options]
       loyalty-sim import [options]   copy your shop from production into a fixture: loyalty-sim import --help
       loyalty-sim verify [options]   check production (or any target) against the simulator: loyalty-sim verify --help
       loyalty-sim coverage [options] what a running simulator's clients met, by operation and outcome: loyalty-sim coverage --help
       loyalty-sim scenarios add [options] FILE...   load scenario files into a running simulator: loyalty-sim scenarios --help

Options (each also as an environment variable):
  --port N            port to listen on (default 4747)                 ${envName("port")}
  --host HOST         address to bind (default 127.0.0.1)              ${envName("host")}
  --seed N            seed of the generated customers (default 1)      ${envName("seed")}
  --customers N       number of generated customers (default 50)       ${envName("customers")}
  --fixtures FILE     program fixture (default: the bundled one)       ${envName("fixtures")}
  --api-key KEY       API key of the default shop (default sim_key)    ${envName("apiKey")}
  --api-secret SECRET API secret of the default shop (default sim_secret) ${envName("apiSecret")}
  --rate-limit N|off  requests per hour per shop (default 1000)        ${envName("rateLimit")}
  --scenario FILE     scenario file to load, JSON or YAML (repeatable)  ${envName("scenario")} (comma-separated)
  --latency MS|MIN-MAX  delay added to every API request               ${envName("latency")}
  --journal-size N    request journal entries kept (default 1000)      ${envName("journalSize")}
  --data FILE         keep every shop's state in this JSON file         ${envName("data")}
  --flush-ms N        most ms between a change and its write (1000)     ${envName("flushMs")}
  --log-level LEVEL   debug|info|warn|error|silent (default info)       ${envName("logLevel")}
  --log-format FMT    pretty|json (default pretty)                      ${envName("logFormat")}
  --quiet             no request log (same as --log-level silent)       ${envName("quiet")}
  --no-cors           do not answer CORS preflights (on by default)     ${envName("cors")}=false
  --no-inspector      do not serve the inspector pages at /__sim/ui      ${envName("inspector")}=false
  --coverage-report FILE  at exit, write every shop's coverage report     ${envName("coverageReport")}
                      (.json, .md, .xml for JUnit, else text)
  --exit-with-parent  exit when the program that started it exits or       ${envName("exitWithParent")}
                      closes stdin (default: when stdin is a pipe;
                      --no-exit-with-parent: never)
  --help              show this help
  --version           show the version

Limits of what the control API makes (over one, a call is refused with 422 naming it):
  --max-shops N       shops, the default one included (${DEFAULT_LIMITS.maxShops})           ${envName("maxShops")}
  --max-customers N   customers over all shops (${DEFAULT_LIMITS.maxCustomers})                ${envName("maxCustomers")}
  --max-scenarios N   scenarios one shop adds (${DEFAULT_LIMITS.maxScenarios})                    ${envName("maxScenarios")}
  --max-scenario-rules N  rules of one added scenario (${DEFAULT_LIMITS.maxScenarioRules})             ${envName("maxScenarioRules")}
  --max-scenario-bytes N  bytes all scenarios hold (${DEFAULT_LIMITS.maxScenarioBytes})           ${envName("maxScenarioBytes")}
`;

export type CliCommand =
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "run"; config: SimulatorConfig }
  | { kind: "verify"; argv: string[] }
  | { kind: "import"; argv: string[] }
  | { kind: "coverage"; argv: string[] }
  | { kind: "scenarios"; argv: string[] };

export function parseCli(argv: string[], env: Record<string, string | undefined>): CliCommand {
  // Commands of their own, with their own flags (src/cli/verify.ts, import.ts, coverage.ts, scenarios.ts).
  if (argv[0] === "verify") return { kind: "verify", argv: argv.slice(1) };
  if (argv[0] === "scenarios") return { kind: "scenarios", argv: argv.slice(1) };
  if (argv[0] === "import") return { kind: "import", argv: argv.slice(1) };
  if (argv[0] === "coverage") return { kind: "coverage", argv: argv.slice(1) };
  const options = {
    port: { type: "string" },
    host: { type: "string" },
    seed: { type: "string" },
    customers: { type: "string" },
    fixtures: { type: "string" },
    "api-key": { type: "string" },
    "api-secret": { type: "string" },
    "rate-limit": { type: "string" },
    scenario: { type: "string", multiple: true },
    latency: { type: "string" },
    "journal-size": { type: "string" },
    data: { type: "string" },
    "flush-ms": { type: "string" },
    "coverage-report": { type: "string" },
    "log-level": { type: "string" },
    "log-format": { type: "string" },
    quiet: { type: "boolean" },
    cors: { type: "boolean" },
    "no-cors": { type: "boolean" },
    inspector: { type: "boolean" },
    "no-inspector": { type: "boolean" },
    "exit-with-parent": { type: "boolean" },
    "no-exit-with-parent": { type: "boolean" },
    "max-shops": { type: "string" },
    "max-customers": { type: "string" },
    "max-scenarios": { type: "string" },
    "max-scenario-rules": { type: "string" },
    "max-scenario-bytes": { type: "string" },
    help: { type: "boolean", short: "h" },
    version: { type: "boolean", short: "v" },
  } as const;
  let values;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options }));
  } catch (error) {
    throw withSuggestion(error, Object.keys(options));
  }
  if (values.help) return { kind: "help" };
  const { "no-cors": noCors, quiet, cors, inspector, "no-inspector": noInspector, "exit-with-parent": exitWithParent, "no-exit-with-parent": noExitWithParent, ...rest } = values;
  if (values.version) return { kind: "version" };
  const flags: Record<string, string | string[] | boolean> = {};
  if (quiet) flags.quiet = true;
  if (cors || noCors) flags.cors = !noCors;
  if (inspector || noInspector) flags.inspector = !noInspector;
  if (exitWithParent || noExitWithParent) flags.exitWithParent = !noExitWithParent;
  for (const [key, value] of Object.entries(rest)) {
    if (typeof value === "string" || Array.isArray(value)) flags[key.replace(/-([a-z])/g, (_, ch: string) => ch.toUpperCase())] = value;
  }
  return { kind: "run", config: parseConfig({ ...optionsFromEnv(env), ...flags }) };
}
