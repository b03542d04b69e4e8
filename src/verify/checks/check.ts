/**
 * A check: a stable id, what it rests on (`documented`: production's docs state it; `model`: the
 * docs are silent and the simulator chose), the steps whose answers it judges, and the judgement.
 * @module
 */
import type { z } from "@hono/zod-openapi";
import type { Exchange } from "../client.js";
import type { Answers, Phase, Vars } from "../plan.js";
import { dataOfBody, field, kindOfValue, listOf, recordsOf, type Rec } from "../read.js";
import { fieldProblems } from "../shapes.js";

export type Basis = "documented" | "model";

/** One thing that differed, and the request whose answer showed it. */
export interface Problem {
  message: string;
  request?: string;
  /** Problems of one kind (one field missing in every record, say) are reported once, with their number. */
  kind?: string;
  /** How many problems of this kind the request showed (1 when absent). */
  count?: number;
}

/** Problems a judge keeps apart (by kind and request); more are only counted: a target can answer a million wrong records. */
const MAX_PROBLEMS_KEPT = 1000;
const MAX_MESSAGE_LENGTH = 400;

/** A problem's kind from its message: the same message whatever the record's index. */
export const kindOf = (message: string) => message.replace(/\[\d+\]/g, "[*]");

/** What a check's judge writes down. */
export class Judge {
  /** Replaces the check's `expected` when the judge can say it with the numbers of this run. */
  expected: string | undefined;
  /** What was seen, for a pass (a failure's is its problems). */
  observed: string | undefined;
  readonly problems: Problem[] = [];
  readonly #byKind = new Map<string, Problem>();

  problem(message: string, request?: string, kind?: string): void {
    const key = kind === undefined ? undefined : `${kind}\n${request ?? ""}`;
    const same = key === undefined ? undefined : this.#byKind.get(key);
    if (same) {
      same.count = (same.count ?? 1) + 1;
      return;
    }
    if (this.problems.length >= MAX_PROBLEMS_KEPT) {
      const last = this.problems.at(-1)!;
      if (last.kind !== OVERFLOW) this.problems.push({ message: "more problems", kind: OVERFLOW, count: 1 });
      else last.count = (last.count ?? 1) + 1;
      return;
    }
    // A message quotes a target's values, shortened each; this bounds the whole, whatever a check wrote.
    const text = message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH - 3)}...` : message;
    const problem: Problem = { message: text, ...(request !== undefined && { request }), ...(kind !== undefined && { kind }) };
    this.problems.push(problem);
    if (key !== undefined) this.#byKind.set(key, problem);
  }

  /** The answer's data as a list of records, else a problem saying what it is instead. */
  list(exchange: Exchange): Rec[] | undefined {
    const data = dataOf(exchange);
    const records = recordsOf(data);
    if (records === undefined) notAList(this, data, exchange);
    return records;
  }

  /** Each of the record's field problems, against the answer's request. */
  fields(schema: z.ZodType, value: unknown, at: string, exchange: Exchange): void {
    for (const message of fieldProblems(schema, value, at)) this.problem(message, exchange.request, kindOf(message));
  }

  /** `actual` must equal `wanted`, else a problem naming `what`. */
  equal(what: string, actual: unknown, wanted: unknown, request?: string): boolean {
    if (Object.is(actual, wanted)) return true;
    this.problem(`${what}: ${show(actual)}, expected ${show(wanted)}`, request);
    return false;
  }

  /** As `equal`, for arrays and objects: the same JSON. */
  same(what: string, actual: unknown, wanted: unknown, request?: string): boolean {
    if (JSON.stringify(actual) === JSON.stringify(wanted)) return true;
    this.problem(`${what}: ${show(actual)}, expected ${show(wanted)}`, request);
    return false;
  }
}

export interface JudgeContext {
  answers: Answers;
  vars: Vars;
}

export interface Check {
  /** Stable across releases: waivers and CI dashboards name it. */
  id: string;
  title: string;
  basis: Basis;
  phase: Phase;
  /** What it expects, in words. */
  expected: string;
  /** The steps it judges (none: it judges every answer). Not sent: the check is skipped with the reason. The first names the request. */
  steps: string[];
  judge(context: JudgeContext, judge: Judge): void;
}

/** Marks the count of problems past MAX_PROBLEMS_KEPT. */
const OVERFLOW = "\u0000overflow";

/** The problems as a report writes them: each kind once, with how many more there were. */
export function describeProblems(problems: readonly Problem[]): string {
  const seen = new Map<string, { first: Problem; count: number }>();
  problems.forEach((p, i) => {
    const key = p.kind ?? `#${i}`;
    const entry = seen.get(key);
    if (entry) entry.count += p.count ?? 1;
    else seen.set(key, { first: p, count: p.count ?? 1 });
  });
  return [...seen.values()]
    .map(({ first, count }) => (first.kind === OVERFLOW ? `and ${count} more problems` : `${first.message}${count > 1 ? ` (and ${count - 1} more like it)` : ""}`))
    .join("; ");
}

/** A value in a message: JSON, shortened (JSON writes no control character as it is). */
export function show(value: unknown): string {
  if (value === undefined) return "absent";
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  if (typeof value === "string" && value.length > 80) value = value.slice(0, 80);
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** The problem of an answer whose data is not a list: one kind, however many answers show it. */
export function notAList(judge: Judge, data: unknown, exchange: Exchange): void {
  const message = `data: ${kindOfValue(data)}, expected an array`;
  judge.problem(message, exchange.request, message);
}

/** Text of our own making from a target's values (digits, say), shortened for a message. */
export const brief = (text: string) => (text.length > 80 ? `${text.slice(0, 77)}...` : text);

/** The success envelope's `data` of an answer, whatever it is, or undefined. */
export const dataOf = (exchange: Exchange): unknown => dataOfBody(exchange.body);

/** The answer is a 200 in the success envelope, else a problem saying what came instead; whether it is. */
export function succeeded(judge: Judge, exchange: Exchange): boolean {
  const body = exchange.body;
  if (exchange.status === 200 && field(body, "success") === true) return true;
  const error = field(body, "error");
  const said = error !== undefined ? ` ${codeText(field(error, "code"))} (${show(field(error, "message"))})` : typeof body === "string" ? ` ${show(body)}` : "";
  judge.problem(`answered ${exchange.status}${said}, expected 200 in the success envelope`, exchange.request);
  return false;
}

/** An error code as a message names it: as it is when it looks like one (NOT_FOUND), else as JSON. */
export const codeText = (code: unknown) => (typeof code === "string" && /^[A-Za-z0-9_.-]{1,64}$/.test(code) ? code : show(code));

/** The list of an answer's data, or undefined (no problem written: a field check says it). */
export const listData = (exchange: Exchange): readonly unknown[] | undefined => listOf(dataOf(exchange));
