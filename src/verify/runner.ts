/**
 * Sending the run's steps: each one only when the values it needs are known, its answer recorded
 * (or, when none came, the step noted as lost: a write may have taken effect), its bind read. A
 * bind may stop the run with a TargetError; any other exception it throws is a bug caught here, and
 * the values it would have bound are missing with the reason, so no bug can stop the run between
 * a write and its undo. The undo steps go before the final reads, and again after a stop.
 * @module
 */
import { codeText, brief } from "./checks/check.js";
import { FINAL_READS } from "./checks/writes/steps.js";
import { UNDO_STEPS } from "./checks/writes/undo.js";
import { TargetError, type Exchange, type PoliteClient } from "./client.js";
import { Answers, needsOf, requestOf, Vars, type Step } from "./plan.js";
import { field } from "./read.js";
import { describeState, restoreRequests, stateOf } from "./restore.js";

/** Why something thrown failed, in a phrase. */
export const failureOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The first answer tells whether the target is the loyalty API and takes the credentials. */
function firstAnswerProblem(exchange: Exchange, origin: string): string | undefined {
  if (exchange.status === 401 || exchange.status === 403) {
    const code = field(field(exchange.body, "error"), "code");
    return `the target refused the credentials: ${exchange.request} answered ${exchange.status}${code === undefined ? "" : ` ${codeText(code)}`}; check --api-key and --api-secret (and that API access is enabled for the shop)`;
  }
  if (typeof field(exchange.body, "success") !== "boolean") {
    const type = exchange.headers["content-type"];
    return `${origin} did not answer as the loyalty API does: ${exchange.request} answered ${exchange.status} ${type === undefined ? "without a content type" : brief(type)}; --target takes the service's origin, e.g. https://stamp.appydesign.io`;
  }
  return undefined;
}

export class StepRunner {
  readonly answers = new Answers();
  /** The undo steps sent, as `METHOD /path {body}`, for the report. */
  readonly undone: string[] = [];
  /** Whether a write was sent (answered or not): from then on a stop owes the customer an undo. */
  wrote = false;

  constructor(
    readonly client: PoliteClient,
    readonly vars: Vars,
    readonly target: string,
  ) {}

  async run(step: Step, first = false): Promise<void> {
    const missing = needsOf(step).find((name) => this.vars.get(name) === undefined);
    if (missing !== undefined) return this.answers.skip(step.key, this.vars.reason(missing));
    const request = requestOf(step, (name) => this.vars.get(name)!, false);
    const sent = this.client.sent;
    if (request.method !== "GET" && step.op !== "graphql") this.wrote = true;
    let exchange: Exchange;
    try {
      exchange = (await this.client.send(request))!;
    } catch (error) {
      if (this.client.sent > sent) this.answers.lose(step.key, failureOf(error));
      throw error;
    }
    const problem = first ? firstAnswerProblem(exchange, this.target) : undefined;
    if (problem) throw new TargetError(problem);
    this.answers.record(step, exchange);
    try {
      step.bind?.(exchange, { vars: this.vars.forStep(step), answers: this.answers });
    } catch (error) {
      if (error instanceof TargetError) throw error;
      for (const name of step.binds ?? []) this.vars.miss(name, `could not read the answer of ${exchange.request}: ${failureOf(error)}`);
    }
  }

  /** Sends each undo step the run's record says is owed. */
  async undo(): Promise<void> {
    for (const { step, owed } of UNDO_STEPS) {
      if (!owed(this.answers, this.vars)) continue;
      await this.run(step);
      if (this.answers.has(step.key)) this.undone.push(describeRequest(step, this.vars));
    }
  }

  /**
   * The run stopped (`error`) after it began to write: the undo steps that can run do (past the
   * budgets by a few), the customer is read if the target still answers, and the error says what
   * was undone and how to restore the rest, from the run's own record.
   */
  async afterStop(error: unknown, customer: string): Promise<unknown> {
    if (!this.wrote) return error;
    this.client.allowUndo();
    let answering = !(error instanceof TargetError && error.noAnswer);
    for (const { step, owed } of UNDO_STEPS) {
      if (!answering || !owed(this.answers, this.vars)) continue;
      answering = await this.#tryRun(step);
      if (this.answers.has(step.key)) this.undone.push(describeRequest(step, this.vars));
    }
    for (const step of FINAL_READS) if (answering) answering = await this.#tryRun(step);
    const before = stateOf(this.answers, "before.customer", "before.codes");
    const now = this.answers.has("after.customer") ? stateOf(this.answers, "after.customer", "after.codes") : null;
    const restore = before ? restoreRequests(customer, before, null, this.answers, this.vars) : [];
    const lines = [`${failureOf(error)}`, `The run stopped after it began to write.${this.undone.length > 0 ? ` It undid what it could: ${this.undone.join("; ")}.` : ""}`];
    if (now) lines.push(`Customer ${customer} reads now: ${describeState(now)}.`);
    lines.push(restore.length > 0 ? `By the run's record, customer ${customer} may not be as it was. To restore it, send:\n  ${restore.join("\n  ")}` : `By the run's record, customer ${customer} is as it was found.`);
    const message = lines.join("\n");
    if (error instanceof TargetError) return new TargetError(message, error.noAnswer);
    if (error instanceof Error) return Object.assign(error, { message });
    return new Error(message);
  }

  /** Whether the target still answers after the step (sent or not). */
  async #tryRun(step: Step): Promise<boolean> {
    try {
      await this.run(step);
      return true;
    } catch (error) {
      return !(error instanceof TargetError && error.noAnswer);
    }
  }
}

/** `POST /path {body}`, as the report names an undo. */
function describeRequest(step: Step, vars: Vars): string {
  const request = requestOf(step, (name) => vars.get(name) ?? `{${name}}`, true);
  return `${request.method} ${request.path}${request.body === undefined ? "" : ` ${JSON.stringify(request.body)}`}`;
}
