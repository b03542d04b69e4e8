/**
 * Concurrency on a real port: many requests in flight at once against one customer. Whatever
 * order the server takes them in, a balance is spent at most once, a code is voided (refunded)
 * at most once, no award is lost, and every balance equals the sum of its ledger.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, killAll, startCli, stopCli, type StartedCli } from "../support/cli.js";

const HEADERS = { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret", "Content-Type": "application/json" };

interface Answer {
  status: number;
  body: any;
}

/** One request; `path` is under /rest_api/v1 unless it starts with /__sim. */
async function call(origin: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const url = path.startsWith("/__sim") ? `${origin}${path}` : `${origin}/rest_api/v1${path}`;
  const res = await fetch(url, { method, headers: HEADERS, ...(body !== undefined && { body: JSON.stringify(body) }) });
  return { status: res.status, body: await res.json() };
}

/** Every activity of a customer, walking the cursors (newest first). */
async function ledger(origin: string, id: string): Promise<{ id: string; label: string; stampChange: number }[]> {
  const out: { id: string; label: string; stampChange: number }[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await call(origin, "GET", `/customers/${id}/activities?limit=7${after ? `&after=${after}` : ""}`);
    expect(page.status).toBe(200);
    out.push(...page.body.data);
    if (!page.body.meta.pagination.hasNext) return out;
    after = page.body.meta.pagination.nextCursor;
  }
}

async function balance(origin: string, id: string): Promise<number> {
  const got = await call(origin, "GET", `/customers/${id}`);
  expect(got.status).toBe(200);
  return got.body.data.stampBalance as number;
}

/** The ledger invariant, checked through the API only. */
async function expectLedgerMatches(origin: string, id: string, expected: number): Promise<void> {
  expect(await balance(origin, id)).toBe(expected);
  const entries = await ledger(origin, id);
  expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length); // no entry seen twice across pages
  expect(entries.reduce((sum, e) => sum + e.stampChange, 0)).toBe(expected);
}

let customerNo = 0;
async function newCustomer(origin: string, stampBalance: number): Promise<string> {
  const n = ++customerNo;
  const made = await call(origin, "POST", "/__sim/customers", { firstName: "Race", lastName: `Case${n}`, email: `race${n}@example.com`, stampBalance });
  expect(made.status).toBe(201);
  expect(made.body.stampBalance).toBe(stampBalance);
  return made.body.id as string;
}

const count = (answers: Answer[], status: number) => answers.filter((a) => a.status === status).length;
const codesOf = (answers: Answer[]) => [...new Set(answers.map((a) => a.body?.error?.code))];

// Once without delay, and once with a random 0-4 ms latency per request so that the server
// takes the racing requests in a shuffled order.
const SERVERS = [
  ["no added latency", []],
  ["0-4 ms random latency", ["--latency", "0-4"]],
] as const;

beforeAll(() => ensureBuilt());
afterAll(killAll);

describe.each(SERVERS)("racing requests on a real port (%s)", (_name, extra) => {
  let cli: StartedCli;
  let price: number;
  beforeAll(async () => {
    cli = await startCli(["--port", "0", "--rate-limit", "off", "--quiet", "--customers", "5", ...extra]);
    const reward = await call(cli.origin, "GET", "/rewards/102");
    expect(reward.status).toBe(200);
    price = reward.body.data.price as number;
    expect(price).toBeGreaterThan(0);
  });
  afterAll(() => stopCli(cli));

  it("200 concurrent redemptions against a balance for exactly 7: 7 succeed, 193 INSUFFICIENT_STAMPS", async () => {
    const id = await newCustomer(cli.origin, 7 * price);
    const answers = await Promise.all(Array.from({ length: 200 }, () => call(cli.origin, "POST", `/customers/${id}/redemptions`, { reward_product_id: 102 })));
    expect(count(answers, 200)).toBe(7);
    expect(count(answers, 422)).toBe(193);
    const refused = answers.filter((a) => a.status === 422);
    expect(codesOf(refused)).toEqual(["INSUFFICIENT_STAMPS"]);
    // Refusals only ever saw an empty balance: the balance moves in steps of the price.
    const message = `Customer ${id} has 0 stamps; Free coffee of your choice costs ${price}`;
    expect(new Set(refused.map((a) => JSON.stringify(a.body.error)))).toEqual(new Set([JSON.stringify({ message, code: "INSUFFICIENT_STAMPS", statusCode: 422 })]));
    const won = answers.filter((a) => a.status === 200).map((a) => a.body.data as { code: string; stampBalance: number });
    // Each success saw its own balance: 6p, 5p, ... 0, each once.
    expect(won.map((w) => w.stampBalance).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6].map((k) => k * price));
    expect(new Set(won.map((w) => w.code)).size).toBe(7);
    const codes = await call(cli.origin, "GET", `/customers/${id}/reward-codes`);
    expect(codes.body.data).toHaveLength(7);
    expect(new Set(codes.body.data.map((c: { code: string }) => c.code))).toEqual(new Set(won.map((w) => w.code)));
    await expectLedgerMatches(cli.origin, id, 0);
    const entries = await ledger(cli.origin, id);
    expect(entries.filter((e) => e.stampChange === -price)).toHaveLength(7);
    expect(entries).toHaveLength(8); // the opening balance and 7 redemptions, nothing for the refusals
  });

  it.each([2, 20])("%i concurrent voids of one code: exactly one refund, the others VOID_FAILED", async (racers) => {
    const id = await newCustomer(cli.origin, price);
    const redeemed = await call(cli.origin, "POST", `/customers/${id}/redemptions`, { reward_product_id: 102 });
    expect(redeemed.status).toBe(200);
    expect(redeemed.body.data.stampBalance).toBe(0);
    const [code] = (await call(cli.origin, "GET", `/customers/${id}/reward-codes`)).body.data as { id: string }[];
    const answers = await Promise.all(Array.from({ length: racers }, () => call(cli.origin, "POST", `/customers/${id}/reward-codes/${code!.id}/void`)));
    expect(count(answers, 200)).toBe(1);
    expect(count(answers, 422)).toBe(racers - 1);
    expect(codesOf(answers.filter((a) => a.status === 422))).toEqual(["VOID_FAILED"]);
    expect(answers.find((a) => a.status === 200)!.body.data).toMatchObject({ id: code!.id, used: true });
    await expectLedgerMatches(cli.origin, id, price);
    expect((await ledger(cli.origin, id)).filter((e) => e.stampChange === price && e.label.startsWith("Refund for voided"))).toHaveLength(1);
  });

  it("a use and a void of one code racing: the code is refunded at most once and the ledger agrees", async () => {
    const id = await newCustomer(cli.origin, price);
    await call(cli.origin, "POST", `/customers/${id}/redemptions`, { reward_product_id: 102 });
    const [code] = (await call(cli.origin, "GET", `/customers/${id}/reward-codes`)).body.data as { id: string }[];
    const [used, voided] = await Promise.all([
      call(cli.origin, "POST", `/customers/${id}/reward-codes/${code!.id}/use`),
      call(cli.origin, "POST", `/customers/${id}/reward-codes/${code!.id}/void`),
    ]);
    // Use first: the void fails, nothing refunded. Void first: the use is a no-op success, refunded once.
    expect(used!.status).toBe(200);
    expect([200, 422]).toContain(voided!.status);
    if (voided!.status === 422) expect(voided!.body.error.code).toBe("VOID_FAILED");
    await expectLedgerMatches(cli.origin, id, voided!.status === 200 ? price : 0);
  });

  it("100 concurrent awards of 1 stamp: +100 exactly, each answer a distinct step", async () => {
    const id = await newCustomer(cli.origin, 3);
    const answers = await Promise.all(Array.from({ length: 100 }, () => call(cli.origin, "POST", `/customers/${id}/stamps/award`, { stamps: 1 })));
    expect(count(answers, 200)).toBe(100);
    expect(answers.every((a) => a.body.data.stampChange === 1)).toBe(true);
    expect(answers.map((a) => a.body.data.stampBalance as number).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, k) => 4 + k));
    await expectLedgerMatches(cli.origin, id, 103);
    expect(await ledger(cli.origin, id)).toHaveLength(101);
  });

  it("60 concurrent deductions of 1 against 25 stamps: 25 succeed, 35 INSUFFICIENT_STAMPS, never below zero", async () => {
    const id = await newCustomer(cli.origin, 25);
    const answers = await Promise.all(Array.from({ length: 60 }, () => call(cli.origin, "POST", `/customers/${id}/stamps/adjust`, { stamps: -1 })));
    expect(count(answers, 200)).toBe(25);
    expect(count(answers, 422)).toBe(35);
    expect(codesOf(answers.filter((a) => a.status === 422))).toEqual(["INSUFFICIENT_STAMPS"]);
    await expectLedgerMatches(cli.origin, id, 0);
  });

  it("mixed racing traffic on one customer (awards, redemptions, voids): the ledger invariant holds", async () => {
    const id = await newCustomer(cli.origin, 2 * price);
    const first = await Promise.all(Array.from({ length: 10 }, () => call(cli.origin, "POST", `/customers/${id}/redemptions`, { reward_product_id: 102 })));
    expect(count(first, 200)).toBe(2);
    const codes = (await call(cli.origin, "GET", `/customers/${id}/reward-codes`)).body.data as { id: string }[];
    const answers = await Promise.all([
      ...Array.from({ length: 40 }, () => call(cli.origin, "POST", `/customers/${id}/stamps/award`, { stamps: 1 })),
      ...Array.from({ length: 20 }, () => call(cli.origin, "POST", `/customers/${id}/redemptions`, { reward_product_id: 102 })),
      ...codes.flatMap((c) => [0, 1, 2].map(() => call(cli.origin, "POST", `/customers/${id}/reward-codes/${c.id}/void`))),
    ]);
    expect(answers.filter((a) => a.status !== 200 && a.status !== 422)).toEqual([]);
    const redeemed = count(answers.slice(40, 60), 200);
    expect(count(answers.slice(60), 200)).toBe(2); // each of the 2 codes refunded once
    await expectLedgerMatches(cli.origin, id, 40 + 2 * price - redeemed * price);
  });
});
