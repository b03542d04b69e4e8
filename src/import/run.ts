/**
 * `loyalty-sim import`: read the source (production's REST API, GET only), map its program and
 * customers to a fixture, replace the personal values and codes, check that none survived and that
 * the fixture loads, and only then write it (atomically: a temporary file renamed over the target).
 * @module
 */
import { randomBytes } from "node:crypto";
import { renameSync, rmSync, writeFileSync } from "node:fs";
import { FixtureError, parseFixture } from "../program/load.js";
import { DEFAULT_REFERENCE_DATE } from "../program/schema.js";
import { PoliteReader } from "./client.js";
import { ImportError } from "./errors.js";
import { checkDestination } from "./destination.js";
import { pseudonymise, toFixtureCustomers } from "./customers.js";
import { digitsOf } from "./finder.js";
import { findLeaks, type Leak, type Originals } from "./leaks.js";
import { finderOf, realValues, type RealValues } from "./originals.js";
import { parseImportOptions, type ImportOptions } from "./options.js";
import { mapProgram, newestInstant, type Assumption, type FixtureInput } from "./program.js";
import { oneLine } from "./printable.js";
import { Pseudonyms } from "./pseudonyms.js";
import { plan, readSource, type Estimate, type SourceData } from "./read.js";

/** The file would hold an original personal value or code: nothing is written. Exit code 1. */
export class LeakError extends Error {
  override readonly name = "LeakError";

  constructor(
    readonly file: string,
    readonly leaks: Leak[],
  ) {
    const kinds = [...new Set(leaks.map((l) => l.kind))];
    const where = leaks.slice(0, 10).map((l) => `  - ${/^[aeiou]/.test(l.kind) ? "an" : "a"} ${l.kind} in ${l.path}`);
    const more = leaks.length > 10 ? [`  - and ${leaks.length - 10} more`] : [];
    super(`refused to write ${file}: it would still hold original values (${kinds.join(", ")}), which must not leave production; nothing was written:\n${[...where, ...more].join("\n")}\nThis is a bug in loyalty-sim import's pseudonyms, or personal data in a text it copies as written (the program's names and messages): edit it in the shop, or import with --keep-personal-data for a file that stays private.`);
  }
}

export { ImportError };

export interface ImportDeps {
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** A line of progress (stderr), each replacing the last on a terminal. */
  progress?: (line: string) => void;
}

export type ImportResult =
  | { kind: "plan"; lines: string[] }
  | {
      kind: "written";
      file: string;
      /** Customers written: those asked for, then those they were merged into. */
      customers: number;
      mergeTargets: number;
      requests: number;
      waitedMs: number;
      assumptions: Assumption[];
      /** Whether the fakes can be made again: a salt was given. */
      salted: boolean;
    };

export async function runImport(input: ImportOptions, deps: ImportDeps = {}): Promise<ImportResult> {
  const options = parseImportOptions(input);
  if (options.plan) return { kind: "plan", lines: plan(options) };
  const out = options.out!;
  checkDestination(out, options.force);
  const progress = deps.progress ?? (() => {});
  const estimate: Estimate = { total: 0 };
  const reader: PoliteReader = new PoliteReader({
    origin: options.from,
    fetch: deps.fetch ?? fetch,
    apiKey: options.apiKey!,
    apiSecret: options.apiSecret!,
    left: (): number => Math.max(1, estimate.total - reader.sent),
    onWait: (ms, why) => progress(`waiting ${(ms / 1000).toFixed(1)} s: ${why}`),
    ...(deps.sleep && { sleep: deps.sleep }),
    ...(deps.now && { now: deps.now }),
  });
  const source = await readSource(reader, options, estimate, progress);

  const program = mapProgram(source, reader.limit);
  const referenceDate = newestInstant(source);
  const customers = toFixtureCustomers(source, program, referenceDate ?? DEFAULT_REFERENCE_DATE);
  const real = realValues(source, program);
  const salt = options.salt ?? randomBytes(16).toString("hex");
  const fakes = new Pseudonyms(salt, real);
  const fixture: FixtureInput = {
    // First: how the next import knows this file as one it may replace (destination.ts, WRITTEN_START).
    assumptions: program.assumptions,
    ...program.fixture,
    ...(referenceDate !== undefined && { generation: { referenceDate } }),
    customers: pseudonymise(customers, fakes, options),
  };

  const leaks = findLeaks(fixture, originalsOf(real, source, options));
  if (leaks.length > 0) throw new LeakError(out, leaks);
  try {
    parseFixture(fixture, out);
  } catch (error) {
    if (!(error instanceof FixtureError)) throw error;
    throw new ImportError(`the fixture made from ${options.from} would not load, so it was not written:\n${error.problems.map((p) => `  - ${oneLine(p)}`).join("\n")}\nThe source answered something its documentation does not describe, or this is a bug in loyalty-sim import.`);
  }
  writeAtomically(out, `${JSON.stringify(fixture, null, 2)}\n`);
  return {
    kind: "written",
    file: out,
    customers: source.customers.length,
    mergeTargets: source.customers.length - source.listed,
    requests: reader.sent,
    waitedMs: reader.waitedMs,
    assumptions: program.assumptions,
    salted: options.salt !== undefined,
  };
}

/** What the leak check looks for, given what was kept on purpose. */
function originalsOf(real: RealValues, source: SourceData, options: { keepPersonalData: boolean; remapIds: boolean }): Originals {
  const keep = options.keepPersonalData;
  return {
    finder: finderOf(real, { personal: !keep, ids: options.remapIds }),
    phones: keep ? new Set() : new Set([...real.phones].map(digitsOf)),
    birthdays: keep ? [] : source.customers.map((c) => c.customer.dateOfBirth),
  };
}

/** The whole file or none: a reader of `path` never sees it half-written. */
function writeAtomically(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new ImportError(`could not write ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
