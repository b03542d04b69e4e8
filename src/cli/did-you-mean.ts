/**
 * "Did you mean --seed?" for a mistyped flag: the known flag nearest to the unknown one, by edit
 * distance, when it is near enough to be a typo rather than another word.
 * @module
 */
import { parseArgs, type ParseArgsConfig } from "node:util";

type Flags = NonNullable<ParseArgsConfig["options"]>;

/** Edits (insert, delete, replace, swap of neighbours) from `a` to `b`. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The known flag `--name` is most likely a typo of, if any (at most 2 edits, and fewer than a third of it). */
export function nearestFlag(unknown: string, known: readonly string[]): string | undefined {
  const name = unknown.replace(/^-+/, "").split("=")[0]!;
  let best: { flag: string; d: number } | undefined;
  for (const flag of known) {
    const d = distance(name, flag);
    if (d <= 2 && d < flag.length / 3 && (best === undefined || d < best.d)) best = { flag, d };
  }
  return best && `--${best.flag}`;
}

/**
 * parseArgs's error for an unknown flag, with the flag meant when one is near; other errors as
 * they are. Its message is "Unknown option '--sed'" (and, for some, advice on positionals after).
 */
export function withSuggestion(error: unknown, known: readonly string[]): unknown {
  if (!(error instanceof TypeError) || (error as { code?: unknown }).code !== "ERR_PARSE_ARGS_UNKNOWN_OPTION") return error;
  const flag = /^Unknown option '([^']+)'/.exec(error.message)?.[1];
  const meant = flag === undefined ? undefined : nearestFlag(flag, known);
  if (meant === undefined) return error;
  return Object.assign(new TypeError(`Unknown option '${flag}': did you mean ${meant}?`), { code: "ERR_PARSE_ARGS_UNKNOWN_OPTION" });
}

/**
 * parseArgs, strict, over `options`; an unknown flag (with the flag meant, when one is near) or a
 * flag without its value is thrown as `usage(message)`, the command's own usage error.
 */
export function parseFlags<O extends Flags, P extends boolean = false>(
  args: string[],
  options: O,
  usage: (message: string) => Error,
  allowPositionals = false as P,
): ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: P }>> {
  try {
    return parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: P }>({ args, options, strict: true, allowPositionals });
  } catch (error) {
    throw usage((withSuggestion(error, Object.keys(options)) as Error).message);
  }
}
