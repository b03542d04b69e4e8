/**
 * A check: a stable id, what it rests on (`documented`: production's docs state it; `model`: the
 * docs are silent and the simulator chose), the steps whose answers it judges, and the judgement.
 * @module
 */
import type { z } from "@hono/zod-openapi";
import type { Exchange } from "../client.js";
import type { Answers, Phase, Vars } from "../plan.js";
import { fieldProblems } from "../shapes.js";

export type Basis = "documented" | "model";

/** One thing that differed, and the request whose answer showed it. */
export interface Problem {
  message: string;
  request?: string;
  /** Problems of one kind (one field missing in every record, say) are reported once, with their number. */
  kind?: string;
}

/** A problem's kind from its message: the same message whatever the record's index. */
export const kindOf = (message: string) => message.replace(/\[\d+\]/g, "[*]");

/** What a check's judge writes down. */
export class Judge {
  /** Replaces the check's `expected` when the judge can say it with the numbers of this run. */
  expected: string | undefined;
  /** What was seen, for a pass (a failure's is its problems). */
  observed: string | undefined;
  readonly problems: Problem[] = [];

  problem(message: string, request?: string, kind?: string): void {
    this.problems.push({ message, ...(request !== undefined && { request }), ...(kind !== undefined && { kind }) });
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

/** The problems as a report writes them: each kind once, with how many more there were. */
export function describeProblems(problems: readonly Problem[]): string {
  const seen = new Map<string, { first: Problem; count: number }>();
  problems.forEach((p, i) => {
    const key = p.kind ?? `#${i}`;
    const entry = seen.get(key);
    if (entry) entry.count++;
    else seen.set(key, { first: p, count: 1 });
  });
  return [...seen.values()].map(({ first, count }) => `${first.message}${count > 1 ? ` (and ${count - 1} more like it)` : ""}`).join("; ");
}

/** A value in a message: JSON, shortened. */
export function show(value: unknown): string {
  if (value === undefined) return "absent";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** The success envelope's `data` of an answer, or undefined. */
export function dataOf(exchange: Exchange): any {
  const body = exchange.body as { success?: unknown; data?: unknown } | undefined;
  return typeof body === "object" && body !== null ? body.data : undefined;
}

/** The answer is a 200 in the success envelope, else a problem saying what came instead; whether it is. */
export function succeeded(judge: Judge, exchange: Exchange): boolean {
  const body = exchange.body as { success?: unknown; error?: { code?: unknown; message?: unknown } } | undefined;
  if (exchange.status === 200 && typeof body === "object" && body !== null && body.success === true) return true;
  const error = typeof body === "object" && body !== null ? body.error : undefined;
  const said = error ? ` ${String(error.code)} (${show(error.message)})` : typeof body === "string" ? ` ${show(body)}` : "";
  judge.problem(`answered ${exchange.status}${said}, expected 200 in the success envelope`, exchange.request);
  return false;
}
