/**
 * `npm run soak`: loyalty-sim under minutes of mixed, stateful traffic on loopback (reads, awards,
 * adjustments, redemptions, code use and void, earn rules, PATCH, tier changes, bad requests and
 * requests answered by a scenario, with a periodic POST /__sim/reset), sampling the child's memory
 * and request journal. Verdicts: memory flat, journal bounded, no 5xx, no transport errors, no
 * ledger breaks at the end. Writes bench/soak.json; exits 0 when every verdict passes, else 1.
 *
 *   npm run soak                         # 3 minutes
 *   npm run soak -- --seconds 30         # a quick run
 *   npm run soak -- --only awardStamps   # one request type (to find what grows or fails)
 */
import { parseArgs } from "node:util";
import { AUTH, killChildren, killChildrenOnExit, median, peakRssMb, rssMb, startSim, writeBenchResult } from "./lib/sim.js";

const USAGE = `npm run soak -- [options]

  --minutes N         traffic duration (default 3)
  --seconds N         traffic duration in seconds (instead of --minutes)
  --customers N       generated customers (default 1000)
  --concurrency N     requests in flight (default 20)
  --journal-size N    the simulator's --journal-size (default 1000)
  --reset-seconds N   POST /__sim/reset every N seconds (default: duration/12, 5..30; 0: never)
  --sample-seconds N  memory and journal sample interval (default: duration/40, 1..5)
  --seed N            the simulator's --seed (default 1)
  --only A,B          only these request types (names as in the result table)
  --help
`;

const { values: opt } = parseArgs({
  options: {
    minutes: { type: "string" },
    seconds: { type: "string" },
    customers: { type: "string", default: "1000" },
    concurrency: { type: "string", default: "20" },
    "journal-size": { type: "string", default: "1000" },
    "reset-seconds": { type: "string" },
    "sample-seconds": { type: "string" },
    seed: { type: "string", default: "1" },
    only: { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});
if (opt.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
function num(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) {
    console.error(`soak: --${name} takes a number >= 0, got ${value}\n\n${USAGE}`);
    process.exit(2);
  }
  return n;
}
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));
const DURATION_S = opt.seconds !== undefined ? num("seconds", opt.seconds, 0) : num("minutes", opt.minutes, 3) * 60;
const CUSTOMERS = num("customers", opt.customers, 1000);
const CONCURRENCY = Math.max(1, Math.round(num("concurrency", opt.concurrency, 20)));
const JOURNAL_SIZE = num("journal-size", opt["journal-size"], 1000);
const RESET_S = num("reset-seconds", opt["reset-seconds"], Math.round(clamp(DURATION_S / 12, 5, 30)));
const SAMPLE_S = num("sample-seconds", opt["sample-seconds"], clamp(DURATION_S / 40, 1, 5));
const SEED = num("seed", opt.seed, 1);
const REQUEST_TIMEOUT_MS = 10_000;
const API = "/rest_api/v1";
if (DURATION_S < 3 || SAMPLE_S <= 0) {
  console.error(`soak: the run needs at least 3 seconds and a sample interval above 0\n\n${USAGE}`);
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------
// Requests and their statistics

const LATENCY_SAMPLES = 4096;

class OpStats {
  count = 0;
  transportErrors = 0;
  readonly statuses = new Map<number, number>();
  /** A reservoir sample of latencies, so a long run keeps this process's memory flat too. */
  readonly latencies: number[] = [];

  record(status: number, ms: number): void {
    this.count++;
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    if (this.latencies.length < LATENCY_SAMPLES) this.latencies.push(ms);
    else {
      const j = Math.floor(Math.random() * this.count);
      if (j < LATENCY_SAMPLES) this.latencies[j] = ms;
    }
  }

  classCount(lo: number, hi: number): number {
    let n = 0;
    for (const [status, k] of this.statuses) if (status >= lo && status < hi) n += k;
    return n;
  }
}

const stats = new Map<string, OpStats>();
const statsOf = (op: string) => stats.get(op) ?? stats.set(op, new OpStats()).get(op)!;
let completed = 0;
const examples5xx: { op: string; method: string; path: string; status: number; requestBody?: string; responseBody: string }[] = [];
const transportErrorExamples: { op: string; method: string; path: string; error: string }[] = [];

interface Reply {
  status: number;
  body: any;
}

let origin = "";

/** One request, counted under `op`. Resolves to null on a transport error (also counted). */
async function call(
  op: string,
  method: string,
  path: string,
  init: { json?: unknown; raw?: string; headers?: Record<string, string>; auth?: boolean } = {},
): Promise<Reply | null> {
  const headers: Record<string, string> = { ...(init.auth === false ? {} : AUTH), ...init.headers };
  let body: string | undefined = init.raw;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers["content-type"] ??= "application/json";
  }
  const s = statsOf(op);
  const started = performance.now();
  try {
    const res = await fetch(origin + path, { method, headers, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const text = await res.text();
    s.record(res.status, performance.now() - started);
    completed++;
    if (res.status >= 500 && examples5xx.length < 20) {
      examples5xx.push({ op, method, path, status: res.status, ...(body !== undefined && { requestBody: body }), responseBody: text.slice(0, 500) });
    }
    let parsed: unknown = null;
    if (res.headers.get("content-type")?.includes("json")) {
      try {
        parsed = JSON.parse(text);
      } catch {
        // kept null: a malformed body is the caller's to notice
      }
    }
    return { status: res.status, body: parsed };
  } catch (error) {
    s.transportErrors++;
    completed++;
    if (transportErrorExamples.length < 20) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      transportErrorExamples.push({ op, method, path, error: `${String(error)}${cause ? ` (${cause})` : ""}` });
    }
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// State the traffic works on: every id comes from a real response

interface SeedCustomer {
  id: string;
  email: string;
  writable: boolean;
}

const pools = {
  /** Bumped by every reset: a reply to a request sent before it must not feed the pools. */
  generation: 0,
  seeded: [] as SeedCustomer[],
  writable: [] as string[],
  /** Removed or merged: every stamp or reward change is refused. */
  locked: [] as string[],
  emails: [] as string[],
  /** Customers added through POST /__sim/customers since the last reset. */
  added: [] as string[],
  /** Unused reward codes seen in GET .../reward-codes. */
  codes: [] as { customerId: string; id: string }[],
  /** Codes used or voided: voiding them again is 422 VOID_FAILED. */
  spent: [] as { customerId: string; id: string }[],
  cursors: [] as string[],
};

const rand = (n: number) => Math.floor(Math.random() * n);
const between = (lo: number, hi: number) => lo + rand(hi - lo + 1);
const pick = <T>(xs: readonly T[]): T | undefined => (xs.length === 0 ? undefined : xs[rand(xs.length)]);
const chance = (p: number) => Math.random() < p;
function pushCapped<T>(xs: T[], x: T, cap: number): void {
  xs.push(x);
  if (xs.length > cap) xs.splice(0, xs.length - cap);
}
function takeRandom<T>(xs: T[]): T | undefined {
  if (xs.length === 0) return undefined;
  const i = rand(xs.length);
  const [x] = xs.splice(i, 1);
  return x;
}

/** A writable customer; half the time one of a hot set of 50, so some ledgers grow long. */
function customer(): string {
  if (pools.added.length > 0 && chance(0.05)) return pick(pools.added)!;
  const hot = Math.min(50, pools.writable.length);
  return chance(0.5) ? pools.writable[rand(hot)]! : pick(pools.writable)!;
}
const anyCustomer = () => (chance(0.05) && pools.locked.length > 0 ? pick(pools.locked)! : customer());

function resetPools(): void {
  pools.generation++;
  pools.added.length = 0;
  pools.codes.length = 0;
  pools.spent.length = 0;
}

// ---------------------------------------------------------------------------------------------
// The scenario, loaded through the control API (again after every reset, which drops it)

const SCENARIO = {
  name: "soak",
  rules: [
    { name: "getCustomer-429", match: { operation: "getCustomer" }, probability: 0.05, respond: { error: "RATE_LIMITED" } },
    { name: "award-7-refused", match: { operation: "awardStamps", body: { stamps: 7 } }, respond: { error: "VALIDATION_ERROR", delayMs: 2 } },
    { name: "rewards-limiter", match: { operation: "listRewards" }, respond: { rateLimit: { limit: 20, windowSeconds: 1 } } },
    { name: "slow-shop", match: { operation: "getShop" }, probability: 0.1, respond: { delayMs: [1, 5] } },
    { name: "void-refused", match: { path: "/customers/*/reward-codes/*/void" }, probability: 0.05, respond: { error: "VOID_FAILED" } },
  ],
};

async function loadScenario(): Promise<void> {
  const res = await fetch(`${origin}/__sim/scenarios`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(SCENARIO) });
  if (res.status !== 201) throw new Error(`POST /__sim/scenarios answered ${res.status}: ${await res.text()}`);
}

// ---------------------------------------------------------------------------------------------
// The mix: name, weight, what it does

type Op = { name: string; weight: number; run: () => Promise<void> };

const json = (o: unknown) => ({ json: o });
const post = (op: string, path: string, body: unknown, headers?: Record<string, string>) => call(op, "POST", API + path, { json: body, ...(headers && { headers }) });
const get = (op: string, path: string) => call(op, "GET", API + path);

async function codesOf(op: string, id: string, query: string): Promise<void> {
  const gen = pools.generation;
  const reply = await get(op, `/customers/${id}/reward-codes${query}`);
  if (reply?.status !== 200 || gen !== pools.generation) return;
  for (const code of reply.body.data as { id: string; used: boolean }[]) {
    if (!code.used && !pools.codes.some((c) => c.id === code.id)) pushCapped(pools.codes, { customerId: id, id: code.id }, 2000);
  }
}

const OPS: Op[] = [
  // reads
  {
    name: "listCustomers",
    weight: 6,
    run: async () => {
      const gen = pools.generation;
      const cursor = chance(0.5) ? pick(pools.cursors) : undefined;
      const q = cursor ? `?limit=20&after=${encodeURIComponent(cursor)}` : pick(["?limit=20", "?limit=100", "?hasCount=true", "?limit=5&hasCount=true"])!;
      const reply = await get("listCustomers", `/customers${q}`);
      const next = reply?.status === 200 ? reply.body.meta.pagination.nextCursor : null;
      if (next && gen === pools.generation) pushCapped(pools.cursors, next as string, 200);
    },
  },
  { name: "searchByEmail", weight: 1, run: async () => void (await get("searchByEmail", `/customers?email=${encodeURIComponent(pick(pools.emails)!.toUpperCase())}`)) },
  { name: "getCustomer", weight: 12, run: async () => void (await get("getCustomer", `/customers/${anyCustomer()}`)) },
  {
    name: "listActivities",
    weight: 7,
    run: async () => {
      const id = customer();
      const reply = await get("listActivities", `/customers/${id}/activities?limit=${pick([20, 20, 100])}${chance(0.2) ? "&hasCount=true" : ""}`);
      const next = reply?.status === 200 ? reply.body.meta.pagination : null;
      if (next?.hasNext && chance(0.3)) await get("listActivities", `/customers/${id}/activities?limit=20&after=${encodeURIComponent(next.nextCursor)}`);
    },
  },
  { name: "listRewardCodes", weight: 6, run: () => codesOf("listRewardCodes", customer(), chance(0.8) ? "?available=true" : "") },
  { name: "listRewards", weight: 3, run: async () => void (await get("listRewards", "/rewards")) },
  { name: "getReward", weight: 2, run: async () => void (await get("getReward", `/rewards/${between(101, 109)}`)) },
  { name: "getShop", weight: 3, run: async () => void (await get("getShop", "/shop")) },
  { name: "listTiers", weight: 1, run: async () => void (await get("listTiers", "/tiers")) },
  { name: "getTier", weight: 1, run: async () => void (await get("getTier", `/tiers/${between(1, 4)}`)) },
  { name: "listEarnRules", weight: 1, run: async () => void (await get("listEarnRules", "/earn-rules")) },
  { name: "getEarnRule", weight: 1, run: async () => void (await get("getEarnRule", `/earn-rules/${between(201, 207)}`)) },
  { name: "listBeacons", weight: 1, run: async () => void (await get("listBeacons", "/beacons")) },
  // writes
  {
    name: "awardStamps",
    weight: 10,
    run: async () => {
      let stamps = between(1, 30);
      if (stamps === 7) stamps = 8; // 7 is the scenario's
      await post("awardStamps", `/customers/${anyCustomer()}/stamps/award`, { stamps, ...(chance(0.3) && { comment: "Soak order", internal_comment: "soak" }) });
    },
  },
  { name: "adjustStamps+", weight: 4, run: async () => void (await post("adjustStamps+", `/customers/${anyCustomer()}/stamps/adjust`, { stamps: between(1, 20) })) },
  { name: "adjustStamps-", weight: 4, run: async () => void (await post("adjustStamps-", `/customers/${anyCustomer()}/stamps/adjust`, { stamps: -between(1, 15), comment: "Correction" })) },
  {
    name: "redeemReward",
    weight: 6,
    run: async () => {
      const id = anyCustomer();
      const reward = pick([101, 101, 102, 103, 103, 104, 105, 106, 106, 107, 108, 109])!;
      const reply = await post("redeemReward", `/customers/${id}/redemptions`, { reward_product_id: reward, ...(reward === 106 && { variable_amount: between(1, 10) }) });
      if (reply?.status === 200 && chance(0.5)) await codesOf("listRewardCodes", id, "?available=true");
    },
  },
  { name: "grantReward", weight: 1, run: async () => void (await post("grantReward", `/customers/${anyCustomer()}/reward-grants`, { reward_product_id: pick([101, 102, 103, 105])! })) },
  {
    name: "useRewardCode",
    weight: 3,
    run: async () => {
      const code = takeRandom(pools.codes);
      if (!code) return void (await codesOf("listRewardCodes", customer(), "?available=true"));
      const gen = pools.generation;
      const reply = await post("useRewardCode", `/customers/${code.customerId}/reward-codes/${code.id}/use`, {});
      if (reply?.status === 200 && gen === pools.generation) pushCapped(pools.spent, code, 500);
    },
  },
  {
    name: "voidRewardCode",
    weight: 3,
    run: async () => {
      const again = chance(0.1) ? takeRandom(pools.spent) : undefined; // 422 VOID_FAILED
      const code = again ?? takeRandom(pools.codes);
      if (!code) return void (await codesOf("listRewardCodes", customer(), "?available=true"));
      const gen = pools.generation;
      const reply = await post("voidRewardCode", `/customers/${code.customerId}/reward-codes/${code.id}/void`, {});
      if (reply?.status === 200 && gen === pools.generation) pushCapped(pools.spent, code, 500);
    },
  },
  { name: "processEarnRule", weight: 5, run: async () => void (await post("processEarnRule", `/customers/${anyCustomer()}/activities`, { earn_rule_id: between(201, 207) })) },
  {
    name: "updateCustomer",
    weight: 2,
    run: async () => void (await call("updateCustomer", "PATCH", `${API}/customers/${anyCustomer()}`, json({ birthday_month: between(1, 12), birthday_day: between(1, 28) }))),
  },
  {
    name: "setCustomerTier",
    weight: 2,
    run: async () => {
      const id = anyCustomer();
      const trigger = chance(0.3);
      const reply = await post("setCustomerTier", `/customers/${id}/tier`, { tier_id: between(1, 4), ...(trigger && { trigger_rewards: true }), ...(chance(0.3) && { comment: "Soak tier" }) });
      if (reply?.status === 200 && trigger) await codesOf("listRewardCodes", id, "?available=true");
    },
  },
  {
    name: "createCustomer",
    weight: 0.3,
    run: async () => {
      const gen = pools.generation;
      const n = rand(1e9);
      const reply = await call("createCustomer", "POST", "/__sim/customers", { auth: false, json: { firstName: "Soak", lastName: `Customer${n}`, email: `soak${n}@example.com`, ...(chance(0.5) && { stampBalance: between(0, 50) }) } });
      if (reply?.status === 201 && gen === pools.generation) pushCapped(pools.added, reply.body.id as string, 500);
    },
  },
  // bad requests (4xx): nothing may change
  { name: "bad:401", weight: 0.7, run: async () => void (await call("bad:401", "GET", `${API}/shop`, { auth: false, headers: { "X-Api-Key": "sim_key", "X-Api-Secret": "wrong" } })) },
  { name: "bad:award0", weight: 0.7, run: async () => void (await post("bad:award0", `/customers/${customer()}/stamps/award`, { stamps: 0 })) },
  { name: "bad:adjust0", weight: 0.3, run: async () => void (await post("bad:adjust0", `/customers/${customer()}/stamps/adjust`, { stamps: 0 })) },
  { name: "bad:unknownCustomer", weight: 0.7, run: async () => void (await get("bad:unknownCustomer", `/customers/${9_000_000_000_000 + rand(1e9)}`)) },
  { name: "bad:malformedJson", weight: 0.5, run: async () => void (await call("bad:malformedJson", "POST", `${API}/customers/${customer()}/stamps/award`, { raw: '{"stamps": 3', headers: { "content-type": "application/json" } })) },
  { name: "bad:textBody", weight: 0.3, run: async () => void (await call("bad:textBody", "POST", `${API}/customers/${customer()}/stamps/award`, { raw: "stamps=3", headers: { "content-type": "text/plain" } })) },
  { name: "bad:unknownRoute", weight: 0.5, run: async () => void (await get("bad:unknownRoute", `/no-such-thing/${rand(1000)}`)) },
  { name: "bad:limit", weight: 0.5, run: async () => void (await get("bad:limit", `/customers?limit=${pick([0, 1001, 5000])}`)) },
  { name: "bad:cursor", weight: 0.3, run: async () => void (await get("bad:cursor", `/customers?after=not-a-cursor`)) },
  { name: "bad:unknownCode", weight: 0.5, run: async () => void (await post("bad:unknownCode", `/customers/${customer()}/reward-codes/${900_000_000 + rand(1e6)}/use`, {})) },
  { name: "bad:patchEmail", weight: 0.5, run: async () => void (await call("bad:patchEmail", "PATCH", `${API}/customers/${customer()}`, json({ email: "x@example.com" }))) },
  { name: "bad:unknownEarnRule", weight: 0.3, run: async () => void (await post("bad:unknownEarnRule", `/customers/${customer()}/activities`, { earn_rule_id: 999 })) },
  { name: "bad:prefer", weight: 0.5, run: async () => void (await post("bad:prefer", `/customers/${customer()}/redemptions`, { reward_product_id: 101 }, { Prefer: pick(["error=INSUFFICIENT_STAMPS", "status=404", "error=REWARD_NOT_FOUND, delay=3", "bogus=1"])! })) },
  // answered by the scenario
  { name: "scenario:award7", weight: 1, run: async () => void (await post("scenario:award7", `/customers/${customer()}/stamps/award`, { stamps: 7 })) },
];

const ONLY = opt.only?.split(",").map((s) => s.trim()).filter(Boolean);
if (ONLY) {
  const unknown = ONLY.filter((name) => !OPS.some((op) => op.name === name));
  if (unknown.length > 0) {
    console.error(`soak: --only: unknown request type(s) ${unknown.join(", ")}; known: ${OPS.map((op) => op.name).join(", ")}`);
    process.exit(2);
  }
}
const MIX = OPS.filter((op) => !ONLY || ONLY.includes(op.name));
const TOTAL_WEIGHT = MIX.reduce((sum, op) => sum + op.weight, 0);
function nextOp(): Op {
  let x = Math.random() * TOTAL_WEIGHT;
  for (const op of MIX) if ((x -= op.weight) < 0) return op;
  return MIX[MIX.length - 1]!;
}

// ---------------------------------------------------------------------------------------------
// Control-side helpers: journal, shop size, ledger walk

async function control<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(origin + path, { ...init, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

async function api<T = any>(path: string): Promise<T> {
  const res = await fetch(`${origin}${API}${path}`, { headers: AUTH, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

async function allCustomers(): Promise<{ id: string; email: string; stampBalance: number; state: string; mergedIntoCustomerId?: string }[]> {
  const out = [];
  let after: string | undefined;
  for (;;) {
    const page = await api(`/customers?limit=1000${after ? `&after=${encodeURIComponent(after)}` : ""}`);
    out.push(...page.data);
    if (!page.meta.pagination.hasNext) return out;
    after = page.meta.pagination.nextCursor;
  }
}

async function inParallel<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}

interface LedgerReport {
  customers: number;
  activities: number;
  breaks: { id: string; stampBalance: number; sumOfActivities: number }[];
}

/** Every customer's balance against the sum of their activities, through the public API. */
async function ledgerCheck(): Promise<LedgerReport> {
  const customers = await allCustomers();
  const report: LedgerReport = { customers: customers.length, activities: 0, breaks: [] };
  await inParallel(customers, CONCURRENCY, async (c) => {
    let sum = 0;
    let after: string | undefined;
    for (;;) {
      const page = await api(`/customers/${c.id}/activities?limit=1000${after ? `&after=${encodeURIComponent(after)}` : ""}`);
      for (const a of page.data as { stampChange: number }[]) sum += a.stampChange;
      report.activities += page.data.length;
      if (!page.meta.pagination.hasNext) break;
      after = page.meta.pagination.nextCursor;
    }
    if (sum !== c.stampBalance) report.breaks.push({ id: c.id, stampBalance: c.stampBalance, sumOfActivities: sum });
  });
  return report;
}

interface Sample {
  t: number;
  rssMb: number;
  journal: number;
  activities: number;
  customers: number;
  rps: number;
  requests: number;
}

// ---------------------------------------------------------------------------------------------
// The run

const fmt = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : "n/a");
const percentile = (xs: number[], p: number) => (xs.length === 0 ? Number.NaN : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!);

/** Least-squares slope of y over x. */
function slope(points: { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return sxx === 0 ? Number.NaN : points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0) / sxx;
}

async function main(): Promise<number> {
  killChildrenOnExit();
  console.log(
    `loyalty-sim soak: ${fmt(DURATION_S, 0)} s, ${CUSTOMERS} customers, ${CONCURRENCY} in flight, journal ${JOURNAL_SIZE}, ` +
      `reset ${RESET_S > 0 ? `every ${fmt(RESET_S, 0)} s` : "never"}, samples every ${fmt(SAMPLE_S)} s${ONLY ? `, only ${ONLY.join(", ")}` : ""}\n`,
  );
  // --log-level error instead of --quiet: no request log, but an internal error's stack reaches stderr.
  const sim = await startSim(["--customers", String(CUSTOMERS), "--journal-size", String(JOURNAL_SIZE), "--seed", String(SEED), "--log-level", "error"], {
    quiet: false,
    nodeArgs: ["--trace-gc"],
  });
  origin = sim.url;
  const pid = sim.child.pid!;
  let stderrTail = "";
  sim.child.stderr!.on("data", (chunk: Buffer) => void (stderrTail = (stderrTail + chunk.toString()).slice(-20_000)));
  // --trace-gc: the heap left after each full collection is the live heap, a steadier sign of a
  // leak than RSS (which also holds garbage not yet collected and memory V8 keeps for later).
  let t0 = performance.now();
  const fullGcs: { t: number; heapMb: number }[] = [];
  let partial = "";
  sim.child.stdout!.on("data", (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split("\n");
    partial = lines.pop()!;
    for (const line of lines) {
      const m = /Mark-Compact[^\d]*[\d.]+ \([\d.]+\) -> ([\d.]+) \(/.exec(line);
      if (m) fullGcs.push({ t: Math.round((performance.now() - t0) / 100) / 10, heapMb: Number(m[1]) });
    }
  });
  const child = { exit: null as string | null };
  sim.child.once("exit", (code, signal) => void (child.exit = `exited with ${signal ?? code}`));
  console.log(`  started ${sim.url} (pid ${pid}) in ${fmt(sim.startupMs, 0)} ms, RSS ${fmt(rssMb(pid))} MB`);

  const before = await ledgerCheck();
  console.log(`  ledger before: ${before.customers} customers, ${before.activities} activities, ${before.breaks.length} breaks`);
  const seeded = await allCustomers();
  pools.seeded = seeded.map((c) => ({ id: c.id, email: c.email, writable: c.state === "active" && !c.mergedIntoCustomerId }));
  pools.writable = pools.seeded.filter((c) => c.writable).map((c) => c.id);
  pools.locked = pools.seeded.filter((c) => !c.writable).map((c) => c.id);
  pools.emails = pools.seeded.map((c) => c.email);
  if (pools.writable.length === 0) throw new Error("no active customer to write to");
  await loadScenario();
  const rssStart = rssMb(pid);

  // Traffic
  t0 = performance.now();
  const end = t0 + DURATION_S * 1000;
  const elapsed = () => (performance.now() - t0) / 1000;
  let running = true;
  // While a reset and the scenario's reload are under way no new request starts, so none meets
  // the fresh shop without the scenario.
  let gate: Promise<void> | null = null;
  const workers = Array.from({ length: CONCURRENCY }, async () => {
    while (running && performance.now() < end && child.exit === null) {
      if (gate) await gate;
      await nextOp().run();
    }
  });

  // Resets
  let resets = 0;
  const resetErrors: string[] = [];
  const resetTimer =
    RESET_S > 0
      ? setInterval(() => {
          if (gate) return;
          resetPools();
          gate = control("/__sim/reset", { method: "POST" })
            .then(() => loadScenario())
            .then(() => void resets++)
            .catch((error: unknown) => void resetErrors.push(String(error)))
            .finally(() => void (gate = null));
        }, RESET_S * 1000)
      : undefined;

  // Samples
  const samples: Sample[] = [];
  let lastCount = 0;
  let lastT = 0;
  let journalMax = 0;
  let sampling = Promise.resolve();
  const takeSample = async () => {
    const t = elapsed();
    const requests = completed;
    const rss = rssMb(pid);
    const [journal, shops] = await Promise.all([
      control<{ requests: unknown[] }>("/__sim/requests"),
      control<{ shops: { activities: number; customers: number }[] }>("/__sim/shops"),
    ]);
    const sample: Sample = {
      t: Math.round(t * 10) / 10,
      rssMb: Math.round(rss * 10) / 10,
      journal: journal.requests.length,
      activities: shops.shops.reduce((s, x) => s + x.activities, 0),
      customers: shops.shops.reduce((s, x) => s + x.customers, 0),
      rps: Math.round((requests - lastCount) / Math.max(1e-3, t - lastT)),
      requests,
    };
    lastCount = requests;
    lastT = t;
    journalMax = Math.max(journalMax, sample.journal);
    samples.push(sample);
    let n5xx = 0;
    for (const s of stats.values()) n5xx += s.classCount(500, 600);
    console.log(
      `  t=${fmt(sample.t).padStart(6)} s  RSS ${fmt(sample.rssMb).padStart(6)} MB  journal ${String(sample.journal).padStart(5)}/${JOURNAL_SIZE}  ` +
        `activities ${String(sample.activities).padStart(7)}  heap after full GC ${fmt(fullGcs.at(-1)?.heapMb ?? Number.NaN).padStart(6)} MB  ` +
        `${String(sample.rps).padStart(6)} req/s  5xx ${n5xx}`,
    );
  };
  const sampleTimer = setInterval(() => {
    sampling = sampling.then(takeSample).catch((error: unknown) => console.error(`  sample failed: ${String(error)}`));
  }, SAMPLE_S * 1000);

  await Promise.all(workers);
  running = false;
  clearInterval(sampleTimer);
  clearInterval(resetTimer);
  await Promise.all([sampling, gate]);
  const trafficSeconds = elapsed();
  if (child.exit !== null) throw new Error(`loyalty-sim ${child.exit} during the run:\n${stderrTail}`);

  // The ledger after the traffic (scenarios removed, so nothing forced answers the walk).
  await control("/__sim/scenarios", { method: "DELETE" });
  const after = await ledgerCheck();
  const rssEnd = rssMb(pid);
  const peak = peakRssMb(pid);

  // Verdicts
  const D = DURATION_S;
  const second = samples.filter((s) => s.t >= D / 3 && s.t < (2 * D) / 3).map((s) => s.rssMb);
  const last = samples.filter((s) => s.t >= (2 * D) / 3).map((s) => s.rssMb);
  const secondMedian = second.length > 0 ? median(second) : Number.NaN;
  const lastMedian = last.length > 0 ? median(last) : Number.NaN;
  const memLimit = secondMedian * 1.1 + 10;
  const slopeMbPerMin = slope(samples.filter((s) => s.t >= D / 3).map((s) => ({ x: s.t / 60, y: s.rssMb })));
  const gcs = fullGcs.filter((g) => g.t >= 0 && g.t <= D);
  const heapSecond = gcs.filter((g) => g.t >= D / 3 && g.t < (2 * D) / 3).map((g) => g.heapMb);
  const heapLast = gcs.filter((g) => g.t >= (2 * D) / 3).map((g) => g.heapMb);
  const heap = {
    fullGcs: gcs.length,
    firstMb: gcs[0]?.heapMb ?? Number.NaN,
    midMb: gcs[Math.floor(gcs.length / 2)]?.heapMb ?? Number.NaN,
    lastMb: gcs.at(-1)?.heapMb ?? Number.NaN,
    secondThirdMedianMb: heapSecond.length > 0 ? median(heapSecond) : Number.NaN,
    lastThirdMedianMb: heapLast.length > 0 ? median(heapLast) : Number.NaN,
    slopeMbPerMinLastTwoThirds: slope(gcs.filter((g) => g.t >= D / 3).map((g) => ({ x: g.t / 60, y: g.heapMb }))),
  };
  const activitySlope = slope(samples.filter((s) => s.t >= D / 3).map((s) => ({ x: s.t / 60, y: s.activities })));
  let total = 0;
  let n5xx = 0;
  let n4xx = 0;
  let transport = 0;
  for (const s of stats.values()) {
    total += s.count;
    n5xx += s.classCount(500, 600);
    n4xx += s.classCount(400, 500);
    transport += s.transportErrors;
  }
  const rps = total / trafficSeconds;
  const verdicts = [
    {
      what: "memory flat (median RSS, last third vs second third)",
      measured: `${fmt(lastMedian)} MB vs ${fmt(secondMedian)} MB`,
      target: `<= ${fmt(memLimit)} MB`,
      met: lastMedian <= memLimit,
    },
    { what: "journal bounded (entries, max of samples)", measured: `${journalMax} (cap ${JOURNAL_SIZE})`, target: `<= ${JOURNAL_SIZE}`, met: samples.length > 0 && journalMax <= JOURNAL_SIZE },
    { what: "5xx responses", measured: String(n5xx), target: "0", met: n5xx === 0 },
    { what: "transport errors (resets, timeouts)", measured: String(transport), target: "0", met: transport === 0 },
    { what: "ledger breaks at the end", measured: `${after.breaks.length} of ${after.customers} customers`, target: "0", met: after.breaks.length === 0 && before.breaks.length === 0 },
    { what: "resets done without error", measured: `${resets} (${resetErrors.length} failed)`, target: "0 failed", met: resetErrors.length === 0 },
  ];

  console.log(`\n  ${"request type".padEnd(22)} ${"count".padStart(8)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)}  statuses`);
  const rows = [...stats.entries()].sort((a, b) => b[1].count - a[1].count);
  for (const [name, s] of rows) {
    const statuses = [...s.statuses.entries()].sort((a, b) => a[0] - b[0]).map(([k, v]) => `${k}:${v}`).join(" ");
    console.log(
      `  ${name.padEnd(22)} ${String(s.count).padStart(8)} ${fmt(percentile(s.latencies, 0.5), 2).padStart(7)} ${fmt(percentile(s.latencies, 0.99), 2).padStart(7)}  ${statuses}${s.transportErrors ? ` transport-errors:${s.transportErrors}` : ""}`,
    );
  }
  const at = (frac: number) => samples[Math.min(samples.length - 1, Math.floor(samples.length * frac))]?.rssMb ?? Number.NaN;
  console.log(
    `\n  ${total} requests in ${fmt(trafficSeconds)} s = ${fmt(rps, 0)} req/s (${n4xx} 4xx, ${n5xx} 5xx), ${resets} resets` +
      `\n  RSS: ${fmt(rssStart)} MB before traffic, ${fmt(at(0))} first sample, ${fmt(at(0.5))} mid, ${fmt(at(1))} last, ${fmt(rssEnd)} after the ledger walk, peak ${fmt(peak)} MB` +
      `\n  RSS slope over the last two thirds: ${fmt(slopeMbPerMin, 2)} MB/min (activities held: ${fmt(activitySlope, 0)}/min)` +
      `\n  heap after full GCs (${heap.fullGcs}): ${fmt(heap.firstMb)} MB first, ${fmt(heap.midMb)} mid, ${fmt(heap.lastMb)} last; ` +
      `median ${fmt(heap.secondThirdMedianMb)} -> ${fmt(heap.lastThirdMedianMb)} MB (second -> last third), slope ${fmt(heap.slopeMbPerMinLastTwoThirds, 2)} MB/min` +
      `\n  ledger after: ${after.customers} customers, ${after.activities} activities, ${after.breaks.length} breaks`,
  );
  console.log(`\n  ${"verdict".padEnd(52)} ${"measured".padEnd(26)} ${"target".padEnd(14)}`);
  for (const v of verdicts) console.log(`  ${v.what.padEnd(52)} ${v.measured.padEnd(26)} ${v.target.padEnd(14)} ${v.met ? "ok" : "FAILED"}`);
  for (const e of examples5xx.slice(0, 5)) console.log(`  5xx: ${e.op} ${e.method} ${e.path} -> ${e.status} ${e.requestBody ?? ""} ${e.responseBody.slice(0, 200)}`);
  for (const e of transportErrorExamples.slice(0, 5)) console.log(`  transport error: ${e.op} ${e.method} ${e.path}: ${e.error}`);
  for (const e of resetErrors.slice(0, 3)) console.log(`  reset failed: ${e}`);
  for (const b of after.breaks.slice(0, 5)) console.log(`  ledger break: customer ${b.id} balance ${b.stampBalance}, activities sum to ${b.sumOfActivities}`);
  if (stderrTail) console.log(`\n  loyalty-sim stderr (tail):\n${stderrTail.slice(-3000)}`);

  const ok = verdicts.every((v) => v.met);
  const written = writeBenchResult("soak.json", {
    config: { durationSeconds: DURATION_S, customers: CUSTOMERS, concurrency: CONCURRENCY, journalSize: JOURNAL_SIZE, resetSeconds: RESET_S, sampleSeconds: SAMPLE_S, seed: SEED, only: ONLY ?? null },
    scenario: SCENARIO,
    trafficSeconds: Math.round(trafficSeconds * 10) / 10,
    requests: total,
    rps: Math.round(rps),
    resets,
    rss: {
      startMb: rssStart,
      endMb: rssEnd,
      peakMb: peak,
      secondThirdMedianMb: secondMedian,
      lastThirdMedianMb: lastMedian,
      slopeMbPerMinLastTwoThirds: slopeMbPerMin,
    },
    heapAfterFullGc: { ...heap, points: gcs },
    journal: { max: journalMax, capacity: JOURNAL_SIZE },
    ledger: { before, after: { ...after, breaks: after.breaks.slice(0, 50) } },
    requestTypes: Object.fromEntries(
      rows.map(([name, s]) => [name, { count: s.count, p50Ms: percentile(s.latencies, 0.5), p99Ms: percentile(s.latencies, 0.99), statuses: Object.fromEntries(s.statuses), transportErrors: s.transportErrors }]),
    ),
    examples5xx,
    transportErrorExamples,
    resetErrors,
    samples,
    verdicts,
    passed: ok,
  });
  console.log(`\n  ${ok ? "PASSED" : "FAILED"}; written to ${written}`);
  return ok ? 0 : 1;
}

main()
  .then((code) => {
    killChildren();
    process.exit(code);
  })
  .catch((error: unknown) => {
    console.error(error);
    killChildren();
    process.exit(1);
  });
