/**
 * The safety nets that keep a bug in a check or a bind from stopping a run between a write and its
 * undo: a bind that throws leaves the values it declares missing, with why; a judge that throws
 * fails its own check, with why. A fake target: nothing waits.
 */
import { describe, expect, it } from "vitest";
import type { Check } from "../../src/verify/checks/check.js";
import { PoliteClient } from "../../src/verify/client.js";
import { judgeChecks } from "../../src/verify/judge.js";
import { Vars, type Step } from "../../src/verify/plan.js";
import { StepRunner } from "../../src/verify/runner.js";

const shopAnswer = async () => new Response(JSON.stringify({ success: true, data: { name: "x" } }), { headers: { "Content-Type": "application/json" } });
const client = () => new PoliteClient({ origin: "https://loyalty.example", fetch: shopAnswer, apiKey: "key", apiSecret: "secret", writes: false, plan: false, pace: false, left: () => 1 });

function makeRunner() {
  const vars = new Vars();
  return { vars, runner: new StepRunner(client(), vars, "https://loyalty.example") };
}

describe("a bind that throws", () => {
  it("leaves each value it declares missing, with why, and the run goes on", async () => {
    const { vars, runner } = makeRunner();
    const step: Step = {
      key: "shop",
      phase: "read",
      op: "getShop",
      binds: ["tier", "reward"],
      bind(_answer, { vars: bound }) {
        bound.set("tier", "1");
        throw new TypeError("listed.find is not a function");
      },
    };
    await runner.run(step);
    expect([vars.get("tier"), vars.reason("tier"), vars.reason("reward")]).toEqual([
      undefined,
      "could not read the answer of GET /rest_api/v1/shop: listed.find is not a function",
      "could not read the answer of GET /rest_api/v1/shop: listed.find is not a function",
    ]);
    expect(runner.answers.has("shop")).toBe(true);
  });

  it("may set only the values it declares: another is a bug, caught the same way", async () => {
    const { vars, runner } = makeRunner();
    const step: Step = { key: "shop", phase: "read", op: "getShop", binds: ["tier"], bind: (_answer, { vars: bound }) => bound.set("reward", "1") };
    await runner.run(step);
    expect([vars.get("reward"), vars.reason("tier")]).toEqual([undefined, "could not read the answer of GET /rest_api/v1/shop: verify: step shop binds reward, which it does not declare"]);
  });
});

describe("a judge that throws", () => {
  it("fails its own check, saying why; the other checks are judged", async () => {
    const { vars, runner } = makeRunner();
    await runner.run({ key: "shop", phase: "read", op: "getShop" });
    const base = { title: "t", basis: "documented" as const, phase: "read" as const, expected: "e", steps: ["shop"] };
    const checks: Check[] = [
      { ...base, id: "a", judge: () => [null].forEach((x) => (x as unknown as { id: string }).id) },
      { ...base, id: "b", judge: (_context, judge) => void (judge.observed = "fine") },
    ];
    const { reports } = judgeChecks(checks, runner.answers, vars, [], "2026-11-23");
    expect(reports.map((r) => [r.id, r.status, r.observed, r.request])).toEqual([
      ["a", "fail", "could not read the answer of GET /rest_api/v1/shop: Cannot read properties of null (reading 'id')", "GET /rest_api/v1/shop"],
      ["b", "pass", "fine", "GET /rest_api/v1/shop"],
    ]);
  });
});
