/**
 * How a zod issue is written, everywhere: the field as a reader finds it (`rewards[2].price`) and
 * why it was refused. Requests, scenarios, options, fixtures and the data file all go through here.
 * @module
 */
import type { z } from "zod";

/** One refused field: where it is and why. */
export interface ZodIssueLine {
  path: string;
  message: string;
}

/** `rewards[2].price`, or `(root)` for the value itself. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out === "" ? "(root)" : out;
}

/** The field at the top of a path: `rules` of `rules[2].respond`. */
export function topField(path: string): string {
  const end = path.search(/[.[]/);
  return end <= 0 ? path : path.slice(0, end);
}

export interface ZodIssueOptions {
  /** Path segments in front of each issue's own (the issues of a slice of a larger document). */
  prefix?: readonly PropertyKey[];
  /** The message of a missing field, instead of zod's "expected string, received undefined". */
  missing?: string;
  /** With it, each unknown key is named by its own path (zod names the object that has it). */
  unknownKey?: string;
}

export function zodIssues(issues: readonly z.core.$ZodIssue[], options: ZodIssueOptions = {}): ZodIssueLine[] {
  const { prefix = [], missing, unknownKey } = options;
  return issues.flatMap((issue) => {
    if (unknownKey !== undefined && issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ path: fieldPath([...prefix, ...issue.path, key]), message: unknownKey }));
    }
    const isMissing = missing !== undefined && issue.code === "invalid_type" && /received undefined/.test(issue.message);
    return [{ path: fieldPath([...prefix, ...issue.path]), message: isMissing ? missing : issue.message }];
  });
}

/** As files report them (fixtures, the data file): `path: message` lines, unknown keys named. */
export function fileIssueLines(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[] = []): string[] {
  return zodIssues(issues, { prefix, unknownKey: "unknown key (not in the format)" }).map((i) => `${i.path}: ${i.message}`);
}

/** A parse option of files: zod's default ("expected string, received undefined") hides that the field is just missing. */
export const MISSING_IS_REQUIRED = {
  error: (issue: z.core.$ZodRawIssue) => (issue.code === "invalid_type" && issue.input === undefined ? "required" : undefined),
};

/** A command's refused options, one line each, named by the flag a user typed (`flags`: option key to flag). */
export function optionLines(issues: readonly z.core.$ZodIssue[], flags: Readonly<Record<string, string>>): string {
  return issues
    .map((issue) => {
      const [top, ...rest] = issue.path;
      const flag = typeof top === "string" ? (flags[top] ?? top) : "options";
      const message = issue.code === "unrecognized_keys" ? `unknown option ${issue.keys.join(", ")}` : issue.message;
      return `${flag}${rest.length > 0 ? ` ${fieldPath(rest)}` : ""}: ${message}`;
    })
    .join("\n");
}
