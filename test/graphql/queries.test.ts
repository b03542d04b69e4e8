/**
 * Queries against a seeded shop, compared with what REST answers on the same shop: not found,
 * partial results, other shops' ids, pagination, the customer's fields, Int ids (acceptance
 * checks 4, 5, 8, 11-15, 17, 18, 30, 38).
 * @module
 */
import { describe, expect, it } from "vitest";
import { DAY_MS } from "../../src/engine/clock.js";
import { defaultSpec } from "../support/sim.js";
import { errorsOf, expectFieldError, graphqlCursor, graphqlSim } from "./graphql-sim.js";

const decode = (cursor: string) => Buffer.from(cursor, "base64").toString("utf8");
const CUSTOMER_FIELDS =
  "id firstName lastName email stampBalance cards stampsToNextReward stampsExpireAt vipTierId vipTierName dateOfBirth state mergedIntoCustomerId nextReward { id name }";

describe("single reads", () => {
  const sim = graphqlSim();

  it("customer(id: \"0\") is null with CUSTOMER_NOT_FOUND at its path (check 4)", async () => {
    const res = await sim.gql('{ customer(id: "0") { id } }');
    expectFieldError(res, { customer: null }, "CUSTOMER_NOT_FOUND", ["customer"]);
    expect(res.body.errors[0].extensions).toStrictEqual({ reason: "Customer 0 not found" });
    expect(res.body.errors[0].locations).toStrictEqual([{ line: 1, column: 3 }]);
  });

  it("unknown reward, tier and earn rule: three nulls, each error at its alias (check 5)", async () => {
    const res = await sim.gql('{ x: reward(id: "999") { id } t: tier(id: "99") { id } e: earnRule(id: "abc") { id } }');
    expect(res.body.data).toStrictEqual({ x: null, t: null, e: null });
    expect(errorsOf(res)).toStrictEqual([
      { message: "REWARD_NOT_FOUND", path: ["x"] },
      { message: "TIER_NOT_FOUND", path: ["t"] },
      { message: "EARN_RULE_NOT_FOUND", path: ["e"] },
    ]);
  });

  it("ids are opaque: 044, a 30-digit id and an Int literal are looked up as text", async () => {
    const res = await sim.gql(`{ a: reward(id: "044") { id } b: reward(id: 101) { id } c: customer(id: "${"9".repeat(30)}") { id } }`);
    expect(res.body.data).toStrictEqual({ a: null, b: { id: "101" }, c: null });
    expect(errorsOf(res)).toStrictEqual([
      { message: "REWARD_NOT_FOUND", path: ["a"] },
      { message: "CUSTOMER_NOT_FOUND", path: ["c"] },
    ]);
  });

  it("a failing root field leaves the others' data (check 30)", async () => {
    const res = await sim.gql('{ shop { programName } customer(id: "0") { id } }');
    expectFieldError(res, { shop: { programName: "Crumb & Bean Rewards" }, customer: null }, "CUSTOMER_NOT_FOUND", ["customer"]);
  });

  it("customer(id) with all 14 fields is REST's customer, with nulls where REST leaves a field out (check 17)", async () => {
    const C = sim.activeCustomer(20);
    const rest = await sim.restCustomer(C);
    const res = await sim.gql(`{ customer(id: "${C}") { ${CUSTOMER_FIELDS} } }`);
    const nulls = { stampsExpireAt: null, vipTierId: null, vipTierName: null, dateOfBirth: null, mergedIntoCustomerId: null, nextReward: null };
    const fields = CUSTOMER_FIELDS.replace(" { id name }", "").split(" ");
    expect(res.body).toStrictEqual({ data: { customer: Object.fromEntries(fields.map((f) => [f, { ...nulls, ...rest }[f]])) } });
    expect(typeof res.body.data.customer.nextReward.id).toBe("string");
    expect(typeof res.body.data.customer.vipTierId).toBe("number");
  });

  it("a merged customer: mergedIntoCustomerId (a 13-digit id) cannot be a 32-bit Int, the rest is there (check 18)", async () => {
    const M = sim.mergedCustomer();
    const res = await sim.gql(`{ customer(id: "${M}") { id mergedIntoCustomerId } }`);
    expect(res.body.data).toStrictEqual({ customer: { id: M, mergedIntoCustomerId: null } });
    expect(errorsOf(res)).toHaveLength(1);
    expect(res.body.errors[0].path).toStrictEqual(["customer", "mergedIntoCustomerId"]);
    expect(res.body.errors[0].message).toMatch(/^Int cannot represent non 32-bit signed integer value: "\d{13}"$/);
  });

  it("the lists are REST's: rewards without POS-only and tier-locked ones, every beacon, tiers, earn rules, codes", async () => {
    const C = sim.activeCustomer(20);
    sim.shop.grantReward(C, 101);
    const res = await sim.gql(`{ rewards { id name price exchangeType iconUrl } beacons { id name message icon active } tiers { id name milestone multiplier iconUrl benefits rewards { id } }
      earnRules { id name type step multiplier iconUrl } rewardCodes(customerId: "${C}", available: true) { id name code used } }`);
    const rest = async (path: string) => (await sim.call("GET", path)).body.data;
    expect(res.body.data.rewards).toStrictEqual(await rest("/rewards"));
    expect(res.body.data.beacons).toStrictEqual(await rest("/beacons"));
    expect(res.body.data.earnRules).toStrictEqual(await rest("/earn-rules"));
    const tiers = (await rest("/tiers")) as { rewards: { id: string }[] }[];
    expect(res.body.data.tiers).toStrictEqual(tiers.map((t) => ({ ...t, rewards: t.rewards.map((r) => ({ id: r.id })) })));
    const codes = (await rest(`/customers/${C}/reward-codes?available=true`)) as { createdAt: string }[];
    expect(res.body.data.rewardCodes).toStrictEqual(codes.map(({ createdAt: _, ...code }) => code));
  });
});

describe("other shops' ids (check 8)", () => {
  const sim = graphqlSim();
  const spec = defaultSpec({ seed: 2 });
  const other = sim.engine.addShop({ ...spec, id: "2", access: { ...spec.access, apiKey: "key2", apiSecret: "secret2" } });
  const twin = sim.engine.addShop({ ...defaultSpec(), id: "3", access: { ...spec.access, apiKey: "key3", apiSecret: "secret3" } });

  it("a customer of another shop is not found in this one", async () => {
    const theirs = other.store.data.customers[0]!.id;
    expect(sim.shop.store.customer(theirs)).toBeUndefined();
    expectFieldError(await sim.gql(`{ customer(id: "${theirs}") { id } }`), { customer: null }, "CUSTOMER_NOT_FOUND", ["customer"]);
    expect((await sim.gql(`{ customer(id: "${theirs}") { id } }`, undefined, { auth: { "X-Api-Key": "key2", "X-Api-Secret": "secret2" } })).body.data.customer.id).toBe(theirs);
    const award = await sim.gql(`mutation { awardStamps(customerId: "${theirs}", stamps: 1) { stampBalance } }`);
    expectFieldError(award, null, "CUSTOMER_NOT_FOUND", ["awardStamps"]);
  });

  it("two shops of the same seed have the same ids, and each reads and writes its own records", async () => {
    const C = sim.activeCustomer(20);
    const before = twin.store.customer(C)!.balance;
    const res = await sim.gql(`mutation { awardStamps(customerId: "${C}", stamps: 7) { stampBalance } }`);
    expect(res.body.data.awardStamps.stampBalance).toBe(before + 7);
    expect(twin.store.customer(C)!.balance).toBe(before);
  });
});

describe("pagination, as REST pages (checks 11-15)", () => {
  const sim = graphqlSim({ customers: 30 });
  const page = "items { id nextReward { id } } pageInfo { hasNext hasPrevious nextCursor previousCursor count }";

  it("customers(limit: 2): REST's two oldest, no nextReward, cursors of {\"id\":N} of the first and last items", async () => {
    const res = await sim.gql(`{ customers(limit: 2) { ${page} } }`);
    const rest = (await sim.call("GET", "/customers?limit=2")).body;
    const ids = rest.data.map((c: { id: string }) => c.id);
    expect(res.body.data.customers).toStrictEqual({
      items: ids.map((id: string) => ({ id, nextReward: null })),
      pageInfo: { hasNext: true, hasPrevious: false, nextCursor: graphqlCursor(ids[1]), previousCursor: graphqlCursor(ids[0]), count: null },
    });
    expect(decode(res.body.data.customers.pageInfo.nextCursor)).toBe(`{"id":${ids[1]}}`);
  });

  it("walking with limit 7 visits REST's sequence; hasCount gives REST's count", async () => {
    const walk = async (next: (after: string | null) => Promise<{ ids: string[]; after: string | null }>) => {
      const seen: string[] = [];
      for (let after: string | null = null, first = true; first || after !== null; first = false) {
        const step = await next(after);
        seen.push(...step.ids);
        after = step.after;
      }
      return seen;
    };
    const viaGraphql = await walk(async (after) => {
      const res = await sim.gql("query ($after: String) { customers(limit: 7, after: $after, hasCount: true) { items { id } pageInfo { hasNext nextCursor count } } }", { after });
      const { items, pageInfo } = res.body.data.customers;
      expect(pageInfo.count).toBe(30);
      return { ids: items.map((c: { id: string }) => c.id), after: pageInfo.hasNext ? pageInfo.nextCursor : null };
    });
    const viaRest = await walk(async (after) => {
      const { body } = await sim.call("GET", `/customers?limit=7&hasCount=true${after ? `&after=${after}` : ""}`);
      expect(body.meta.pagination.count).toBe(30);
      return { ids: body.data.map((c: { id: string }) => c.id), after: body.meta.pagination.hasNext ? body.meta.pagination.nextCursor : null };
    });
    expect(viaGraphql).toStrictEqual(viaRest);
    expect(viaGraphql).toHaveLength(30);
  });

  it("before: the previousCursor of page 2 gives page 1; after and before together are refused", async () => {
    const first = (await sim.gql("{ customers(limit: 5) { items { id } pageInfo { nextCursor } } }")).body.data.customers;
    const second = (await sim.gql(`{ customers(limit: 5, after: "${first.pageInfo.nextCursor}") { items { id } pageInfo { previousCursor } } }`)).body.data.customers;
    const back = await sim.gql(`{ customers(limit: 5, before: "${second.pageInfo.previousCursor}") { items { id } } }`);
    expect(back.body.data.customers.items).toStrictEqual(first.items);
    const both = await sim.gql(`{ customers(after: "${first.pageInfo.nextCursor}", before: "${second.pageInfo.previousCursor}") { items { id } } }`);
    expectFieldError(both, null, "VALIDATION_ERROR", ["customers"]);
    expect(both.body.errors[0].extensions.details).toStrictEqual([{ in: "argument", path: "before", message: "cannot be combined with 'after'; send one cursor" }]);
  });

  it.each([
    ["limit: 0", "limit", "Too small: expected number to be >=1"],
    ["limit: 1001", "limit", "Too big: expected number to be <=1000"],
    ['after: "aWQ6MTAx"', "after", `is not a cursor returned by this API (expected base64 of '{"id":<id>}')`],
    ['after: "%%"', "after", `is not a cursor returned by this API (expected base64 of '{"id":<id>}')`],
    [`before: "${graphqlCursor("1")}"`, "before", "points at no record of this list"],
  ])("customers(%s) is VALIDATION_ERROR with data null (check 14)", async (args, path, message) => {
    const res = await sim.gql(`{ customers(${args}) { items { id } } }`);
    expectFieldError(res, null, "VALIDATION_ERROR", ["customers"]);
    expect(res.body.errors[0].extensions).toStrictEqual({ reason: "Request validation failed", details: [{ in: "argument", path, message }] });
  });

  it("customerActivities: REST's first page, newest first, createdAt the same instant in Z form (check 15)", async () => {
    const C = sim.activeCustomer(20);
    const res = await sim.gql(`{ customerActivities(customerId: "${C}", limit: 20) { items { id label stampChange createdAt } pageInfo { hasNext hasPrevious count } } }`);
    const rest = (await sim.call("GET", `/customers/${C}/activities?limit=20`)).body;
    const { items, pageInfo } = res.body.data.customerActivities;
    expect(items.length).toBeGreaterThan(1);
    expect(items).toStrictEqual(rest.data.map((a: { createdAt: string }) => ({ ...a, createdAt: a.createdAt.replace("+00:00", "Z") })));
    for (const item of items) expect(item.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(pageInfo).toStrictEqual({ hasNext: rest.meta.pagination.hasNext, hasPrevious: false, count: null });
  });

  it("a cursor of another list, or of another customer's ledger, points at no record", async () => {
    const [a, b] = sim.shop.store.data.customers.filter((c) => sim.shop.store.activitiesOf(c.id).length > 1);
    const theirs = (await sim.gql(`{ customerActivities(customerId: "${b!.id}", limit: 1) { pageInfo { nextCursor } } }`)).body.data.customerActivities.pageInfo.nextCursor;
    const res = await sim.gql(`{ customerActivities(customerId: "${a!.id}", after: "${theirs}") { items { id } } }`);
    expectFieldError(res, null, "VALIDATION_ERROR", ["customerActivities"]);
    const customers = await sim.gql(`{ customers(after: "${theirs}") { items { id } } }`);
    expectFieldError(customers, null, "VALIDATION_ERROR", ["customers"]);
  });
});

describe("expiry moves GraphQL's answers as REST's (check 38)", () => {
  it("400 days later the balance is 0, stampsExpireAt null, and the ledger starts with the expiry at the old instant", async () => {
    const sim = graphqlSim();
    const C = sim.activeCustomer(20);
    const { stampsExpireAt, stampBalance } = (await sim.gql(`{ customer(id: "${C}") { stampBalance stampsExpireAt } }`)).body.data.customer;
    expect(stampsExpireAt).toMatch(/\+00:00$/);
    sim.clock.advance(400 * DAY_MS);
    const res = await sim.gql(`{ customer(id: "${C}") { stampBalance stampsExpireAt } customerActivities(customerId: "${C}", limit: 1) { items { label stampChange createdAt } } }`);
    expect(res.body.data).toStrictEqual({
      customer: { stampBalance: 0, stampsExpireAt: null },
      customerActivities: { items: [{ label: `${stampBalance} stamps expired`, stampChange: -stampBalance, createdAt: stampsExpireAt.replace("+00:00", "Z") }] },
    });
  });
});
