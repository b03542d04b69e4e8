/**
 * GraphQL in the inspector, in headless Chromium at 1280x800 against the built CLI: a refused
 * `redeemReward` (a 200 whose error is in its body) shows its code in the list, a query whose one
 * field failed shows "partial", the Errors page counts both by code and operation, the why panel
 * gives the engine's reason, the copied rule catches the GraphQL field and not its REST twin, and
 * no page scrolls sideways.
 */
import type { Page } from "playwright-core";
import { parse } from "yaml";
import { describe, expect, it, type TestContext } from "vitest";
import { AUTH, inspectorSession } from "../support/inspector-session.js";
import { HANG_MS } from "../support/patience.js";

const REDEEM = 'mutation Redeem { redeemReward(customerId: "5550001", rewardProductId: "103") { code } }';
const PARTIAL = 'query Both { shop { currency } customer(id: "999") { id } }';

const session = inspectorSession();

const api = (method: string, path: string, body?: object | string) =>
  fetch(`${session.cli.origin}${path}`, { method, headers: AUTH, ...(body !== undefined && { body: typeof body === "string" ? body : JSON.stringify(body) }) });
const graphql = (query: string) => api("POST", "/graphql", { query });

async function open(ctx: TestContext, path: string) {
  const page = await session.browser.newPage({ viewport: { width: 1280, height: 800 } });
  ctx.onTestFinished(() => page.goto("about:blank").then(() => undefined));
  page.setDefaultTimeout(HANG_MS);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const res = await page.goto(`${session.cli.origin}${path}`);
  expect(res?.status()).toBe(200);
  return { page, errors };
}

/** How far the page is wider than its window (0: no horizontal scroll). */
// A string: the test's types have no DOM.
const overflow = (page: Page) => page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth");

describe("GraphQL in the inspector, at 1280 px", () => {
  it("lists, counts and explains field errors, and copies a rule for the GraphQL field", async (ctx) => {
    expect((await api("POST", "/__sim/customers", { id: "5550001", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", stampBalance: 7 })).status).toBe(201);
    const refused = await graphql(REDEEM);
    expect([refused.status, ((await refused.json()) as { errors: { message: string }[] }).errors[0]!.message]).toEqual([200, "INSUFFICIENT_STAMPS"]);
    const partial = await graphql(PARTIAL);
    expect([partial.status, ((await partial.json()) as { data: object }).data]).toEqual([200, { shop: { currency: "USD" }, customer: null }]);

    const { page, errors } = await open(ctx, "/__sim/ui/requests");
    await expect(page.locator('#rows tr[data-id="1"] td.error').innerText()).resolves.toBe("INSUFFICIENT_STAMPS");
    await expect(page.locator('#rows tr[data-id="2"] td.error').innerText()).resolves.toBe("CUSTOMER_NOT_FOUND (partial)");
    await expect(page.locator('#rows tr[data-id="1"]').getAttribute("class")).resolves.toBe("s4");
    await expect(overflow(page)).resolves.toBe(0);

    await page.getByRole("link", { name: "Errors" }).click();
    await page.waitForURL(`${session.cli.origin}/__sim/ui/errors`);
    const cells = async (row: number) => (await page.locator("table.errors tr").nth(row).locator("th, td").allInnerTexts()).map((t) => t.trim());
    const table = [await cells(0), await cells(1), await cells(2)];
    await expect(page.locator("table.errors tr").count()).resolves.toBe(3);
    expect(table).toEqual([
      ["code", "getCustomer", "redeemReward"],
      ["CUSTOMER_NOT_FOUND", "1", ""],
      ["INSUFFICIENT_STAMPS", "", "1"],
    ]);
    await expect(overflow(page)).resolves.toBe(0);

    await page.goto(`${session.cli.origin}/__sim/ui/requests/1`);
    const why = page.locator("#why");
    await expect(why.locator(".why-summary").innerText()).resolves.toBe("200: GraphQL field redeemReward refused with INSUFFICIENT_STAMPS (balance 7, price 10)");
    await expect(why.innerText()).resolves.toContain("customer 5550001 has a balance of 7 stamps; the price is 10 (reward 103)");
    await expect(why.locator(".step.refused").last().innerText()).resolves.toMatch(/handler\s+refused\s+field redeemReward refused with INSUFFICIENT_STAMPS: Customer 5550001 has 7 stamps; Free pastry costs 10/);
    const rule = parse(await page.locator("#scenario-yaml").innerText()) as { rules: unknown[] };
    expect(rule.rules).toEqual([
      { match: { api: "graphql", graphql: { field: "redeemReward" }, customerId: "5550001" }, respond: { error: "INSUFFICIENT_STAMPS", message: "Customer 5550001 has 7 stamps; Free pastry costs 10" } },
    ]);
    await expect(overflow(page)).resolves.toBe(0);

    await page.goto(`${session.cli.origin}/__sim/ui/requests/2`);
    await expect(why.locator(".why-summary").innerText()).resolves.toBe("200: GraphQL field customer refused with CUSTOMER_NOT_FOUND (partial: other fields answered)");
    await expect(overflow(page)).resolves.toBe(0);

    // The copied rule, added as it is, refuses the GraphQL field and leaves its REST twin alone.
    expect((await api("POST", "/__sim/reset")).status).toBe(200);
    expect((await api("POST", "/__sim/customers", { id: "5550001", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", stampBalance: 20 })).status).toBe(201);
    expect((await api("POST", "/__sim/scenarios", { name: "copied", ...rule })).status).toBe(201);
    const rest = await api("POST", "/rest_api/v1/customers/5550001/redemptions", { reward_product_id: 103 });
    expect(rest.status).toBe(200);
    const again = (await (await graphql(REDEEM)).json()) as { errors: { message: string }[] };
    expect(again.errors[0]!.message).toBe("INSUFFICIENT_STAMPS");
    expect(errors).toEqual([]);
  });
});
