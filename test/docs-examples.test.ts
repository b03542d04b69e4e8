/**
 * The docs' examples against the simulator they describe: each page's curl examples run in order
 * on a simulator with the default options (seed 1, 50 customers, the bundled program), as
 * `npx loyalty-sim` starts it, and each answer is checked against what the page shows; every
 * customer, reward, earn rule and tier id the docs write exists with the default seed.
 * The clock stands at one instant: the seeded balances the docs show expire a year after each
 * customer's last visit (the README says when), and a test must not fail on a date.
 */
import { describe, expect, it } from "vitest";
import { createSimulator, IN_PROCESS_ORIGIN, SimClock } from "../src/index.js";
import { ROOT } from "./support/cli.js";
import { curlExamples, differences, type CurlExample } from "./support/doc-examples.js";
import { docPages } from "./support/doc-snippets.js";
import { AUTH, BASE, NOW } from "./support/sim.js";

const pages = docPages(ROOT);
const defaultSimulator = () => createSimulator({ newClock: () => new SimClock(() => NOW) });

/** The docs show a refusal: the API's error envelope, or GraphQL's errors. */
const showsRefusal = (shown: unknown) => shown !== null && typeof shown === "object" && ((shown as { success?: unknown }).success === false || "errors" in shown);

async function answer(sim: ReturnType<typeof defaultSimulator>, example: CurlExample) {
  const res = await sim.fetch(`${IN_PROCESS_ORIGIN}${example.path}`, { method: example.method, headers: example.headers, ...(example.body !== undefined && { body: example.body }) });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, ok: res.ok, json, text };
}

describe("the docs' curl examples, on a simulator with the default options", () => {
  const withExamples = pages.map((page) => [page.source, curlExamples(page, ROOT)] as const).filter(([, examples]) => examples.length > 0);

  it("are the README's tour and the examples of the control API and GraphQL pages", () => {
    expect(withExamples.map(([source, examples]) => [source, examples.some((e) => e.expected !== undefined)])).toEqual([
      ["README.md", true],
      ["docs/control-api.md", true],
      ["docs/graphql.md", true],
    ]);
  });

  it.each(withExamples)("%s: each answers, in order, as the page shows", async (_source, examples) => {
    const sim = defaultSimulator();
    const problems: string[] = [];
    for (const example of examples) {
      const got = await answer(sim, example);
      const request = `${example.where}: ${example.method} ${example.path}`;
      if (!got.ok && !showsRefusal(example.expected)) problems.push(`${request} answered ${got.status}: ${got.text.slice(0, 300)}`);
      if (example.expected !== undefined) problems.push(...differences(got.json, example.expected).map((d) => `${request}: ${d}`));
    }
    expect(problems).toEqual([]);
  });
});

describe("the ids the docs write, with the default seed", () => {
  const text = pages.map((page) => page.markdown).join("\n");
  const ids = (...patterns: RegExp[]) => [...new Set(patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[1]!)))].sort();
  const kinds = [
    // Customer ids are 13 digits; a message's "Customer <id>" names one too (a short id there shows a miss).
    ["customers", ids(/\b(\d{13})\b/g, /\bCustomer (\d{6,})\b/g)],
    ["rewards", ids(/\b(?:reward_product_id|rewardProductId)"?\s*:\s*"?(\d+)/g)],
    ["earn-rules", ids(/\b(?:earn_rule_id|earnRuleId)"?\s*:\s*"?(\d+)/g)],
    ["tiers", ids(/\b(?:tier_id|tierId)"?\s*:\s*"?(\d+)/g)],
  ] as const;

  it("are found in the docs", () => {
    expect(kinds.map(([kind, found]) => [kind, found.length > 0])).toEqual(kinds.map(([kind]) => [kind, true]));
  });

  it.each(kinds)("every one of %s exists", async (kind, found) => {
    const sim = defaultSimulator();
    const missing: string[] = [];
    for (const id of found) {
      const res = await sim.fetch(`${IN_PROCESS_ORIGIN}${BASE}/${kind}/${id}`, { headers: AUTH });
      if (res.status !== 200) missing.push(`${kind}/${id}: ${res.status}`);
    }
    expect(missing).toEqual([]);
  });

  it("the typed-statuses snippet's customer cannot afford its reward: the 422 it narrows on", async () => {
    const testing = pages.find((page) => page.source === "docs/testing.md")!.markdown;
    const [, id, reward] = /redemptions\.\$post\(\{ param: \{ id: "(\d+)" \}, json: \{ reward_product_id: (\d+) \} \}\)/.exec(testing) ?? [];
    expect(testing).toContain('console.log(body.error.code, body.error.details); // "INSUFFICIENT_STAMPS", undefined');
    const res = await defaultSimulator().fetch(`${IN_PROCESS_ORIGIN}${BASE}/customers/${id}/redemptions`, {
      method: "POST",
      headers: { ...AUTH, "Content-Type": "application/json" },
      body: JSON.stringify({ reward_product_id: Number(reward) }),
    });
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { code: string; details?: unknown } };
    expect([body.error.code, body.error.details]).toEqual(["INSUFFICIENT_STAMPS", undefined]);
  });
});
