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

export type Phase = "read" | "write";

/** What a step's bind may read and set. */
export interface BindContext {
  vars: Vars;
  answers: Answers;
}

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
}

/** Values bound by answers (a customer id, a cursor), or why one could not be. */
export class Vars {
  readonly #values = new Map<string, string>();
  readonly #missing = new Map<string, string>();

  set(name: string, value: string): void {
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
}

/** The answers of the steps sent, and why the others were not. */
export class Answers {
  readonly #answers = new Map<string, { step: Step; exchange: Exchange }>();
  readonly #skipped = new Map<string, string>();

  record(step: Step, exchange: Exchange): void {
    this.#answers.set(step.key, { step, exchange });
  }

  skip(key: string, reason: string): void {
    this.#skipped.set(key, reason);
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

  /** The answer's `data`, when the answer is the success envelope. */
  data(key: string): any {
    return (this.#answers.get(key)?.exchange.body as { data?: unknown } | undefined)?.data;
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
