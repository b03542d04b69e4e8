/**
 * `npm run bench`: throughput, latency, startup and memory of loyalty-sim against a bare node:http
 * server (the limit), Prism (a stateless mock of the same OpenAPI document) and, for writes, the
 * floor of loyalty-sim's own stack (a minimal hono app), all on loopback, measured in one run.
 * Absolute numbers on a shared machine are noise; the ratios are the result.
 * Writes bench/results.json.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { AUTH, cpuMicros, freePort, killChildren, killChildrenOnExit, median, peakRssMb, ROOT, start, startSim, stop, waitFor, writeBenchResult } from "./lib/sim.js";

const DURATION = Number(process.env.BENCH_SECONDS ?? 6);
/** Seconds of the same load before each measured run, unmeasured: the JIT has compiled the path by then. */
const WARMUP = 2;
/** Interleaved rounds of the loads compared with the bare server, and the seconds of each run. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ROUND_SECONDS = DURATION / 2;
const CONNECTIONS = 50;
const BIG = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
killChildrenOnExit();

type Row = { name: string; rps: number; p50: number; p99: number; errors: number; non2xx: number; cpuUsPerRequest: number | null };

/**
 * One measured load, after WARMUP seconds of the same load unless `warm` is false. With `pid`,
 * also the server's CPU time (user + system, all its threads) per request: a measure the load
 * generator, which shares the cores, blurs less than throughput.
 */
async function load(name: string, opts: autocannon.Options, pid?: number, { warm = true, seconds = DURATION } = {}): Promise<Row> {
  if (warm) await autocannon({ connections: CONNECTIONS, duration: WARMUP, ...opts });
  const cpuBefore = pid === undefined ? undefined : cpuMicros(pid);
  const result = await autocannon({ connections: CONNECTIONS, duration: seconds, ...opts });
  const cpuAfter = pid === undefined ? undefined : cpuMicros(pid);
  const row = {
    name,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    cpuUsPerRequest:
      cpuBefore === undefined || cpuAfter === undefined ? null : Math.round(((cpuAfter - cpuBefore) / result.requests.total) * 10) / 10,
  };
  const cpu = row.cpuUsPerRequest === null ? "" : `  CPU ${row.cpuUsPerRequest} µs/req`;
  console.log(`  ${name.padEnd(50)} ${String(row.rps).padStart(7)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms  non-2xx ${row.non2xx}${cpu}`);
  return row;
}

type Target = { name: string; opts: autocannon.Options; pid: number | undefined };
/** A target's result against the bare server: medians over the rounds. */
type Versus = { rps: number; ratio: number; cpuUs: number; bareCpuUs: number };

/**
 * `targets` measured against the bare server in ROUNDS interleaved rounds (bare, each target, bare,
 * each target, ..., bare), each run ROUND_SECONDS, after one warm-up of each. A target's ratio in a
 * round is its req/s over the mean of the bare runs either side; the result is the median over
 * the rounds. The shared machine has slow phases seconds long that hit whichever process runs
 * then (the bare server, loyalty-sim or the hono floor alike): one of them then moves one round,
 * not the result.
 */
async function againstBare(rows: Row[], bareTarget: Target, targets: Target[]): Promise<Map<string, Versus>> {
  for (const t of [bareTarget, ...targets]) await autocannon({ connections: CONNECTIONS, duration: WARMUP, ...t.opts });
  const once = { warm: false, seconds: ROUND_SECONDS };
  const bares = [await load(`${bareTarget.name} (round 1)`, bareTarget.opts, bareTarget.pid, once)];
  const runs = new Map<string, Row[]>(targets.map((t) => [t.name, []]));
  for (let round = 1; round <= ROUNDS; round++) {
    for (const t of targets) runs.get(t.name)!.push(await load(`${t.name} (round ${round})`, t.opts, t.pid, once));
    bares.push(await load(`${bareTarget.name} (${round < ROUNDS ? `round ${round + 1}` : "last"})`, bareTarget.opts, bareTarget.pid, once));
  }
  rows.push(...bares, ...[...runs.values()].flat());
  const around = (round: number, of: (r: Row) => number) => (of(bares[round]!) + of(bares[round + 1]!)) / 2;
  const cpuOf = (r: Row) => r.cpuUsPerRequest ?? Number.NaN;
  return new Map(
    [...runs].map(([name, measured]) => [
      name,
      {
        rps: median(measured.map((r) => r.rps)),
        ratio: median(measured.map((r, i) => r.rps / around(i, (b) => b.rps))),
        cpuUs: median(measured.map(cpuOf)),
        bareCpuUs: median(measured.map((_, i) => around(i, cpuOf))),
      },
    ]),
  );
}

async function json(url: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(url, { ...init, headers: { ...AUTH, "Content-Type": "application/json", ...init.headers } });
  return res.json();
}

async function main(): Promise<void> {
  console.log(
    `loyalty-sim bench: ${CONNECTIONS} connections, ${DURATION} s per run after ${WARMUP} s of warm-up ` +
      `(against bare node:http: ${ROUNDS} interleaved rounds of ${ROUND_SECONDS} s), ${BIG} customers\n`,
  );

  // Startup: process start to the first 200 from /__sim/health.
  const small: number[] = [];
  for (let i = 0; i < 5; i++) {
    const sim = await startSim(["--customers", "50"]);
    small.push(sim.startupMs);
    await stop(sim.child);
  }
  console.log(`  startup, 50 customers (median of 5)        ${median(small).toFixed(0)} ms`);

  // Three starts of the large shop (the last one stays up for the loads): the median is kept.
  const large: number[] = [];
  for (let i = 0; i < 2; i++) {
    const run = await startSim(["--customers", String(BIG)]);
    large.push(run.startupMs);
    await stop(run.child);
  }
  const sim = await startSim(["--customers", String(BIG)]);
  large.push(sim.startupMs);
  const largeStartup = median(large);
  console.log(`  startup, ${BIG} customers (median of 3)    ${largeStartup.toFixed(0)} ms`);
  const base = `${sim.url}/rest_api/v1`;

  // Walk to a page 90% deep, and pick active customers to write to.
  const first = await json(`${base}/customers?limit=100&hasCount=true`);
  const total: number = first.meta.pagination.count;
  let cursor: string = first.meta.pagination.nextCursor;
  for (let seen = 100; seen < total * 0.9 - 1000; seen += 1000) {
    cursor = (await json(`${base}/customers?limit=1000&after=${encodeURIComponent(cursor)}`)).meta.pagination.nextCursor;
  }
  const writers: string[] = first.data.filter((c: any) => c.state === "active" && !c.mergedIntoCustomerId).map((c: any) => c.id);
  for (const id of writers) await json(`${base}/customers/${id}/stamps/award`, { method: "POST", body: JSON.stringify({ stamps: 1_000_000_000 }) });
  const customer = await fetch(`${base}/customers/${writers[0]}`, { headers: AUTH }).then((r) => r.text());

  // The limit: a bare node:http server answering the same bytes, in its own process.
  const barePort = await freePort();
  const bare = start(process.execPath, [
    "-e",
    `const body=${JSON.stringify(customer)};require("node:http").createServer((q,s)=>{s.writeHead(200,{"content-type":"application/json","content-length":Buffer.byteLength(body)});s.end(body)}).listen(${barePort},"127.0.0.1")`,
  ]);
  await waitFor(`http://127.0.0.1:${barePort}/`);

  // The stack's own floors: hono and @hono/node-server (the packages loyalty-sim is built on) with a
  // GET that checks the credential headers and answers the stored customer JSON, and a POST that
  // parses the JSON body, updates a Map and answers the envelope; no validation, journal or ledger.
  const floorPort = await freePort();
  const floor = start(process.execPath, [
    "--input-type=module",
    "-e",
    `import { Hono } from ${JSON.stringify(import.meta.resolve("hono"))};
     import { serve } from ${JSON.stringify(import.meta.resolve("@hono/node-server"))};
     const customer = ${JSON.stringify(customer)};
     const [apiKey, apiSecret] = ${JSON.stringify([AUTH["X-Api-Key"], AUTH["X-Api-Secret"]])};
     const balances = new Map();
     const app = new Hono()
       .get("/rest_api/v1/customers/:id", (c) => {
         if (c.req.header("x-api-key") !== apiKey || c.req.header("x-api-secret") !== apiSecret) return c.json({ success: false }, 401);
         return c.body(customer, 200, { "content-type": "application/json" });
       })
       .post("/rest_api/v1/customers/:id/stamps/award", async (c) => {
         const id = c.req.param("id");
         const { stamps } = await c.req.json();
         const balance = (balances.get(id) ?? 0) + stamps;
         balances.set(id, balance);
         return c.json({ success: true, data: { customerId: id, stampChange: stamps, stampBalance: balance }, timestamp: new Date().toISOString() });
       });
     serve({ fetch: app.fetch, port: ${floorPort}, hostname: "127.0.0.1" });`,
  ]);
  await waitFor(`http://127.0.0.1:${floorPort}/rest_api/v1/customers/1/stamps/award`, { method: "POST", body: '{"stamps":1}', headers: { "content-type": "application/json" } });

  // The peer: Prism mocking the same document (fetched on demand, so npm ci stays lean).
  const prismPort = await freePort();
  const prism = start("npx", ["--yes", "@stoplight/prism-cli@5", "mock", "-p", String(prismPort), "-h", "127.0.0.1", join(ROOT, "openapi/openapi.json")]);
  let prismReady = true;
  try {
    await waitFor(`http://127.0.0.1:${prismPort}/rest_api/v1/shop`, { headers: AUTH }, 180_000);
  } catch (error) {
    prismReady = false;
    console.log(`  Prism unavailable: ${(error as Error).message}`);
  }

  console.log("");
  const rows: Row[] = [];
  const getPath = `/rest_api/v1/customers/${writers[0]}`;
  const bareTarget: Target = { name: "bare node:http", opts: { url: `http://127.0.0.1:${barePort}${getPath}` }, pid: bare.pid };
  const GET = "loyalty-sim GET /customers/{id}";
  const FLOOR_GET = "hono floor GET /customers/{id}";
  const GRAPHQL = "loyalty-sim GraphQL customer(id)";
  // The fields GET /customers/{id} answers with.
  const customerQuery = `{ customer(id: "${writers[0]}") { id firstName lastName email stampBalance cards stampsToNextReward stampsExpireAt vipTierId vipTierName dateOfBirth state mergedIntoCustomerId nextReward { id name } } }`;
  const graphqlOpts: autocannon.Options = {
    url: `${sim.url}/graphql`,
    method: "POST",
    headers: { ...AUTH, "content-type": "application/json" },
    body: JSON.stringify({ query: customerQuery }),
  };
  const reads = await againstBare(rows, bareTarget, [
    { name: GET, opts: { url: `${sim.url}${getPath}`, headers: AUTH }, pid: sim.child.pid },
    { name: GRAPHQL, opts: graphqlOpts, pid: sim.child.pid },
    { name: FLOOR_GET, opts: { url: `http://127.0.0.1:${floorPort}${getPath}`, headers: AUTH }, pid: floor.pid },
  ]);
  if (prismReady) rows.push(await load("prism mock, GET /customers/{id}", { url: `http://127.0.0.1:${prismPort}${getPath}`, headers: AUTH }));
  rows.push(await load("loyalty-sim GET /customers?limit=100 (first)", { url: `${base}/customers?limit=100`, headers: AUTH }));
  rows.push(await load("loyalty-sim GET /customers?limit=100 (90% deep)", { url: `${base}/customers?limit=100&after=${encodeURIComponent(cursor)}`, headers: AUTH }));
  // Memory at the size the target names (100k customers, ~500k activities), after the read loads.
  const shopNow = async () => {
    const { customers, activities } = (await json(`${sim.url}/__sim/shops`)).shops[0] as { customers: number; activities: number };
    return { customers, activities };
  };
  const readState = await shopNow();
  const simRss = peakRssMb(sim.child.pid!);
  console.log(`  peak RSS so far: ${simRss.toFixed(0)} MB at ${readState.customers} customers / ${readState.activities} activities`);
  let w = 0;
  const writeOpts = (path: string, body: string, url = sim.url): autocannon.Options => ({
    url,
    requests: [{ method: "POST", headers: { ...AUTH, "content-type": "application/json" }, setupRequest: (req) => ({ ...req, path: `/rest_api/v1/customers/${writers[w++ % writers.length]}${path}`, body }) }],
  });
  const AWARD = "loyalty-sim POST .../stamps/award";
  const FLOOR = "hono floor POST .../stamps/award";
  const writes = await againstBare(rows, bareTarget, [
    { name: AWARD, opts: writeOpts("/stamps/award", '{"stamps":1}'), pid: sim.child.pid },
    { name: FLOOR, opts: writeOpts("/stamps/award", '{"stamps":1}', `http://127.0.0.1:${floorPort}`), pid: floor.pid },
  ]);
  rows.push(await load("loyalty-sim POST .../redemptions", writeOpts("/redemptions", '{"reward_product_id":102}'), sim.child.pid));
  // The write loads add ledger entries: memory again, at the larger size they leave.
  const writeState = await shopNow();
  const rssAfterWrites = peakRssMb(sim.child.pid!);
  console.log(`  peak RSS after the writes: ${rssAfterWrites.toFixed(0)} MB at ${writeState.customers} customers / ${writeState.activities} activities`);
  await stop(sim.child);

  // Writes with --data: the same award load, state kept in a file.
  const dir = mkdtempSync(join(tmpdir(), "loyalty-bench-"));
  const persisted = await startSim(["--customers", String(BIG), "--data", join(dir, "state.json")]);
  const pFirst = await json(`${persisted.url}/rest_api/v1/customers?limit=100`);
  const pWriters = pFirst.data.filter((c: any) => c.state === "active" && !c.mergedIntoCustomerId).map((c: any) => c.id);
  let p = 0;
  rows.push(
    await load("loyalty-sim --data POST .../stamps/award", {
      url: persisted.url,
      requests: [{ method: "POST", headers: { ...AUTH, "content-type": "application/json" }, setupRequest: (req) => ({ ...req, path: `/rest_api/v1/customers/${pWriters[p++ % pWriters.length]}/stamps/award`, body: '{"stamps":1}' }) }],
    }, persisted.child.pid),
  );
  await stop(persisted.child);
  rmSync(dir, { recursive: true, force: true });
  await Promise.all([stop(bare), stop(prism), stop(floor)]);

  const rps = (name: string) => rows.find((r) => r.name.startsWith(name))?.rps ?? Number.NaN;
  // A closed loop of CONNECTIONS connections keeps one request in flight on each, so a load's mean
  // latency is CONNECTIONS / req/s (Little's law): exact, where autocannon's latency histogram
  // counts whole milliseconds (a page's p50 is 5 or 6 ms, a 20% step).
  const meanLatencyMs = (name: string) => (CONNECTIONS / rps(name)) * 1000;
  const get = reads.get(GET)!;
  const award = writes.get(AWARD)!;
  const floorWrite = writes.get(FLOOR)!;
  const floorRead = reads.get(FLOOR_GET)!;
  const ratios = [
    { what: "GET /customers/{id} vs hono floor", value: get.ratio / floorRead.ratio, target: ">= 0.5", ok: (v: number) => v >= 0.5 },
    { what: "award vs hono floor", value: award.ratio / floorWrite.ratio, target: ">= 0.6", ok: (v: number) => v >= 0.6 },
    { what: "GraphQL customer(id) vs REST GET", value: reads.get(GRAPHQL)!.ratio / get.ratio, target: ">= 0.5", ok: (v: number) => v >= 0.5 },
    { what: "GET /customers/{id} vs Prism", value: get.rps / rps("prism"), target: ">= 8", ok: (v: number) => v >= 8 },
    {
      what: "deep page / first page mean latency",
      value: meanLatencyMs("loyalty-sim GET /customers?limit=100 (90%") / meanLatencyMs("loyalty-sim GET /customers?limit=100 (first"),
      target: "<= 1.5",
      ok: (v: number) => v <= 1.5,
    },
    { what: "startup, 50 customers (ms)", value: median(small), target: "< 500", ok: (v: number) => v < 500 },
    { what: `startup, ${BIG} customers (ms)`, value: largeStartup, target: "< 3000", ok: (v: number) => v < 3000 },
    { what: `peak RSS, ${readState.customers} cust. / ${readState.activities} act. (MB)`, value: simRss, target: "< 300", ok: (v: number) => v < 300 },
    { what: "award with --data vs in memory", value: rps("loyalty-sim --data") / award.rps, target: ">= 0.3", ok: (v: number) => v >= 0.3 },
  ];
  console.log(`\n  result (ratios: medians of ${ROUNDS} interleaved rounds)   measured   target`);
  for (const r of ratios) {
    console.log(`  ${r.what.padEnd(42)} ${r.value.toFixed(2).padStart(9)}   ${r.target.padEnd(7)} ${Number.isNaN(r.value) ? "n/a" : r.ok(r.value) ? "ok" : "MISSED"}`);
  }
  // Not targets: where loyalty-sim and the stack's floors sit against bare node:http on this machine.
  const context = [
    { what: "GET /customers/{id} vs bare node:http", value: get.ratio },
    { what: "award vs bare node:http", value: award.ratio },
    { what: "hono floor (GET) vs bare node:http", value: floorRead.ratio },
    { what: "hono floor (POST) vs bare node:http", value: floorWrite.ratio },
  ];
  for (const r of context) console.log(`  ${r.what.padEnd(42)} ${r.value.toFixed(2).padStart(9)}   (context)`);
  const cpuLine = (name: string, v: Versus) => `${name} ${v.cpuUs} vs bare ${v.bareCpuUs.toFixed(1)} (bare / ${name} ${(v.bareCpuUs / v.cpuUs).toFixed(2)})`;
  console.log(`\n  CPU per request (µs, medians): ${cpuLine("GET", get)}; ${cpuLine("award", award)}; ${cpuLine("floor GET", floorRead)}; ${cpuLine("floor POST", floorWrite)}`);
  const written = writeBenchResult("results.json", {
    connections: CONNECTIONS,
    durationSeconds: DURATION,
    warmupSeconds: WARMUP,
    rounds: ROUNDS,
    roundSeconds: ROUND_SECONDS,
    customers: BIG,
    sizeAtRss: readState,
    afterWrites: { ...writeState, peakRssMb: rssAfterWrites },
    runs: rows,
    results: ratios.map(({ what, value, target, ok }) => ({ what, value, target, met: ok(value) })),
    context,
  });
  console.log(`\n  written to ${written}`);
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(killChildren);
