/**
 * verify against a hostile target, fuzzed: a proxy in front of the stand-in forwards every request
 * (writes take effect) and answers a few of them otherwise (test/support/mutations.ts). Seeded, a
 * fixed number of runs. Every run ends in a report or a TargetError (no crash), within its time
 * (no hang), its output renders in every format; and a write run leaves the customer as found, or
 * prints restore lines that, sent to the stand-in as a person would, put it back.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderReport, TargetError, textReport, verify, type Report } from "../../src/verify/index.js";
import { customerState, startBystander, startHostileProxy, type Forwarded } from "../support/hostile.js";
import { mutate, mutation, type Mutation } from "../support/mutations.js";
import { followRestore, restoreLinesOf } from "../support/restore-lines.js";
import { startStandIn, writableCustomers } from "../support/verify.js";

const sim = await startStandIn({ customers: 100 });
const store = sim.engine.defaultShop().store;
const customers = writableCustomers(store, 3);
const credentials = { apiKey: sim.apiKey, apiSecret: sim.apiSecret };
const standIn = { origin: sim.url, headers: { "X-Api-Key": sim.apiKey, "X-Api-Secret": sim.apiSecret } };
/** Where redirects point: a server that must never be called. */
const elsewhere = await startBystander();
/** A run's worst case is a few stalled answers; past this it hangs. */
const RUN_LIMIT_MS = 60_000;

/**
 * A run: the answers it mutates, by their index among those the proxy receives (a read run sends
 * 28; a write run 29 reads, then its writes and their checks from index 29 on, which most
 * mutations of a write run aim at), and the customer a write run uses.
 */
const runs = (requests: number, writesFrom = 0) =>
  fc.record({
    mutations: fc.array(fc.tuple(fc.oneof({ weight: 1, arbitrary: fc.nat({ max: requests - 1 }) }, { weight: 3, arbitrary: fc.integer({ min: writesFrom, max: requests - 1 }) }), mutation), { minLength: 1, maxLength: 3 }),
    customer: fc.nat({ max: customers.length - 1 }),
  });

async function attempt(writes: string | undefined, mutations: [number, Mutation][]) {
  const at = new Map(mutations);
  const proxy = await startHostileProxy(sim.url, (answer: Forwarded) => {
    const m = at.get(answer.index);
    return m === undefined ? undefined : mutate(m, answer, elsewhere.url);
  });
  try {
    const run = verify({ target: proxy.url, ...credentials, ...(writes !== undefined && { allowWrites: true, customer: writes }) }, { sleep: async () => undefined, timeoutMs: 2_000 });
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`the run hung (no end within ${RUN_LIMIT_MS} ms)`)), RUN_LIMIT_MS)));
    const outcome = await Promise.race([run.then((result) => ({ report: result.kind === "report" ? result.report : undefined }), (error: unknown) => ({ error })), limit]).finally(() => clearTimeout(timer));
    return outcome as { report?: Report; error?: unknown };
  } finally {
    await proxy.close();
  }
}

/** No crash: a report that renders in every format, or a TargetError. */
function expectNoCrash(outcome: { report?: Report; error?: unknown }, mutations: unknown): void {
  if (outcome.error !== undefined && !(outcome.error instanceof TargetError)) throw new Error(`verify crashed on ${JSON.stringify(mutations)}: ${(outcome.error as Error)?.stack ?? String(outcome.error)}`);
  if (outcome.report) for (const render of [textReport, (r: Report) => renderReport(r, "json"), (r: Report) => renderReport(r, "junit"), (r: Report) => renderReport(r, "markdown")]) render(outcome.report);
}

describe("verify against a fuzzed hostile target", () => {
  it("read mode: no crash, no hang, whatever the answers", async () => {
    await fc.assert(
      fc.asyncProperty(runs(28), async ({ mutations }) => {
        expectNoCrash(await attempt(undefined, mutations), mutations);
      }),
      { seed: 35_001, numRuns: 40 },
    );
    expect(elsewhere.hits).toEqual([]);
  });

  it("write mode: no crash, no hang, and the customer as found or restore lines that put it back", async () => {
    await fc.assert(
      fc.asyncProperty(runs(66, 29), async ({ mutations, customer }) => {
        const id = customers[customer]!;
        const before = customerState(store, id);
        const outcome = await attempt(id, mutations);
        expectNoCrash(outcome, mutations);
        const lines = restoreLinesOf({ ...(outcome.report?.customer && { restore: outcome.report.customer.restore }), ...(outcome.error instanceof Error && { message: outcome.error.message }) });
        await followRestore(lines, standIn);
        expect({ state: customerState(store, id), mutations }).toEqual({ state: before, mutations });
      }),
      { seed: 35_002, numRuns: 40 },
    );
    expect(elsewhere.hits).toEqual([]);
  });
});
