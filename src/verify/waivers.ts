/**
 * Waivers: known differences a team accepts for a while. A file (YAML or JSON) holds a list of
 * `{ id, path?, reason, until }`, bare or under `waivers:`. A waiver turns the failures of its
 * check (those of requests under `path`, when given) into `waived`; one past its `until` date
 * waives nothing and fails the run; one that matched nothing is named.
 * @module
 */
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { z } from "@hono/zod-openapi";
import { belowApiBase } from "../http/base.js";
import { MAX_GLOB_LENGTH, pathGlob } from "../scenarios/glob.js";
import { fileIssueLines, MISSING_IS_REQUIRED } from "../zod-issues.js";
import { VerifyUsageError } from "./options.js";

const DATE = /^\d{4}-\d{2}-\d{2}$/;

const WaiverSchema = z.strictObject({
  id: z.string().min(1),
  path: z.string().min(1).max(MAX_GLOB_LENGTH).startsWith("/", "must start with / (a path below the API base, e.g. /customers/*/activities)").optional(),
  reason: z.string().min(1),
  until: z
    .string()
    .regex(DATE, "must be a date, YYYY-MM-DD")
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), "is not a day of the calendar"),
});

export type Waiver = z.output<typeof WaiverSchema>;

/** The waivers of a file; a usage error naming the file and the field when it does not read. */
export function loadWaivers(file: string): Waiver[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new VerifyUsageError(`--waivers ${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (error) {
    throw new VerifyUsageError(`--waivers ${file}: is neither YAML nor JSON: ${(error as Error).message}`);
  }
  const bare = Array.isArray(data);
  const list = bare ? data : (data as { waivers?: unknown } | null)?.waivers;
  if (!Array.isArray(list) || (!bare && Object.keys(data as object).length !== 1)) {
    throw new VerifyUsageError(`--waivers ${file}: must hold a list of waivers { id, path?, reason, until }, bare or as the only key waivers:`);
  }
  const result = z.array(WaiverSchema).safeParse(list, MISSING_IS_REQUIRED);
  if (!result.success) throw new VerifyUsageError(fileIssueLines(result.error.issues, bare ? [] : ["waivers"]).map((line) => `--waivers ${file}: ${line}`).join("\n"));
  return result.data;
}

/** Today's date in UTC, as waivers write it. */
export const dayOf = (now: number) => new Date(now).toISOString().slice(0, 10);

/** A waiver is expired the day after its `until`. */
export const isExpired = (waiver: Waiver, today: string) => waiver.until < today;

/** Whether the waiver covers a failure of `checkId` shown by `request` (`METHOD /path?query`, or none). */
export function covers(waiver: Waiver, checkId: string, request: string | undefined): boolean {
  if (waiver.id !== checkId) return false;
  if (waiver.path === undefined) return true;
  if (request === undefined) return false;
  const path = request.replace(/^\S+ /, "").split("?")[0]!;
  return pathGlob(waiver.path).test(belowApiBase(path));
}

export const describeWaiver = (w: Waiver) => `${w.id}${w.path ? ` (${w.path})` : ""} until ${w.until}: ${w.reason}`;
