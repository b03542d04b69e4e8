/**
 * verify against a simulator on a real port standing in for production, then against drifted
 * targets: a proxy in front of it that changes one thing each. Each drift fails exactly the checks
 * that cover it, and the report names what differed; a read-mode run sends the proxy no write.
 */
import { describe, expect, it } from "vitest";
import { verify, type Report } from "../../src/verify/index.js";
import { eachObject, startProxy, startStandIn, writableCustomers, type Drift, type ProxiedRequest } from "../support/verify.js";

// Enough customers that each write run has one of its own.
const sim = await startStandIn({ customers: 150 });
const [baselineCustomer, redeemCustomer, voidCustomer, overpricedCustomer, droppedCustomer] = writableCustomers(sim.engine.defaultShop().store, 5);
const credentials = { apiKey: sim.apiKey, apiSecret: sim.apiSecret };

async function run(target: string, writes?: string): Promise<Report> {
  const result = await verify({ target, ...credentials, ...(writes !== undefined && { allowWrites: true, customer: writes }) });
  if (result.kind !== "report") throw new Error("expected a report");
  return result.report;
}
const failed = (report: Report) => report.checks.filter((c) => c.status !== "pass").map((c) => c.id);
const observed = (report: Report, id: string) => report.checks.find((c) => c.id === id)!.observed ?? "";

const isRest = (request: ProxiedRequest) => request.path.startsWith("/rest_api/v1");
/** Changes every object of a REST answer. */
const restObjects = (visit: (o: Record<string, unknown>) => void) => (body: unknown, request: ProxiedRequest) => {
  if (isRest(request)) eachObject(body, visit);
  return body;
};

function renameBalance(o: Record<string, unknown>): void {
  if (!("stampBalance" in o && "firstName" in o)) return;
  o.stamp_balance = o.stampBalance;
  delete o.stampBalance;
}

/** REST cursors written as GraphQL's (base64 of {"id":N}); the ones sent back are turned into the simulator's again. */
function graphqlCursors(o: Record<string, unknown>): void {
  for (const key of ["nextCursor", "previousCursor"]) {
    if (typeof o[key] === "string") o[key] = Buffer.from(`{"id":${Buffer.from(o[key] as string, "base64").toString().slice(3)}}`).toString("base64");
  }
}
function restCursors(request: ProxiedRequest): ProxiedRequest {
  const path = request.path.replace(/([?&](?:after|before)=)([^&]+)/g, (_, key: string, cursor: string) => {
    const id = /^\{"id":(\d+)\}$/.exec(Buffer.from(decodeURIComponent(cursor), "base64").toString())?.[1];
    return `${key}${id === undefined ? cursor : encodeURIComponent(Buffer.from(`id:${id}`).toString("base64"))}`;
  });
  return { ...request, path };
}

/** Each read drift, the checks it must fail (no other), and how the first one's report names the difference. */
const drifts: [string, Drift, string[], RegExp][] = [
  ["a renamed field", { json: restObjects(renameBalance) }, ["read.customers.fields", "read.customer.fields", "read.graphql.customer"], /^data\[0\]\.stampBalance: missing \(expected number\) \(and 3 more like it\); data\[0\]: `stamp_balance` not in the contract/],
  [
    "Z timestamps",
    { json: (body, request) => (isRest(request) ? JSON.parse(JSON.stringify(body).replace(/\+00:00"/g, 'Z"')) : body) },
    ["read.envelope.timestamps"],
    /^timestamp: "[-\dT:]+Z" \(and \d+ more like it\); data\[\d\]\.stampsExpireAt: "[-\dT:]+Z"/,
  ],
  [
    "a different error code",
    { json: (body) => (body?.error?.code === "CUSTOMER_NOT_FOUND" ? { ...body, error: { ...body.error, code: "NOT_FOUND" } } : body) },
    ["read.errors.customer-not-found"],
    /^error\.code: "NOT_FOUND", expected "CUSTOMER_NOT_FOUND"$/,
  ],
  ["a missing quota header", { headers: (headers) => headers.delete("x-ratelimit-remaining") }, ["read.headers.quota"], /^x-ratelimit-remaining: missing \(and 25 more like it\)$/],
  [
    "a cursor in another format",
    { request: restCursors, json: restObjects(graphqlCursors) },
    ["read.pagination.cursors"],
    /^nextCursor "\S+" is not base64 of id:<id> \(it decodes to "\{\\"id\\":\d+\}"\) \(and 5 more like it\); previousCursor/,
  ],
];

/** The rewards list one stamp less than the simulator behind charges. */
const cheaperList: Drift = {
  json: (body) => {
    eachObject(body, (o) => {
      if (typeof o.price === "number" && typeof o.exchangeType === "string") o.price -= 1;
    });
    return body;
  },
};

/** A code's first void marks it used, as `use` does: deactivated, nothing refunded. A second void is refused, as a used code's is. */
const voided = new Set<string>();
const forgetRefund: Drift = {
  request(request) {
    if (!request.path.endsWith("/void") || voided.has(request.path)) return request;
    voided.add(request.path);
    return { ...request, path: request.path.replace(/\/void$/, "/use") };
  },
};

/** Every redemption after a customer's first is made for the first one's reward (an unknown reward's aside): one they cannot afford goes through. */
const firstRewards = new Map<string, string>();
const noPriceCheck: Drift = {
  request(request) {
    if (!request.path.endsWith("/redemptions") || request.body.includes("999999999")) return request;
    const first = firstRewards.get(request.path);
    if (first === undefined) firstRewards.set(request.path, request.body);
    return first === undefined ? request : { ...request, body: first };
  },
};

describe("verify against a simulator on a port", () => {
  it.concurrent("passes every read check, sending no write", async () => {
    const proxy = await startProxy(sim.url);
    const report = await run(proxy.url);
    expect(failed(report)).toEqual([]);
    expect(report.summary).toEqual({ pass: 31, fail: 0, skip: 0, waived: 0 });
    expect([report.requests, proxy.counts.requests, proxy.counts.writes]).toEqual([28, 28, 0]);
  });

  it.concurrent("passes every read and write check, within the request budget, and leaves the customer as found", async () => {
    const proxy = await startProxy(sim.url);
    const report = await run(proxy.url, baselineCustomer);
    expect(failed(report)).toEqual([]);
    expect(report.summary).toEqual({ pass: 51, fail: 0, skip: 0, waived: 0 });
    expect([report.requests, proxy.counts.requests]).toEqual([62, 62]);
    // The proxy's counter counts: this run's 15 writes reached it.
    expect(proxy.counts.writes).toBe(15);
    const { before, after, restore } = report.customer!;
    // The redeemed and the granted codes stay listed, voided: the API deletes none.
    expect(after).toEqual({ ...before, codes: before!.codes! + 2 });
    expect(restore).toEqual([]);
  });
});

describe("verify against drifted targets", () => {
  it.concurrent.each(drifts)("%s: fails exactly its checks, names the difference, sends no write", async (_name, drift, ids, names) => {
    const proxy = await startProxy(sim.url, drift);
    const report = await run(proxy.url);
    expect(failed(report)).toEqual(ids);
    expect(observed(report, ids[0]!)).toMatch(names);
    expect([report.summary.fail, proxy.counts.writes]).toEqual([ids.length, 0]);
  });

  it.concurrent("a redeem that charges one stamp too many: fails the charge and its activity, by one stamp", async () => {
    const report = await run((await startProxy(sim.url, cheaperList)).url, redeemCustomer);
    expect(failed(report)).toEqual(["write.redeem.charge", "write.redeem.activity"]);
    const [, got, wanted] = /^stampBalance: (\d+), expected (\d+)$/.exec(observed(report, "write.redeem.charge")) ?? [];
    expect(Number(wanted) - Number(got)).toBe(1);
    expect(observed(report, "write.redeem.activity")).toBe("newest activity's stampChange: -5, expected -4");
    // The void refunds what was taken: the customer ends as found.
    expect(report.customer!.restore).toEqual([]);
  });

  it.concurrent("a void that forgets the refund: fails the refund, its activity and the restoration, and says how to restore", async () => {
    const report = await run((await startProxy(sim.url, forgetRefund)).url, voidCustomer);
    expect(failed(report)).toEqual(["write.redeem.void-refund", "write.redeem.void-activity", "write.customer.restored"]);
    const before = report.customer!.before!.balance!;
    expect(observed(report, "write.redeem.void-refund")).toBe(`the customer's stampBalance: ${before - 5}, expected ${before}`);
    const restore = `POST /rest_api/v1/customers/${voidCustomer}/stamps/adjust {"stamps": 5}`;
    expect(report.customer!.restore).toEqual([restore]);
    expect(observed(report, "write.customer.restored")).toBe(`balance ${before} before, ${before - 5} after; to restore it, send: ${restore}`);
  });

  it.concurrent("a redemption the customer cannot afford, let through: fails that check, and the run voids the code it got", async () => {
    const proxy = await startProxy(sim.url, noPriceCheck);
    const report = await run(proxy.url, overpricedCustomer);
    expect(failed(report)).toEqual(["write.redeem.over-priced"]);
    expect(observed(report, "write.redeem.over-priced")).toMatch(/^status: 200, expected 422; /);
    // The 15 writes of a run, and the void of the code the over-priced redemption got (found by one more read).
    expect([report.requests, proxy.counts.writes]).toEqual([64, 16]);
    const { before, after, restore } = report.customer!;
    expect(after).toEqual({ ...before, codes: before!.codes! + 3 });
    expect(restore).toEqual([]);
  });

  it.concurrent("a target that stops answering after the award: the run stops (a TargetError, exit code 2 in the CLI) and says how to restore the customer", async () => {
    const proxy = await startProxy(sim.url, { drop: (request) => request.path.endsWith("/stamps/adjust") });
    const error = (await run(proxy.url, droppedCustomer).then(
      () => new Error("the run went on"),
      (e: unknown) => e,
    )) as Error;
    expect(error.name).toBe("TargetError");
    // The adjustment got no answer: it may or may not have gone, so the line says what to read first.
    const base = `/rest_api/v1/customers/${droppedCustomer}`;
    // Setting its own tier again is safe, and undoes a milestone the award may have reached.
    const { balance, vipTierId } = sim.engine.defaultShop().store.customer(droppedCustomer!)!;
    const before = balance - 1;
    expect(error.message).toBe(
      `could not reach ${proxy.url} (POST ${base}/stamps/adjust): other side closed\n` +
        `The run stopped after it began to write.\n` +
        `By the run's record, customer ${droppedCustomer} may not be as it was. To restore it, send:\n` +
        `  GET ${base}, then if its stampBalance is not ${before}: POST ${base}/stamps/adjust {"stamps": ${before} minus that stampBalance}\n` +
        `  POST ${base}/tier {"tier_id": ${vipTierId}}`,
    );
  });
});
