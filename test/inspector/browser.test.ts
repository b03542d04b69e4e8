/**
 * The inspector in headless Chromium, against the built CLI: a row appears live after an API
 * call (the events stream), the filters narrow the list, the why panel of an INSUFFICIENT_STAMPS
 * answer names the balance and the price, and the pages make no request off their origin and log
 * no error. One browser for the file.
 */
import type { Page } from "playwright-core";
import { describe, expect, it, type TestContext } from "vitest";
import { AUTH, inspectorSession } from "../support/inspector-session.js";
import { HANG_MS } from "../support/patience.js";

const session = inspectorSession();

/** A page that records every request it makes and every error it logs. */
async function open(ctx: TestContext, path: string) {
  // Pages are not closed one by one: the packaged Chromium runs as one process, and closing a
  // page's context before opening the next one crashes it. The browser closes them all at the end.
  const page = await session.browser.newPage();
  ctx.onTestFinished(() => page.goto("about:blank").then(() => undefined));
  page.setDefaultTimeout(HANG_MS);
  const requests: string[] = [];
  const errors: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") errors.push(m.text());
  });
  const res = await page.goto(`${session.cli.origin}${path}`);
  expect(res?.status()).toBe(200);
  return { page, requests, errors };
}

const api = (method: string, path: string, body?: object) =>
  fetch(`${session.cli.origin}${path}`, { method, headers: AUTH, ...(body && { body: JSON.stringify(body) }) });

const rowIds = (page: Page) => page.locator("#rows tr").evaluateAll((rows) => rows.map((r) => Number(r.getAttribute("data-id"))));

/** Waits until the clock page shows `at` or later. */
async function waitForNow(page: Page, at: number) {
  const now = page.locator("#now");
  await expect.poll(async () => Date.parse(await now.innerText()), { timeout: HANG_MS }).toBeGreaterThanOrEqual(at);
}

describe("the inspector in Chromium", () => {
  // Generous bounds, only to fail instead of hanging on a busy 2-core machine.
  it("shows an API call live, filters, and explains an INSUFFICIENT_STAMPS answer with balance and price", async (ctx) => {
    expect((await api("POST", "/__sim/customers", { id: "5550001", firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", stampBalance: 7 })).status).toBe(201);
    const { page, requests, errors } = await open(ctx, "/__sim/ui/requests");
    await expect(rowIds(page)).resolves.toEqual([]);

    expect((await api("GET", "/rest_api/v1/customers/5550001")).status).toBe(200);
    await page.locator('#rows tr[data-id="1"]').waitFor();
    expect((await api("POST", "/rest_api/v1/customers/5550001/redemptions", { reward_product_id: 103 })).status).toBe(422);
    const refused = page.locator('#rows tr[data-id="2"]');
    await refused.waitFor();
    await expect(rowIds(page)).resolves.toEqual([2, 1]);
    await expect(refused.innerText()).resolves.toMatch(/POST\s+redeemReward\s+\/rest_api\/v1\/customers\/5550001\/redemptions\s+422\s+INSUFFICIENT_STAMPS\s+5550001\s+handler/);

    await page.locator('select[name="status"]').selectOption("4xx");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/status=4xx/);
    await expect(rowIds(page)).resolves.toEqual([2]);
    // Live rows keep to the filters: a 200 is not added, a 404 is.
    expect((await api("GET", "/rest_api/v1/customers/5550001")).status).toBe(200);
    expect((await api("GET", "/rest_api/v1/customers/nobody")).status).toBe(404);
    await page.locator('#rows tr[data-id="4"]').waitFor();
    await expect(rowIds(page)).resolves.toEqual([4, 2]);

    await page.locator('#rows tr[data-id="2"] a[href="/__sim/ui/requests/2"]').click();
    await page.waitForURL(`${session.cli.origin}/__sim/ui/requests/2`);
    const why = page.locator("#why");
    await expect(why.locator(".why-summary").innerText()).resolves.toBe("422: the handler refused with INSUFFICIENT_STAMPS (balance 7, price 10)");
    await expect(why.innerText()).resolves.toContain("customer 5550001 has a balance of 7 stamps; the price is 10 (reward 103)");
    await expect(page.locator("#curl").innerText()).resolves.toContain(`curl -X POST '${session.cli.origin}/rest_api/v1/customers/5550001/redemptions'`);

    expect(errors).toEqual([]);
    expect(requests.filter((url) => new URL(url).origin !== session.cli.origin)).toEqual([]);
    expect(requests).toEqual(expect.arrayContaining([`${session.cli.origin}/__sim/ui/assets/htmx.min.js`, `${session.cli.origin}/__sim/ui/assets/inspector.js`, `${session.cli.origin}/__sim/events`]));
  });

  it("shows an invalid YAML scenario's field error inline, the clock page follows an advance, and a reset empties the Requests page", async (ctx) => {
    const { page, requests, errors } = await open(ctx, "/__sim/ui/scenarios");
    await page.locator("textarea[name=yaml]").fill("name: bad\nrules:\n  - match:\n      operation: noSuchOperation\n    respond:\n      error: INSUFFICIENT_STAMPS\n");
    await page.getByRole("button", { name: "Add scenario" }).click();
    const problem = page.locator("#scenarios .problem");
    await problem.waitFor();
    await expect(problem.locator(".field-errors code").innerText()).resolves.toBe("body rules[0].match.operation");
    await expect(page.locator("h1").innerText()).resolves.toBe("Scenarios");

    await page.getByRole("button", { name: "errors/insufficient-stamps.yaml" }).click();
    await page.locator('#scenarios tr[data-scenario="error-insufficient-stamps"]').waitFor();

    await page.getByRole("link", { name: "Clock" }).click();
    await page.waitForURL(`${session.cli.origin}/__sim/ui/clock`);
    const now = Date.parse(await page.locator("#now").innerText());
    await page.getByRole("button", { name: "+30d" }).click();
    await waitForNow(page, now + 30 * 86_400_000);
    // A change from elsewhere (a test's control call) reaches the open page over the events stream.
    const later = Date.parse(await page.locator("#now").innerText()) + 7 * 86_400_000;
    expect((await api("POST", "/__sim/clock", { advanceSeconds: 7 * 86_400 })).status).toBe(200);
    await waitForNow(page, later);

    // A reset (from a test's afterEach, say) empties the open Requests page.
    await page.getByRole("link", { name: "Requests" }).click();
    await page.waitForURL(`${session.cli.origin}/__sim/ui/requests`);
    await expect.poll(() => rowIds(page)).not.toEqual([]);
    expect((await api("POST", "/__sim/reset")).status).toBe(200);
    await expect.poll(() => rowIds(page), { timeout: HANG_MS }).toEqual([]);

    expect(errors).toEqual([]);
    expect(requests.filter((url) => new URL(url).origin !== session.cli.origin)).toEqual([]);
  });
});
