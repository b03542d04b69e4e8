/**
 * The polite client, alone: its pace (10 a second, slower when the quota would not last), its
 * wait on 429, its budget, plan mode, and the read-only rule that refuses anything that could
 * write before it leaves. A fake fetch and a fake clock: nothing waits.
 */
import { describe, expect, it } from "vitest";
import { PoliteClient, REQUEST_BUDGET, retryAfterSeconds, TargetError, WRONG_SECRET, type ClientOptions } from "../../src/verify/client.js";
import { ReadOnlyViolation } from "../../src/verify/read-only.js";

const SECRET = "s3cret-never-shown";

/** A client over a fake fetch answering `answers` in turn (the last one again and again), on a fake clock. */
function client(answers: { status?: number; headers?: Record<string, string> }[], options: Partial<ClientOptions> = {}) {
  let now = 1_000_000;
  const sleeps: number[] = [];
  const starts: number[] = [];
  const sent: { url: string; init: RequestInit }[] = [];
  const fake: typeof fetch = async (url, init) => {
    starts.push(now);
    sent.push({ url: String(url), init: init! });
    const answer = answers[Math.min(sent.length - 1, answers.length - 1)]!;
    return new Response(JSON.stringify({ success: true, data: {} }), { status: answer.status ?? 200, headers: { "Content-Type": "application/json", ...answer.headers } });
  };
  const polite = new PoliteClient({
    origin: "https://loyalty.example",
    fetch: fake,
    apiKey: "key-never-shown",
    apiSecret: SECRET,
    writes: false,
    plan: false,
    pace: true,
    left: () => 10,
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    ...options,
  });
  return { polite, sleeps, starts, sent };
}

const get = (path = "/rest_api/v1/shop") => ({ method: "GET" as const, path });
const quota = (remaining: number) => ({ headers: { "X-RateLimit-Limit": "1000", "X-RateLimit-Remaining": String(remaining) } });

describe("the polite client's pace", () => {
  it("starts at most 10 requests a second", async () => {
    const { polite, starts } = client([quota(900)]);
    for (let i = 0; i < 5; i++) await polite.send(get());
    expect(starts.map((t, i) => t - (starts[i - 1] ?? t))).toEqual([0, 100, 100, 100, 100]);
    expect([polite.sent, polite.slowed]).toEqual([5, false]);
  });

  it("slows to one request every 3600/X-RateLimit-Limit seconds once the quota left is below the requests still to send", async () => {
    const { polite, starts } = client([quota(12), quota(9), quota(8)], { left: () => 10 });
    for (let i = 0; i < 3; i++) await polite.send(get());
    // 12 left for 10 to send: full pace; then 9 left: 3.6 s apart (a quota of 1000 an hour).
    expect(starts.map((t, i) => t - (starts[i - 1] ?? t))).toEqual([0, 100, 3600]);
    expect(polite.slowed).toBe(true);
  });

  it("does not pace a target that has no quota to spare (self)", async () => {
    const { polite, sleeps } = client([quota(1)], { pace: false });
    for (let i = 0; i < 3; i++) await polite.send(get());
    expect(sleeps).toEqual([]);
  });
});

describe("the polite client on 429", () => {
  it("waits Retry-After and sends again, each attempt counted", async () => {
    const { polite, sleeps } = client([{ status: 429, headers: { "Retry-After": "2" } }, { status: 200 }]);
    const answer = await polite.send(get());
    expect(answer!.status).toBe(200);
    expect(sleeps).toEqual([2000]);
    expect(polite.sent).toBe(2);
  });

  it("stops after 4 answers of 429 in a row, and at once when Retry-After is over 300 s", async () => {
    const always = client([{ status: 429, headers: { "Retry-After": "1" } }]);
    await expect(always.polite.send(get())).rejects.toThrow(new TargetError("GET /rest_api/v1/shop was answered 429 4 times in a row: the target's quota is spent; run verify again later"));
    expect(always.polite.sent).toBe(4);
    const long = client([{ status: 429, headers: { "Retry-After": "301" } }]);
    await expect(long.polite.send(get())).rejects.toThrow("Retry-After 301 s (more than 300 s)");
    expect(long.sleeps).toEqual([]);
  });

  it("reads Retry-After as seconds or as a date, a minute when absent", () => {
    expect(retryAfterSeconds("7")).toBe(7);
    expect(retryAfterSeconds(new Date(Date.UTC(2026, 0, 1, 0, 0, 30)).toUTCString(), Date.UTC(2026, 0, 1))).toBe(30);
    expect(retryAfterSeconds(undefined)).toBe(60);
  });
});

describe("the polite client's limits and secrets", () => {
  it("sends no more than the budget of 150 requests", async () => {
    const { polite } = client([{ status: 200 }], { pace: false });
    for (let i = 0; i < REQUEST_BUDGET; i++) await polite.send(get());
    await expect(polite.send(get())).rejects.toThrow(`the run's budget of ${REQUEST_BUDGET} requests is spent`);
    expect(polite.sent).toBe(REQUEST_BUDGET);
  });

  it("sends the credentials as headers only, a fixed wrong secret when asked, and names neither in an error", async () => {
    const { polite, sent } = client([{ status: 200 }]);
    await polite.send(get());
    await polite.send({ ...get(), wrongSecret: true });
    expect(sent.map((s) => (s.init.headers as Record<string, string>)["X-Api-Secret"])).toEqual([SECRET, WRONG_SECRET]);
    const failing = new PoliteClient({ ...clientOptions(), fetch: async () => Promise.reject(new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } })) });
    const error = await failing.send(get()).catch((e: unknown) => e as Error);
    expect(error).toEqual(new TargetError("could not reach https://loyalty.example (GET /rest_api/v1/shop): ECONNREFUSED", true));
  });

  it("in plan mode writes each request down and sends none", async () => {
    const { polite, sent } = client([{ status: 200 }], { plan: true, writes: true });
    await polite.send(get());
    await polite.send({ method: "POST", path: "/rest_api/v1/customers/1/stamps/award", body: { stamps: 1 } });
    expect(polite.planned).toEqual(["GET /rest_api/v1/shop", "POST /rest_api/v1/customers/1/stamps/award"]);
    expect([sent.length, polite.sent]).toEqual([0, 0]);
  });
});

function clientOptions(): ClientOptions {
  return { origin: "https://loyalty.example", fetch, apiKey: "k", apiSecret: SECRET, writes: false, plan: false, pace: false, left: () => 1 };
}

describe("a read-only run", () => {
  const refused = [
    ["a REST write", { method: "POST", path: "/rest_api/v1/customers/1/stamps/award", body: { stamps: 1 } }, "POST /rest_api/v1/customers/1/stamps/award"],
    ["a PATCH", { method: "PATCH", path: "/rest_api/v1/customers/1", body: { excluded: true } }, "PATCH /rest_api/v1/customers/1"],
    ["a GET of the control API", { method: "GET", path: "/__sim/requests" }, "GET /__sim/requests"],
    ["a GraphQL mutation", { method: "POST", path: "/graphql", body: { query: 'mutation { awardStamps(customerId: "1", stamps: 1) { stampBalance } }' } }, "a mutation operation"],
    ["a query beside a mutation", { method: "POST", path: "/graphql", body: { query: 'query A { shop { currency } } mutation B { awardStamps(customerId: "1", stamps: 1) { stampBalance } }' } }, "a mutation operation"],
    ["a document that does not parse", { method: "POST", path: "/graphql", body: { query: "{" } }, "a document that does not parse"],
  ] as const;

  it.each(refused)("refuses %s before it leaves, in plan mode too", async (_name, request, named) => {
    for (const plan of [false, true]) {
      const { polite, sent } = client([{ status: 200 }], { plan });
      const error = await polite.send(request).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ReadOnlyViolation);
      expect((error as Error).message).toContain(named);
      expect([sent.length, polite.planned.length]).toEqual([0, 0]);
    }
  });

  it("sends REST GETs and GraphQL queries (fragments allowed)", async () => {
    const { polite, sent } = client([{ status: 200 }]);
    await polite.send(get("/rest_api/v1/customers?limit=2"));
    await polite.send({ method: "POST", path: "/graphql", body: { query: "query Q { shop { ...S } } fragment S on Shop { currency }" } });
    expect(sent.map((s) => `${s.init.method} ${new URL(s.url).pathname}`)).toEqual(["GET /rest_api/v1/customers", "POST /graphql"]);
  });
});
