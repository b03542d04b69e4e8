/**
 * `loyalty-sim scenarios add --url URL FILE...`: scenario files loaded into a simulator that is
 * already running (a CI service container, one a test started), through its control API. Every
 * file is read and checked first, as `--scenario` checks it, so a bad file sends nothing; then each
 * is added in order. Exit code: 0 all added, 1 the simulator refused one or could not be reached
 * (those before it stay added), 2 wrong usage, a bad file, or a URL that answered as no
 * loyalty-sim does (control-answers.ts).
 * @module
 */
import { loadScenarioFile, ScenarioError } from "../scenarios/load.js";
import type { Scenario } from "../scenarios/schema.js";
import { ScenarioSummarySchema } from "../control/control.schemas.js";
import { createControlClient, SimulatorError } from "../simulator/control-client.js";
import { CONTROL_TIMEOUT_S, controlFetch, NotControlApi, parseTimeout, urlProblem } from "./control-answers.js";
import { parseFlags } from "./did-you-mean.js";

/** The variable the GitHub Action exports, so a job's later steps need no --url. */
const URL_VAR = "LOYALTY_SIM_URL";

export const SCENARIOS_HELP = `loyalty-sim scenarios add: load scenario files into a running simulator

Usage: loyalty-sim scenarios add [--url URL] [--api-key KEY] [--timeout SECONDS] FILE...

Options:
  --url URL          the simulator's origin, such as http://127.0.0.1:4747   ${URL_VAR}
  --api-key KEY      the shop to add them to (default: the default shop)
  --timeout SECONDS  how long to wait for each answer (default ${CONTROL_TIMEOUT_S})
  --help             show this help

Each FILE is a scenario, JSON or YAML (.yaml, .yml), as --scenario takes it. Exit code: 0 all
added, 1 the simulator refused one (its message is shown) or could not be reached, 2 wrong usage,
a file that is not a valid scenario (then nothing is sent), or a URL that is not a loyalty-sim
control API. See docs/docker-and-ci.md.
`;

export interface ScenariosIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

class UsageError extends Error {}

const ADD_OPTIONS = { url: { type: "string" }, "api-key": { type: "string" }, timeout: { type: "string" }, help: { type: "boolean", short: "h" } } as const;

function parse(argv: string[], env: Record<string, string | undefined>) {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === "--help" || sub === "-h") return "help" as const;
  if (sub !== "add") throw new UsageError(`unknown command ${JSON.stringify(sub)}: the one command is "scenarios add"`);
  const { values, positionals: files } = parseFlags(rest, ADD_OPTIONS, (message) => new UsageError(message), true);
  if (values.help) return "help" as const;
  const url = values.url ?? env[URL_VAR];
  if (!url) throw new UsageError(`--url is missing: the simulator's origin, such as http://127.0.0.1:4747 (or set ${URL_VAR})`);
  const badUrl = urlProblem(url);
  if (badUrl !== undefined) throw new UsageError(badUrl);
  const timeoutMs = parseTimeout(values.timeout);
  if (typeof timeoutMs === "string") throw new UsageError(timeoutMs);
  if (files.length === 0) throw new UsageError("no scenario file given: loyalty-sim scenarios add --url URL FILE...");
  return { url, apiKey: values["api-key"], timeoutMs, files };
}

/** Runs the command; resolves with its exit code. */
export async function runScenariosCli(argv: string[], env: Record<string, string | undefined>, io: ScenariosIo): Promise<number> {
  let options;
  const loaded: [string, Scenario][] = [];
  try {
    options = parse(argv, env);
    if (options === "help") {
      io.out(SCENARIOS_HELP);
      return 0;
    }
    for (const file of options.files) loaded.push([file, loadScenarioFile(file)]);
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof ScenarioError)) throw error;
    const hint = error instanceof UsageError ? "\nRun loyalty-sim scenarios --help for the options." : "\nNothing was sent.";
    io.err(`loyalty-sim scenarios: ${error.message}${hint}\n`);
    return 2;
  }
  const answers = controlFetch(options.timeoutMs, { schema: ScenarioSummarySchema, what: "a scenario" });
  const control = createControlClient(answers, options.url, options.apiKey === undefined ? {} : { apiKey: options.apiKey });
  for (const [index, [file, scenario]] of loaded.entries()) {
    try {
      const added = await control.addScenario(scenario);
      io.out(`added scenario ${added.name} (${added.rules.length} ${added.rules.length === 1 ? "rule" : "rules"}) from ${file}\n`);
    } catch (error) {
      if (!(error instanceof SimulatorError || error instanceof NotControlApi)) throw error;
      const before = index === 0 ? "" : ` (the ${index} before it stay added)`;
      // Sent, and no answer: the simulator may have added it all the same.
      const what = error instanceof SimulatorError && error.code === "TIMEOUT" ? "may or may not have been added" : "was not added";
      io.err(`loyalty-sim scenarios: ${file} ${what}${before}: ${error.message}\n`);
      return error instanceof NotControlApi ? 2 : 1;
    }
  }
  return 0;
}
