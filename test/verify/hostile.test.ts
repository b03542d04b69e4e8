/**
 * verify against targets that answer what no contract allows, as the issue found them: a wrong
 * shape is a failed check (exit code 1), never an exception; a run stopped half-way by the target
 * still undoes what it can and says how to restore the rest, from its own record. The stand-in's
 * store tells whether the customer was put back.
 */
import { describe, expect, it } from "vitest";
import { exitCodeOf, verify, type Report } from "../../src/verify/index.js";
import { customerState, startHostileProxy, withJson, type Forwarded } from "../support/hostile.js";
import { startStandIn, writableCustomers } from "../support/verify.js";

const sim = await startStandIn({ customers: 100 });
const store = sim.engine.defaultShop().store;
const [codesCustomer, tierCustomer] = writableCustomers(store, 2);
const credentials = { apiKey: sim.apiKey, apiSecret: sim.apiSecret };
const noWait = { sleep: async () => undefined };

async function run(target: string, customer?: string): Promise<Report> {
  const result = await verify({ target, ...credentials, ...(customer !== undefined && { allowWrites: true, customer }) }, noWait);
  if (result.kind !== "report") throw new Error("expected a report");
  return result.report;
}
const withStatus = (report: Report, status: string) => report.checks.filter((c) => c.status === status).map((c) => c.id);
const observed = (report: Report, id: string) => report.checks.find((c) => c.id === id)?.observed;
const isCustomerList = (a: Forwarded) => a.method === "GET" && /^\/rest_api\/v1\/customers(\?|$)/.test(a.path) && a.status === 200;

describe("a malformed answer is a failed check", () => {
  it("a customers list whose data is an object: the checks that read it fail, those that need a customer from it are skipped", async () => {
    const proxy = await startHostileProxy(sim.url, (a) => (isCustomerList(a) ? withJson(a, (body) => ({ ...body, data: { ...body.data } })) : undefined));
    const report = await run(proxy.url);
    expect(withStatus(report, "fail")).toEqual(["read.envelope.shape", "read.customers.fields", "read.customers.pages", "read.pagination.default-limit"]);
    expect(observed(report, "read.customers.fields")).toBe("data: an object, expected an array (and 1 more like it)");
    expect(observed(report, "read.pagination.default-limit")).toBe("data: an object, expected an array");
    expect(report.checks.find((c) => c.id === "read.customer.fields")).toMatchObject({ status: "skip", reason: "the shop lists no customer (GET /rest_api/v1/customers?limit=2&hasCount=true answered 200 with data an object)" });
    expect(exitCodeOf(report)).toBe(1);
  });
});

describe("a write run against a target that answers badly", () => {
  it("a reward-codes list that comes back an object after the redemption: the run goes on, voids the code it issued, and leaves the customer as found", async () => {
    const before = customerState(store, codesCustomer!);
    // The list the run reads right after its (first) redemption, to find the code's id.
    let step: "before" | "redeemed" | "done" = "before";
    const proxy = await startHostileProxy(sim.url, (a) => {
      if (step === "before" && a.method === "POST" && a.path.endsWith("/redemptions")) step = "redeemed";
      if (step !== "redeemed" || a.method !== "GET" || !a.path.endsWith("/reward-codes")) return undefined;
      step = "done";
      return withJson(a, (body) => ({ ...body, data: Object.fromEntries(body.data.map((c: unknown, i: number) => [i, c])) }));
    });
    const report = await run(proxy.url, codesCustomer);
    expect(customerState(store, codesCustomer!)).toEqual(before);
    expect(report.customer!.restore).toEqual([]);
    expect(observed(report, "write.redeem.code-listed")).toBe("data: an object, expected an array");
    expect(withStatus(report, "fail")).toEqual(["read.envelope.shape", "write.redeem.code-listed"]);
    expect(report.checks.find((c) => c.id === "write.customer.restored")!.status).toBe("pass");
  });

  it("a write answered with a redirect: the run stops (exit code 2), undoes what it can, and says what the target redirected to", async () => {
    const before = customerState(store, tierCustomer!);
    let redirected = false;
    const proxy = await startHostileProxy(sim.url, (a) => {
      if (redirected || a.method !== "POST" || !a.path.endsWith("/tier") || a.body.includes("999999999")) return undefined;
      redirected = true;
      return { kind: "redirect", status: 307, location: `${sim.url}/rest_api/v1/customers/1/tier` };
    });
    const error = await run(proxy.url, tierCustomer).then(
      () => new Error("the run went on"),
      (e: unknown) => e as Error,
    );
    expect(error.name).toBe("TargetError");
    const tierPath = `/rest_api/v1/customers/${tierCustomer}/tier`;
    expect(error.message.split("\n")[0]).toBe(
      `POST ${tierPath}: answered 307, a redirect to ${sim.url}/rest_api/v1/customers/1/tier: loyalty-sim never follows a redirect with the shop's credentials (nor re-sends a write); give the origin that answers itself`,
    );
    // The tier was set behind the redirect; setting it back is safe to send again, and the run did.
    expect(customerState(store, tierCustomer!)).toEqual(before);
    const [, undone, reads, verdict] = error.message.split("\n");
    expect(undone).toBe(`The run stopped after it began to write. It undid what it could: POST ${tierPath} {"tier_id":${before.tier}}.`);
    expect(reads).toMatch(new RegExp(`^Customer ${tierCustomer} reads now: balance ${before.balance}, \\d+ codes \\(${before.active.length} active\\), tier ${before.tier} \\(\\w+\\)\\.$`));
    expect(verdict).toBe(`By the run's record, customer ${tierCustomer} is as it was found.`);
  });
});
