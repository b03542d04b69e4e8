/**
 * `verify()`: the run. Options checked and waivers read before anything is sent; then each step in
 * order through the polite client, the checks judged on the answers, the report made. A run that
 * cannot go on (the target unreachable, a customer that may not be written) throws a TargetError,
 * with the requests that restore the customer when writes had begun.
 * @module
 */
import { CHECKS, stepsOf } from "./checks/index.js";
import { customerOutcome } from "./checks/writes/customer.js";
import { FINAL_READS } from "./checks/writes/steps.js";
import { PoliteClient } from "./client.js";
import { judgeChecks } from "./judge.js";
import { parseVerifyOptions, type VerifyOptions } from "./options.js";
import { requestOf, Vars } from "./plan.js";
import { safeReport, writeReports } from "./report/index.js";
import type { Report, Status } from "./report/types.js";
import { StepRunner } from "./runner.js";
import { dayOf, loadWaivers, type Waiver } from "./waivers.js";

/** What a test or an embedding program may replace. */
export interface VerifyDeps {
  /** The fetch a URL target is called with (the global one by default). */
  fetch?: typeof fetch;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** How long a request and its answer may take (30 s by default). */
  timeoutMs?: number;
}

export type VerifyResult = { kind: "plan"; requests: string[] } | { kind: "report"; report: Report };

/** The target's fetch, origin and credentials: `self` is a simulator made here, in process. */
async function connect(target: string, options: { apiKey?: string | undefined; apiSecret?: string | undefined; plan: boolean }, deps: VerifyDeps) {
  // A plan sends nothing: no simulator is built for it, no credential is needed.
  if (target !== "self" || options.plan) return { fetch: deps.fetch ?? fetch, origin: target, apiKey: options.apiKey ?? "", apiSecret: options.apiSecret ?? "", pace: true };
  // Loaded only for self: a run against a URL does not build a simulator.
  const [{ createSelfSimulator }, { IN_PROCESS_ORIGIN }] = await Promise.all([import("./self.js"), import("../simulator/in-process.js")]);
  const sim = createSelfSimulator(options);
  return { fetch: sim.fetch, origin: IN_PROCESS_ORIGIN, apiKey: sim.apiKey, apiSecret: sim.apiSecret, pace: false };
}

export async function verify(input: VerifyOptions, deps: VerifyDeps = {}): Promise<VerifyResult> {
  const options = parseVerifyOptions(input);
  const waivers: Waiver[] = options.waivers !== undefined ? loadWaivers(options.waivers) : [];
  const now = deps.now ?? Date.now;
  const startedAt = new Date(now()).toISOString();
  const steps = stepsOf(options.allowWrites);
  const vars = new Vars();
  if (options.customer !== undefined) vars.set("customer", options.customer);
  const connection = await connect(options.target, options, deps);
  let index = 0;
  const client = new PoliteClient({
    ...connection,
    writes: options.allowWrites,
    plan: options.plan,
    left: () => steps.length - index,
    ...(deps.sleep && { sleep: deps.sleep }),
    ...(deps.now && { now: deps.now }),
    ...(deps.timeoutMs !== undefined && { timeoutMs: deps.timeoutMs }),
  });

  if (options.plan) {
    for (const step of steps) await client.send(requestOf(step, (name) => vars.get(name) ?? `{${name}}`, true));
    return { kind: "plan", requests: client.planned };
  }

  const runner = new StepRunner(client, vars, options.target);
  const { answers } = runner;
  try {
    for (; index < steps.length; index++) {
      const step = steps[index]!;
      // The pairs are done: whatever one left undone is undone before the customer is read last.
      if (step === FINAL_READS[0]) await runner.undo();
      await runner.run(step, index === 0);
    }
  } catch (error) {
    throw await runner.afterStop(error, options.customer ?? "");
  }

  // Made safe once, here: the reports written and the one returned (and printed) are the same.
  const report = safeReport(makeReport(), [connection.apiKey, connection.apiSecret]);
  writeReports(report, options.reports, [connection.apiKey, connection.apiSecret]);
  return { kind: "report", report };

  function makeReport(): Report {
    const checks = CHECKS.filter((c) => c.phase === "read" || options.allowWrites);
    const judged = judgeChecks(checks, answers, vars, waivers, dayOf(now()));
    const summary: Record<Status, number> = { pass: 0, fail: 0, skip: 0, waived: 0 };
    for (const check of judged.reports) summary[check.status]++;
    return {
      target: options.target,
      startedAt,
      mode: options.allowWrites ? "write" : "read",
      requests: client.sent,
      summary,
      checks: judged.reports,
      customer: options.allowWrites ? { id: options.customer!, ...customerOutcome(answers, vars) } : null,
      waivers: { unmatched: judged.unmatched, expired: judged.expired },
      notes: [
        ...(client.slowed ? ["X-RateLimit-Remaining was below the requests the run still had to send: it slowed to one request every 3600/X-RateLimit-Limit seconds"] : []),
        ...(runner.undone.length > 0 ? [`A pair was left half done: the run undid it with ${runner.undone.join("; ")}`] : []),
      ],
    };
  }
}
