/**
 * Command-line parsing: flags over environment variables over defaults, validated by the one
 * config schema.
 * @module
 */
import { parseArgs } from "node:util";
import { envName, optionsFromEnv, parseConfig, type SimulatorConfig } from "../config.js";

export const HELP = `loyalty-sim: a stateful simulator of the loyalty (stamp-card) REST API

Usage: loyalty-sim [options]

Options (each also as an environment variable):
  --port N            port to listen on (default 4747)                 ${envName("port")}
  --host HOST         address to bind (default 127.0.0.1)              ${envName("host")}
  --seed N            seed of the generated customers (default 1)      ${envName("seed")}
  --customers N       number of generated customers (default 50)       ${envName("customers")}
  --fixtures FILE     program fixture (default: the bundled one)       ${envName("fixtures")}
  --api-key KEY       API key of the default shop (default sim_key)    ${envName("apiKey")}
  --api-secret SECRET API secret of the default shop (default sim_secret) ${envName("apiSecret")}
  --rate-limit N|off  requests per hour per shop (default 1000)        ${envName("rateLimit")}
  --help              show this help
  --version           show the version
`;

export type CliCommand = { kind: "help" } | { kind: "version" } | { kind: "run"; config: SimulatorConfig };

export function parseCli(argv: string[], env: Record<string, string | undefined>): CliCommand {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      seed: { type: "string" },
      customers: { type: "string" },
      fixtures: { type: "string" },
      "api-key": { type: "string" },
      "api-secret": { type: "string" },
      "rate-limit": { type: "string" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
  });
  if (values.help) return { kind: "help" };
  if (values.version) return { kind: "version" };
  const flags: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (typeof value === "string") flags[key.replace(/-([a-z])/g, (_, ch: string) => ch.toUpperCase())] = value;
  }
  return { kind: "run", config: parseConfig({ ...optionsFromEnv(env), ...flags }) };
}
