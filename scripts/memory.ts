/**
 * `npm run memory`: the bench's memory figure without the rest of the bench. Starts the built CLI
 * with 100k customers, runs the bench's read loads on it (the walk 90% deep and the awards to its
 * writers, GET /customers/{id} and GraphQL customer(id) in rounds, the first and the deep page),
 * samples its RSS from /proc every 20 ms, and prints the peak and the phase it came in. With
 * --trace-gc, also the V8 heap spaces (used/committed) at the last collection before the peak.
 *
 *   npm run memory                                  # one run
 *   npm run memory -- --runs 5                      # five, one after the other
 *   npm run memory -- --trace-gc                    # where the peak's memory is
 *   npm run memory -- --bin other/dist/cli/bin.js   # another build, to compare
 *   npm run memory -- -- --max-semi-space-size=4    # node flags for the CLI after `--`
 */
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { AUTH, BIN, freePort, killChildren, killChildrenOnExit, peakRssMb, rssMb, start, stop, waitFor } from "./lib/sim.js";

const { values: opt, positionals: nodeFlags } = parseArgs({
  allowPositionals: true,
  options: {
    customers: { type: "string", default: "100000" },
    runs: { type: "string", default: "1" },
    seconds: { type: "string", default: "3" },
    bin: { type: "string", default: BIN },
    "trace-gc": { type: "boolean" },
  },
});
killChildrenOnExit();
/** As the bench: 3 interleaved rounds of GET and GraphQL after 2 s of warm-up each, the pages 2 s longer. */
const ROUNDS = 3;
const SECONDS = Number(opt.seconds);

async function json(url: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(url, { ...init, headers: { ...AUTH, "Content-Type": "application/json", ...init.headers } });
  return res.json();
}

async function once(): Promise<number> {
  const trace = opt["trace-gc"] ? ["--trace-gc", "--trace-gc-verbose"] : [];
  const port = await freePort();
  const t0 = performance.now();
  const child = start(process.execPath, [...trace, ...nodeFlags, opt.bin!, "--port", String(port), "--rate-limit", "off", "--quiet", "--customers", opt.customers!]);
  const pid = child.pid!;
  const now = () => Math.round(performance.now() - t0);
  const gcLines: string[] = [];
  child.stdout!.on("data", (c: Buffer) => gcLines.push(...c.toString().split("\n").filter(Boolean).map((l) => `${now()} ${l}`)));
  let phase = "start-up";
  let peak = { rss: 0, t: 0, phase };
  const sampler = setInterval(() => {
    const rss = rssMb(pid);
    if (rss > peak.rss) peak = { rss, t: now(), phase };
  }, 20);
  const mark = (what: string) => console.log(`  ${what.padEnd(34)} RSS ${rssMb(pid).toFixed(0).padStart(4)} MB  peak ${peakRssMb(pid).toFixed(0).padStart(4)} MB`);

  const url = `http://127.0.0.1:${port}`;
  const startupMs = await waitFor(`${url}/__sim/health`);
  mark(`healthy after ${startupMs.toFixed(0)} ms`);
  phase = "walk";
  const base = `${url}/rest_api/v1`;
  const first = await json(`${base}/customers?limit=100&hasCount=true`);
  let cursor: string = first.meta.pagination.nextCursor;
  for (let seen = 100; seen < first.meta.pagination.count * 0.9 - 1000; seen += 1000) {
    cursor = (await json(`${base}/customers?limit=1000&after=${encodeURIComponent(cursor)}`)).meta.pagination.nextCursor;
  }
  const writers: string[] = first.data.filter((c: any) => c.state === "active" && !c.mergedIntoCustomerId).map((c: any) => c.id);
  for (const id of writers) await json(`${base}/customers/${id}/stamps/award`, { method: "POST", body: JSON.stringify({ stamps: 1_000_000_000 }) });
  mark("walked, writers awarded");

  const query = `{ customer(id: "${writers[0]}") { id firstName lastName email stampBalance cards stampsToNextReward stampsExpireAt vipTierId vipTierName dateOfBirth state mergedIntoCustomerId nextReward { id name } } }`;
  const reads: [string, autocannon.Options][] = [
    ["GET /customers/{id}", { url: `${base}/customers/${writers[0]}`, headers: AUTH }],
    ["GraphQL customer(id)", { url: `${url}/graphql`, method: "POST", headers: { ...AUTH, "content-type": "application/json" }, body: JSON.stringify({ query }) }],
  ];
  const pages: [string, autocannon.Options][] = [
    ["first page", { url: `${base}/customers?limit=100`, headers: AUTH }],
    ["deep page", { url: `${base}/customers?limit=100&after=${encodeURIComponent(cursor)}`, headers: AUTH }],
  ];
  const load = async ([name, o]: [string, autocannon.Options], seconds: number) => {
    phase = name;
    return Math.round((await autocannon({ connections: 50, duration: seconds, ...o })).requests.average);
  };
  for (const r of reads) await load(r, 2);
  for (let round = 0; round < ROUNDS; round++) for (const r of reads) await load(r, SECONDS);
  mark("GET and GraphQL rounds");
  for (const p of pages) mark(`${p[0]}, ${await load(p, SECONDS + 2)} req/s`);
  clearInterval(sampler);
  const hwm = peakRssMb(pid);
  console.log(`  peak: VmHWM ${hwm.toFixed(0)} MB; highest sample ${peak.rss.toFixed(0)} MB at ${peak.t} ms (${peak.phase})`);
  if (opt["trace-gc"]) {
    let before = "";
    for (const line of gcLines) {
      if (Number(line.split(" ")[0]) > peak.t) break;
      const space = /(New space|Old space|Large object space|All spaces),.*used:\s+(\d+) KB.*committed:\s+(\d+) KB/.exec(line);
      if (/ms: (Scavenge|Mark-Compact)/.test(line)) before = `at ${line.split(" ")[0]} ms`;
      else if (space) before += `, ${space[1]} ${Math.round(Number(space[2]) / 1024)}/${Math.round(Number(space[3]) / 1024)}`;
    }
    const majors = gcLines.filter((l) => / ms: Mark-Compact/.test(l)).length;
    console.log(`  heap before the peak, used/committed MB: ${before}; ${majors} major collections in the run`);
  }
  await stop(child);
  return hwm;
}

async function main(): Promise<void> {
  const peaks: number[] = [];
  for (let run = 1; run <= Number(opt.runs); run++) {
    console.log(`run ${run}: ${opt.bin} ${nodeFlags.join(" ")}`);
    peaks.push(await once());
  }
  console.log(`peak RSS (VmHWM) of each run: ${peaks.map((p) => p.toFixed(0)).join(", ")} MB`);
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(killChildren);
