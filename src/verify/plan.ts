/**
 * The run as data: an ordered list of steps, each one request built from the contract's operation
 * and the values earlier answers bound (`{customer}`, `{customers.next}`), and the answers kept by
 * step for the checks to judge. A step whose values are not known is not sent, and says why;
 * `--plan` prints the steps with their placeholders instead of sending them.
 * @module
 */
import { OPERATIONS, type OperationId } from "../contract/index.js";
import { API_BASE, GRAPHQL_PATH } from "../http/base.js";
import type { Exchange, VerifyRequest } from "./client.js";
import { dataOfBody } from "./read.js";

export type Phase = "read" | "write";

/** What a step's bind may read and set. */
export interface BindContext {
  vars: VarsView;
  answers: Answers;
}

/** Vars as a bind or a judge uses them. */
export type VarsView = Pick<Vars, "get" | "set" | "miss" | "reason">;

export interface Step {
  key: string;
  phase: Phase;
  /** The contract's operation it calls, or GraphQL. */
  op: OperationId | "graphql";
  /** Path parameters by name: a literal, or `{var}`. */
  params?: Record<string, string>;
  /** Query parameters in order: a literal, or `{var}`. */
  query?: Record<string, string>;
  /** Values the body needs (those of params and query are found by themselves). */
  needs?: string[];
  /** The JSON body, from the values bound (each named in `needs`). */
  body?: (value: (name: string) => string) => unknown;
  wrongSecret?: true;
  /** Reads what later steps need from its answer; may throw a TargetError to stop the run. */
  bind?: (answer: Exchange, context: BindContext) => void;
  /** The values `bind` sets or misses, and no other: if it throws, each is missing with why. */
  binds?: readonly string[];
}

/** The longest value verify binds from an answer (an id, a cursor, a code). */
export const MAX_BOUND_LENGTH = 512;

/** Values bound by answers (a customer id, a cursor), or why one could not be. */
export class Vars {
  readonly #values = new Map<string, string>();
  readonly #missing = new Map<string, string>();

  set(name: string, value: string): void {
    // A target's value goes into later requests' paths: a cursor or id of a megabyte is not sent back.
    if (value.length > MAX_BOUND_LENGTH) return this.miss(name, `the target gave ${name} ${value.length} characters long, more than the ${MAX_BOUND_LENGTH} verify sends back`);
    this.#values.set(name, value);
    this.#missing.delete(name);
  }

  miss(name: string, reason: string): void {
    this.#values.delete(name);
    this.#missing.set(name, reason);
  }

  get(name: string): string | undefined {
    return this.#values.get(name);
  }

  /** Why a value is not known. */
  reason(name: string): string {
    return this.#missing.get(name) ?? `${name} was not found (the step that finds it was not sent or failed)`;
  }

  /** The values as a step's bind sees them: it reads any, and sets or misses only those it declares. */
  forStep(step: Step): VarsView {
    const declared = new Set(step.binds ?? []);
    const guard = (name: string) => {
      if (!declared.has(name)) throw new Error(`verify: step ${step.key} binds ${name}, which it does not declare`);
    };
    return {
      get: (name) => this.get(name),
      reason: (name) => this.reason(name),
      set: (name, value) => (guard(name), this.set(name, value)),
      miss: (name, reason) => (guard(name), this.miss(name, reason)),
    };
  }
}

/** The answers of the steps sent, and why the others were not. */
export class Answers {
  readonly #answers = new Map<string, { step: Step; exchange: Exchange }>();
  readonly #skipped = new Map<string, string>();
  readonly #lost = new Map<string, string>();

  record(step: Step, exchange: Exchange): void {
    this.#answers.set(step.key, { step, exchange });
  }

  skip(key: string, reason: string): void {
    this.#skipped.set(key, reason);
  }

  /** The step was sent and no usable answer came (the run stops): a write may or may not have taken effect. */
  lose(key: string, reason: string): void {
    this.#lost.set(key, reason);
  }

  /** Why a step sent has no answer. */
  lost(key: string): string | undefined {
    return this.#lost.get(key);
  }

  has(key: string): boolean {
    return this.#answers.has(key);
  }

  /** The step's answer; only for a step that was sent (a check's declared steps were). */
  get(key: string): Exchange {
    const found = this.#answers.get(key);
    if (!found) throw new Error(`verify: no answer of step ${key}`);
    return found.exchange;
  }

  /** The answer's `data`, whatever it is (read it with the readers of read.ts); undefined for a step not sent. */
  data(key: string): unknown {
    return dataOfBody(this.#answers.get(key)?.exchange.body);
  }

  /** Why a step was not sent. */
  skipped(key: string): string | undefined {
    return this.#skipped.get(key);
  }

  /** Every answer with its step, in the order they came. */
  all(): { step: Step; exchange: Exchange }[] {
    return [...this.#answers.values()];
  }
}

const PLACEHOLDER = /\{([\w.-]+)\}/g;

/** The values a step needs before it can be sent. */
export function needsOf(step: Step): string[] {
  const texts = [...Object.values(step.params ?? {}), ...Object.values(step.query ?? {})];
  const found = texts.flatMap((text) => [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!));
  return [...new Set([...found, ...(step.needs ?? [])])];
}

/**
 * The step's request. `value` gives a bound value, or (in plan mode) its placeholder `{name}`,
 * which goes into the path as it is.
 */
export function requestOf(step: Step, value: (name: string) => string, plan: boolean): VerifyRequest {
  const fill = (text: string) => text.replace(PLACEHOLDER, (_, name: string) => (plan && value(name) === `{${name}}` ? `{${name}}` : encodeURIComponent(value(name))));
  if (step.op === "graphql") return { method: "POST", path: GRAPHQL_PATH, body: step.body?.(value) };
  const op = OPERATIONS[step.op];
  const path = op.path.replace(PLACEHOLDER, (_, name: string) => {
    const given = step.params?.[name];
    if (given === undefined) throw new Error(`verify: step ${step.key} gives no path parameter ${name} of ${op.id}`);
    return fill(given);
  });
  const query = Object.entries(step.query ?? {}).map(([name, text]) => `${encodeURIComponent(name)}=${fill(text)}`);
  const body = step.body?.(value);
  return {
    method: op.method.toUpperCase() as VerifyRequest["method"],
    path: `${API_BASE}${path}${query.length > 0 ? `?${query.join("&")}` : ""}`,
    ...(body !== undefined && { body }),
    ...(step.wrongSecret && { wrongSecret: true }),
  };
}
