/**
 * Issue 31: `--sed 3` said only "Unknown option '--sed'", without the flag meant; `--port abc`
 * said "expected number, received NaN". Now an unknown flag close to a known one asks "did you
 * mean --seed?", and a number option that is not a whole number in its range says so plainly,
 * naming what was given.
 */
import { describe, expect, it } from "vitest";
import { parseCli } from "../../src/cli/args.js";

const messageOf = (argv: string[], env: Record<string, string> = {}) => {
  try {
    parseCli(argv, env);
  } catch (error) {
    return (error as Error).message;
  }
  return "no error";
};

describe("issue 31: the CLI's messages for a mistyped flag and a value that is not a number", () => {
  it.each([
    [["--sed", "3"], "--seed"],
    [["--prot", "80"], "--port"],
    [["--journal-sise", "5"], "--journal-size"],
    [["--no-inspecter"], "--no-inspector"],
    [["--max-shop", "3"], "--max-shops"],
  ])("%j: did you mean %s?", (argv, meant) => {
    expect(messageOf(argv)).toBe(`Unknown option '${argv[0]}': did you mean ${meant}?`);
  });

  it("a flag close to none is named alone", () => {
    expect(messageOf(["--bogus"])).toBe("Unknown option '--bogus'");
  });

  it.each([
    [["--port", "abc"], {}, '--port (LOYALTY_SIM_PORT): must be a whole number between 0 and 65535, got "abc"'],
    [["--port", "1.5"], {}, '--port (LOYALTY_SIM_PORT): must be a whole number between 0 and 65535, got "1.5"'],
    [["--port", "70000"], {}, '--port (LOYALTY_SIM_PORT): must be a whole number between 0 and 65535, got "70000"'],
    [["--customers=-1"], {}, '--customers (LOYALTY_SIM_CUSTOMERS): must be a whole number between 0 and 1000000, got "-1"'],
    [[], { LOYALTY_SIM_SEED: "seven" }, '--seed (LOYALTY_SIM_SEED): must be a whole number between 0 and 2147483647, got "seven"'],
  ])("%j %j: %s", (argv, env, line) => {
    expect(messageOf(argv, env)).toBe(`Invalid options:\n  ${line}`);
  });

  it("whole numbers still start it", () => {
    const run = parseCli(["--port", "0", "--seed", "3", "--customers", "12"], {});
    expect(run.kind === "run" && [run.config.port, run.config.seed, run.config.customers]).toEqual([0, 3, 12]);
  });
});

describe("issue 31: every command of its own suggests the flag meant", () => {
  it.each([
    ["coverage", ["--formt", "json"], "loyalty-sim coverage: Unknown option '--formt': did you mean --format?"],
    ["import", ["--salf", "x"], "loyalty-sim import: Unknown option '--salf': did you mean --salt?"],
    ["scenarios", ["add", "--api-kye", "k", "a.json"], "loyalty-sim scenarios: Unknown option '--api-kye': did you mean --api-key?"],
    ["verify", ["--targte", "self"], "loyalty-sim verify: Unknown option '--targte': did you mean --target?"],
  ])("%s %j", async (command, argv, line) => {
    const { runCoverageCli } = await import("../../src/cli/coverage.js");
    const { runImportCli } = await import("../../src/cli/import.js");
    const { runScenariosCli } = await import("../../src/cli/scenarios.js");
    const { runVerifyCli } = await import("../../src/cli/verify.js");
    let err = "";
    const io = { out: () => undefined, err: (text: string) => void (err += text), progress: () => undefined };
    const runs: Record<string, () => Promise<number>> = {
      coverage: () => runCoverageCli(argv, io),
      import: () => runImportCli(argv, {}, io),
      scenarios: () => runScenariosCli(argv, {}, io),
      verify: () => runVerifyCli(argv, {}, io),
    };
    expect([await runs[command]!(), err.split("\n")[0]]).toEqual([2, line]);
  });
});
