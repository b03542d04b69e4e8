/**
 * Every loop of import that the source drives ends (issue 35, item 3): a page that says more follow
 * but brings nothing, a cursor given twice, a customer listed twice, an endless or circular chain of
 * merges all stop the import with a SourceError (exit 1, nothing written) after a few requests.
 * The stand-in is the simulator, with the answers under test replaced.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runImport, SourceError } from "../../src/import/index.js";
import { dir, startSource } from "../support/import.js";

type Json = Record<string, any>;
let outs = 0;
const NOW = "2026-11-23T12:00:00+00:00";

/** A page as the contract writes it. */
const page = (data: Json[], nextCursor: string | null, count: number | null = null) => ({
  success: true,
  data,
  meta: { pagination: { hasNext: nextCursor !== null, hasPrevious: false, nextCursor, previousCursor: null, count } },
  timestamp: NOW,
});
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });

/**
 * Imports from the stand-in with `answer` in front of it: what it returns for a request's path and
 * query (below the API base) is answered instead. Resolves with the error and the requests sent.
 */
async function importWith(answer: (path: string, sent: number) => Json | undefined, options: Json = {}) {
  const source = startSource({ customers: 0 });
  let sent = 0;
  const fetchImpl: typeof fetch = async (input, init) => {
    // A safety net: an import that would never end fails here instead of spinning the test.
    if (++sent > 500) throw new Error("the import sent more than 500 requests");
    const path = String(input).replace(/^.*\/rest_api\/v1/, "");
    const body = answer(decodeURIComponent(path), sent);
    return body === undefined ? source.deps.fetch(input, init) : json(body);
  };
  const out = join(dir, `loops-${outs++}.json`);
  const error = await runImport({ ...source.credentials, out, customers: "all", salt: "s", ...options }, { ...source.deps, fetch: fetchImpl }).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  expect(existsSync(out)).toBe(false);
  return { error, sent };
}

/** No activities and no codes, for customers the stand-in does not hold. */
function emptyHistory(path: string): Json | undefined {
  if (/^\/customers\/\d+\/activities/.test(path)) return page([], null, 0);
  if (/^\/customers\/\d+\/reward-codes/.test(path)) return { success: true, data: [], meta: { count: 0 }, timestamp: NOW };
  return undefined;
}

/** Ada as the customer list gives her (no nextReward). */
async function ada(): Promise<Json> {
  const { nextReward: _, ...listed } = (await startSource({ customers: 0 }).get("/customers/7000000000001")).data as Json;
  return listed;
}

describe("issue 35, item 3: pages that never end", () => {
  it("stops at an empty page of customers that says more follow, however fresh its cursor", async () => {
    const run = await importWith((path, sent) => (path.startsWith("/customers?") ? page([], `cursor-${sent}`) : undefined));
    expect(run.error).toEqual(new SourceError("listing customers: the source answered an empty page that says more follow (hasNext): its pages would never end, so the import stopped after 6 requests; nothing was written"));
    expect(run.sent).toBe(6);
  });

  it("stops when a cursor of customers comes again", async () => {
    const listed = await ada();
    const run = await importWith((path) => (path.startsWith("/customers?") ? page([{ ...listed, id: path.includes("after=") ? "7000000000002" : "7000000000001" }], "same") : undefined));
    expect(run.error).toEqual(new SourceError("listing customers: the source gave a cursor it had given before: its pages go round, so the import stopped after 7 requests; nothing was written"));
  });

  it("stops when a customer is listed twice, whatever the cursors say", async () => {
    const listed = await ada();
    const run = await importWith((path, sent) => (path.startsWith("/customers?") ? page([listed], `fresh-${sent}`) : undefined));
    expect(run.error).toEqual(new SourceError("listing customers: the source listed customer 7000000000001 twice: its pages go round, so the import stopped after 7 requests; nothing was written"));
  });

  it("stops when an activity is listed twice, whatever the cursors say", async () => {
    const entry = { id: "1", label: "Place an order", stampChange: 1, createdAt: "2026-10-01T09:00:00+00:00" };
    const run = await importWith((path, sent) => (/^\/customers\/7000000000001\/activities/.test(path) ? page([entry], `fresh-${sent}`) : undefined));
    expect(run.error).toEqual(new SourceError("listing the activities of customer 7000000000001: the source listed activity 1 twice: its pages go round, so the import stopped after 8 requests; nothing was written"));
  });

  it("stops at an empty page of activities that says more follow, and at a cursor of activities given twice", async () => {
    const activities = /^\/customers\/7000000000001\/activities/;
    const empty = await importWith((path, sent) => (activities.test(path) ? page([], `cursor-${sent}`) : undefined));
    expect(empty.error).toEqual(new SourceError("listing the activities of customer 7000000000001: the source answered an empty page that says more follow (hasNext): its pages would never end, so the import stopped after 7 requests; nothing was written"));
    const entry = { id: "1", label: "Place an order", stampChange: 1, createdAt: "2026-10-01T09:00:00+00:00" };
    const again = await importWith((path) => (activities.test(path) ? page([{ ...entry, id: path.includes("after=") ? "2" : "1" }], "same") : undefined));
    expect(again.error).toEqual(new SourceError("listing the activities of customer 7000000000001: the source gave a cursor it had given before: its pages go round, so the import stopped after 8 requests; nothing was written"));
  });
});

describe("issue 35, item 3: merges that never end", () => {
  it("stops an endless chain of merges after 10 customers, having read only their records (16 requests)", async () => {
    const listed = await ada();
    const merged = (id: number) => ({ ...listed, id: String(id), mergedIntoCustomerId: String(id + 1) });
    const run = await importWith((path) => {
      if (path.startsWith("/customers?")) return page([merged(100)], null, 1);
      const one = /^\/customers\/(\d+)$/.exec(path);
      return one ? { success: true, data: merged(Number(one[1])), timestamp: NOW } : emptyHistory(path);
    }, { customers: "1" });
    expect(run.error).toEqual(new SourceError("customer 100 was merged into a customer who was merged into another, more than 10 deep: the source's merges never end, so the import stopped after 16 requests; nothing was written"));
    expect(run.sent).toBe(16);
  });

  it("stops merges that go round, and a customer merged into itself", async () => {
    const listed = await ada();
    const pair = [{ ...listed, id: "100", mergedIntoCustomerId: "200" }, { ...listed, id: "200", mergedIntoCustomerId: "100" }];
    const round = await importWith((path) => (path.startsWith("/customers?") ? page(pair, null, 2) : emptyHistory(path)), { customers: "2" });
    expect(round.error).toEqual(new SourceError("customer 100 was merged into customer 200, who was merged back into customer 100: the source's merges go round; nothing was written"));
    const self = await importWith((path) => (path.startsWith("/customers?") ? page([{ ...listed, id: "100", mergedIntoCustomerId: "100" }], null, 1) : emptyHistory(path)), { customers: "1" });
    expect(self.error).toEqual(new SourceError("customer 100 was merged into itself: the source's merges go round; nothing was written"));
  });
});
