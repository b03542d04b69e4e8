/**
 * `loyalty-sim import`: its flags (over the credential and salt variables), the run, what it says
 * on stdout (the file, the assumptions) and stderr (progress, warnings), the exit code: 0 written,
 * 1 the source failed or the file would not load or would leak (nothing written), 2 wrong usage.
 * What the source wrote is printed escaped (import/printable.ts): it never acts on the terminal.
 * @module
 */
import { ImportError, ImportUsageError, KEY_VAR, LeakError, runImport, SALT_VAR, SECRET_VAR, SourceError, type ImportDeps, type ImportOptions } from "../import/index.js";
import { oneLine, terminalSafe } from "../import/printable.js";
import { parseFlags } from "./did-you-mean.js";

export const IMPORT_HELP = `loyalty-sim import: copy a shop's program and customers from production's REST API into a fixture

Usage: loyalty-sim import --from URL --api-key KEY --api-secret SECRET --out FILE [options]

Options:
  --from URL             the service's origin (https://stamp.appydesign.io), or its API base
  --api-key KEY          the shop's API key                                  ${KEY_VAR}
  --api-secret SECRET    the shop's API secret                               ${SECRET_VAR}
  --out FILE             the fixture to write (serve it with loyalty-sim --fixtures FILE); a file
                         an earlier import wrote is replaced whole, any other is left alone
  --force                replace --out even when it is not a file an import wrote
  --customers N|all      customers to copy, oldest first (default 50; 0 for none)
  --activities N         newest activities kept of each customer (default 100)
  --salt SALT            the pseudonyms' salt: the same salt, the same fakes  ${SALT_VAR}
  --remap-ids            replace customer ids by fakes too (kept by default: apps store them)
  --keep-personal-data   keep real names, emails and birthdays (codes are replaced all the same)
  --plan                 print the requests it would send and their count; send none
  --help                 show this help

Reads with GET only, pages of 1000, at most 10 requests a second, paced under the shop's hourly
quota (X-RateLimit-*); a 429 is waited out for its Retry-After. --out is checked before anything
is sent. Exit code: 0 written, 1 the source failed or the file would leak a personal value or code
(nothing written), 2 wrong usage (a bad option, or an --out it cannot or may not write).
See docs/import.md.
`;

export interface ImportIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** A progress line: on a terminal each replaces the last. */
  progress: (line: string) => void;
}

const IMPORT_OPTIONS = {
  from: { type: "string" },
  "api-key": { type: "string" },
  "api-secret": { type: "string" },
  out: { type: "string" },
  force: { type: "boolean" },
  customers: { type: "string" },
  activities: { type: "string" },
  salt: { type: "string" },
  "remap-ids": { type: "boolean" },
  "keep-personal-data": { type: "boolean" },
  plan: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** The options of the command line; a usage error for an unknown flag. */
export function parseImportCli(argv: string[], env: Record<string, string | undefined>): ImportOptions | "help" {
  const { values } = parseFlags(argv, IMPORT_OPTIONS, (message) => new ImportUsageError(message));
  if (values.help) return "help";
  const apiKey = values["api-key"] ?? env[KEY_VAR];
  const apiSecret = values["api-secret"] ?? env[SECRET_VAR];
  const salt = values.salt ?? env[SALT_VAR];
  return {
    ...(values.from !== undefined && { from: values.from }),
    ...(apiKey && { apiKey }),
    ...(apiSecret && { apiSecret }),
    ...(values.out !== undefined && { out: values.out }),
    force: values.force ?? false,
    ...(values.customers !== undefined && { customers: values.customers }),
    ...(values.activities !== undefined && { activities: values.activities }),
    ...(salt && { salt }),
    remapIds: values["remap-ids"] ?? false,
    keepPersonalData: values["keep-personal-data"] ?? false,
    plan: values.plan ?? false,
  } as ImportOptions;
}

/**
 * Each secret replaced, wherever a message might carry one (none is put in one on purpose). A
 * secret of a few characters is left alone: replacing it would mangle every word that holds it.
 */
function redact(text: string, secrets: (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) if (secret && secret.length >= MIN_REDACTED) out = out.replaceAll(secret, "[redacted]");
  return out;
}

const MIN_REDACTED = 6;

/** Runs the command; resolves with its exit code. Nothing it writes holds a credential or the salt. */
export async function runImportCli(argv: string[], env: Record<string, string | undefined>, io: ImportIo, deps: Omit<ImportDeps, "progress"> = {}): Promise<number> {
  let secrets: (string | undefined)[] = [env[KEY_VAR], env[SECRET_VAR], env[SALT_VAR]];
  const say = (write: (text: string) => void, text: string) => write(terminalSafe(redact(text, secrets)));
  try {
    const options = parseImportCli(argv, env);
    if (options === "help") {
      io.out(IMPORT_HELP);
      return 0;
    }
    secrets = [options.apiKey, options.apiSecret, options.salt];
    const result = await runImport(options, { ...deps, progress: (line) => say(io.progress, line) });
    if (result.kind === "plan") {
      say(io.out, result.lines.map((line) => `${line}\n`).join(""));
      return 0;
    }
    const merged = result.mergeTargets > 0 ? ` (${result.mergeTargets} of them because a customer was merged into them)` : "";
    const waited = result.waitedMs > 0 ? `, ${Math.round(result.waitedMs / 1000)} s of it waiting for the shop's quota` : "";
    const lines = [
      `loyalty-sim import: wrote ${result.file}: the program and ${result.customers} customers${merged}, in ${result.requests} requests${waited}`,
      `Assumed (production does not show these; the file's "assumptions" lists them, edit the fields they name):`,
      ...result.assumptions.map((a) => oneLine(`  ${a.path} = ${JSON.stringify(a.value)}: ${a.why}`)),
      options.keepPersonalData
        ? "Personal data: kept as read (--keep-personal-data); discount codes are fakes of the same shape."
        : `Personal data: names, emails, birthdays and phone-like text are pseudonyms; discount codes are fakes of the same shape; customer ids are ${options.remapIds ? "fakes too" : "kept (--remap-ids replaces them)"}.`,
      `Serve it: loyalty-sim --fixtures ${result.file}`,
    ];
    say(io.out, `${lines.join("\n")}\n`);
    if (!result.salted) say(io.err, `loyalty-sim import: no --salt (${SALT_VAR}) was given, so a random one made the fakes: the next import gives other ones; give a salt to keep them stable\n`);
    if (options.keepPersonalData) say(io.err, `loyalty-sim import: warning: ${result.file} holds the customers' real names, emails and birthdays (--keep-personal-data): keep it private, out of version control, CI artifacts and logs\n`);
    return 0;
  } catch (error) {
    if (error instanceof ImportUsageError) {
      say(io.err, `loyalty-sim import: ${error.message}\nRun loyalty-sim import --help for the options.\n`);
      return 2;
    }
    if (error instanceof SourceError || error instanceof LeakError || error instanceof ImportError) {
      say(io.err, `loyalty-sim import: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
