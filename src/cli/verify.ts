/**
 * `loyalty-sim verify`: its flags (over the two credential variables), the run, the text summary
 * on stdout, the exit code: 0 nothing failed, 1 a check failed or a waiver expired, 2 the usage
 * was wrong or the target could not be reached.
 * @module
 */
import { parseFlags } from "./did-you-mean.js";
import { exitCodeOf, redact, REPORT_FORMATS, TargetError, textReport, verify, VerifyUsageError, type VerifyOptions } from "../verify/index.js";
import { terminalSafe } from "../verify/scrub.js";

const KEY_VAR = "LOYALTY_SIM_VERIFY_API_KEY";
const SECRET_VAR = "LOYALTY_SIM_VERIFY_API_SECRET";

export const VERIFY_HELP = `loyalty-sim verify: check a target (production, or any simulator) against the simulator's contract

Usage: loyalty-sim verify --target URL|self [options]

Options:
  --target URL|self       the service's origin (https://stamp.appydesign.io), or self: a simulator started in process
  --api-key KEY           the shop's API key                          ${KEY_VAR}
  --api-secret SECRET     the shop's API secret                       ${SECRET_VAR}
  --allow-writes          also run the write checks, which change the customer and put it back
  --customer ID           the active customer the write checks may change (required with --allow-writes)
  --plan                  print each request the run would send, one METHOD /path a line, and send none
  --report FORMAT:FILE    also write a report: json, junit or markdown (repeatable)
  --waivers FILE          known differences to waive until a date (YAML or JSON)
  --help                  show this help

Exit code: 0 nothing failed, 1 a check failed (drift) or a waiver expired, 2 wrong usage or the
target could not be reached. At most 150 requests, 10 a second. See docs/verify.md.
`;

export interface VerifyIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

const VERIFY_OPTIONS = {
  target: { type: "string" },
  "api-key": { type: "string" },
  "api-secret": { type: "string" },
  "allow-writes": { type: "boolean" },
  customer: { type: "string" },
  plan: { type: "boolean" },
  report: { type: "string", multiple: true },
  waivers: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** The options of the command line; a usage error for an unknown flag or a report without its format. */
export function parseVerifyCli(argv: string[], env: Record<string, string | undefined>): VerifyOptions | "help" {
  const { values } = parseFlags(argv, VERIFY_OPTIONS, (message) => new VerifyUsageError(message));
  if (values.help) return "help";
  const reports = (values.report ?? []).map((spec) => {
    const at = spec.indexOf(":");
    if (at <= 0) throw new VerifyUsageError(`--report: ${JSON.stringify(spec)} is not FORMAT:FILE (json:verify.json, junit:verify.xml or markdown:verify.md)`);
    const format = spec.slice(0, at);
    if (!(REPORT_FORMATS as readonly string[]).includes(format)) throw new VerifyUsageError(`--report: ${JSON.stringify(spec)}: the format must be ${REPORT_FORMATS.join(", ")}`);
    return { format, file: spec.slice(at + 1) };
  });
  const apiKey = values["api-key"] ?? env[KEY_VAR];
  const apiSecret = values["api-secret"] ?? env[SECRET_VAR];
  return {
    ...(values.target !== undefined && { target: values.target }),
    ...(apiKey && { apiKey }),
    ...(apiSecret && { apiSecret }),
    allowWrites: values["allow-writes"] ?? false,
    ...(values.customer !== undefined && { customer: values.customer }),
    plan: values.plan ?? false,
    reports: reports as VerifyOptions["reports"],
    ...(values.waivers !== undefined && { waivers: values.waivers }),
  } as VerifyOptions;
}

/** Runs the command; resolves with its exit code. Nothing it writes holds a credential. */
export async function runVerifyCli(argv: string[], env: Record<string, string | undefined>, io: VerifyIo): Promise<number> {
  let secrets: (string | undefined)[] = [env[KEY_VAR], env[SECRET_VAR]];
  // The last guard of every line printed: no credential in any form, no control character a target sent to rewrite the terminal.
  const say = (write: (text: string) => void, text: string) => write(terminalSafe(redact(text, secrets)));
  try {
    const options = parseVerifyCli(argv, env);
    if (options === "help") {
      io.out(VERIFY_HELP);
      return 0;
    }
    secrets = [options.apiKey, options.apiSecret];
    const result = await verify(options);
    if (result.kind === "plan") {
      say(io.out, result.requests.map((line) => `${line}\n`).join(""));
      return 0;
    }
    say(io.out, textReport(result.report));
    return exitCodeOf(result.report);
  } catch (error) {
    if (error instanceof VerifyUsageError) {
      say(io.err, `loyalty-sim verify: ${error.message}\nRun loyalty-sim verify --help for the options.\n`);
      return 2;
    }
    if (error instanceof TargetError) {
      say(io.err, `loyalty-sim verify: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
