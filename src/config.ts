/**
 * One schema for every option, whether it comes from CLI flags, environment variables or the
 * in-process API. Configuration flows one way: raw values -> this schema -> the simulator.
 * @module
 */
import { z } from "zod";
import { topField, zodIssues } from "./zod-issues.js";

/**
 * A whole number from `min` to `max`, given as a number (code) or as digits (a flag, a variable);
 * anything else is named as given, in words a person reads at a prompt.
 */
const intFrom = (min: number, max: number) =>
  z.union([z.number(), z.string()]).transform((raw, ctx) => {
    const n = typeof raw === "number" ? raw : /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
    if (Number.isSafeInteger(n) && n >= min && n <= max) return n;
    ctx.addIssue({ code: "custom", message: `must be a whole number between ${min} and ${max}, got ${JSON.stringify(typeof raw === "number" ? String(raw) : raw)}` });
    return z.NEVER;
  });

/** A boolean from code, or from the environment as true/false/1/0. */
const booleanOption = z.union([
  z.boolean(),
  z.enum(["true", "false", "1", "0"], { message: "must be true, false, 1 or 0" }).transform((v) => v === "true" || v === "1"),
]);

/**
 * What the control API may make, at most: each bounds the memory a careless loop or a hostile
 * client can take. 100k customers take about 115 MB of heap; scenarios, at most about twice their
 * bytes (strings of characters beyond Latin-1 take two bytes each).
 */
export const DEFAULT_LIMITS = { maxShops: 1000, maxCustomers: 250_000, maxScenarios: 100, maxScenarioRules: 100, maxScenarioBytes: 64 * 1024 * 1024 };
export type Limits = typeof DEFAULT_LIMITS;

export const configSchema = z
  .object({
    port: intFrom(0, 65_535).default(4747),
    host: z.string().min(1).default("127.0.0.1"),
    seed: intFrom(0, 2 ** 31 - 1).default(1),
    customers: intFrom(0, 1_000_000).default(50),
    /** A fixture file; the bundled default program when absent. */
    fixtures: z.string().min(1).optional(),
    /** Override the fixture's credentials. */
    apiKey: z.string().min(1).optional(),
    apiSecret: z.string().min(1).optional(),
    /** Requests per hour per shop, or `off`; overrides the fixture's value. */
    rateLimit: z.union([z.literal("off"), intFrom(1, 1_000_000_000)]).optional(),
    /** Scenario files loaded at start (JSON or YAML); a comma-separated list from the environment. */
    scenario: z
      .union([z.string().min(1), z.array(z.string().min(1))])
      .transform((v) => (Array.isArray(v) ? v : v.split(",").map((s) => s.trim()).filter(Boolean)))
      .default([]),
    /** Global latency of every API request: `MS` or `MIN-MAX`. */
    latency: z
      .union([z.number().int().min(0), z.string().regex(/^\d+(-\d+)?$/, "must be MS or MIN-MAX, e.g. 50 or 20-200")])
      .transform((v, ctx): number | [number, number] => {
        if (typeof v === "number") return v;
        const [min, max] = v.split("-").map(Number) as [number, number?];
        if (max === undefined) return min;
        if (min > max) ctx.addIssue({ code: "custom", message: "MIN must not exceed MAX" });
        return [min, max];
      })
      .optional(),
    journalSize: intFrom(0, 1_000_000).default(1000),
    /** Keep every shop's state in this JSON file (lowdb) and load it at the next start. */
    data: z.string().min(1).optional(),
    /** Longest time between a change and its write to the data file. */
    flushMs: intFrom(10, 60_000).default(1000),
    logLevel: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
    logFormat: z.enum(["pretty", "json"]).default("pretty"),
    quiet: booleanOption.default(false),
    /** Answer CORS preflights for browser apps under test. */
    cors: booleanOption.default(true),
    /** Serve the inspector pages at /__sim/ui. */
    inspector: booleanOption.default(true),
    /** The CLI only: at exit, write every shop's coverage report to this file (its format by the extension). */
    coverageReport: z.string().min(1).optional(),
    /**
     * The CLI only: exit when the program that started it goes away. Unset: when stdin is a pipe
     * (a program started it, not a terminal, a shell's background job or a service manager).
     */
    exitWithParent: booleanOption.optional(),
    /** Shops, the default one included. */
    maxShops: intFrom(1, 1_000_000).default(DEFAULT_LIMITS.maxShops),
    /** Customers over every shop: generated, created, and those of shops being made. */
    maxCustomers: intFrom(0, 100_000_000).default(DEFAULT_LIMITS.maxCustomers),
    /** Scenarios a shop adds through the control API. */
    maxScenarios: intFrom(0, 1_000_000).default(DEFAULT_LIMITS.maxScenarios),
    /** Rules of one scenario added through the control API. */
    maxScenarioRules: intFrom(1, 1_000_000).default(DEFAULT_LIMITS.maxScenarioRules),
    /** Bytes the scenarios of all shops hold (their JSON text, plus 64 a JSON value), those loaded at start included. */
    maxScenarioBytes: intFrom(0, 2 ** 40).default(DEFAULT_LIMITS.maxScenarioBytes),
  })
  .superRefine((c, ctx) => {
    if (c.customers <= c.maxCustomers) return;
    const limit = `${flagName("maxCustomers")} (${envName("maxCustomers")})`;
    ctx.addIssue({ code: "custom", path: ["customers"], message: `${c.customers} is more than ${limit} allows (${c.maxCustomers}); raise that too` });
  });

export type SimulatorConfig = z.output<typeof configSchema>;
export type SimulatorOptions = z.input<typeof configSchema>;

/** Each option's environment variable: `apiKey` -> `LOYALTY_SIM_API_KEY`. */
export function envName(option: string): string {
  return `LOYALTY_SIM_${option.replace(/[A-Z]/g, (m) => `_${m}`).toUpperCase()}`;
}

/** Each option's flag: `apiKey` -> `--api-key`. */
export function flagName(option: string): string {
  return `--${option.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`)}`;
}

export const OPTION_NAMES = Object.keys(configSchema.shape) as (keyof SimulatorConfig)[];

/** Options set through the environment, by option name. */
export function optionsFromEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of OPTION_NAMES) {
    const value = env[envName(name)];
    if (value !== undefined && value !== "") out[name] = value;
  }
  return out;
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/** Validates options; the error names each bad option as a flag and as its variable. */
export function parseConfig(raw: Record<string, unknown>): SimulatorConfig {
  const result = configSchema.safeParse(raw);
  if (result.success) return result.data;
  const lines = zodIssues(result.error.issues).map(({ path, message }) => {
    const name = topField(path);
    return `  ${flagName(name)} (${envName(name)}): ${message}`;
  });
  throw new ConfigError(`Invalid options:\n${lines.join("\n")}`);
}
