/**
 * The Coverage page in headless Chromium, against the built CLI: the duplicate write on top, the
 * grid's cells tested, tested only when forced and untested, and a cell's link to the journal's
 * requests that ended so.
 */
import { describe, expect, it } from "vitest";
import { AUTH, inspectorSession } from "../support/inspector-session.js";
import { HANG_MS } from "../support/patience.js";

const session = inspectorSession();

const api = (method: string, path: string, body?: object, headers: Record<string, string> = {}) =>
  fetch(`${session.cli.origin}${path}`, { method, headers: { ...AUTH, ...headers }, ...(body && { body: JSON.stringify(body) }) });

describe("issue 29: the Coverage page in Chromium", () => {
  it("shows the duplicate write, the grid by state, and links a cell to its requests", async () => {
    expect((await api("POST", "/__sim/customers", { id: "5550002", firstName: "Grace", lastName: "Hopper", email: "grace@example.com", stampBalance: 3 })).status).toBe(201);
    expect((await api("POST", "/__sim/scenarios", { name: "lost", rules: [{ match: { operation: "awardStamps" }, times: 1, respond: { fault: "connection_reset", commit: true } }] })).status).toBe(201);
    expect((await api("GET", "/rest_api/v1/customers/5550002")).status).toBe(200);
    expect((await api("GET", "/rest_api/v1/customers/nobody")).status).toBe(404);
    expect((await api("GET", "/rest_api/v1/customers/nobody")).status).toBe(404);
    await expect(api("POST", "/rest_api/v1/customers/5550002/stamps/award", { stamps: 2 }, { "X-Request-Id": "try-1" })).rejects.toThrow("fetch failed");
    expect((await api("POST", "/rest_api/v1/customers/5550002/stamps/award", { stamps: 2 }, { "X-Request-Id": "try-2" })).status).toBe(200);

    const page = await session.browser.newPage();
    page.setDefaultTimeout(HANG_MS);
    const requests: string[] = [];
    const errors: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    page.on("pageerror", (e) => errors.push(e.message));
    expect((await page.goto(`${session.cli.origin}/__sim/ui/coverage`))?.status()).toBe(200);

    const duplicates = page.locator(".duplicates tbody tr");
    await expect(duplicates.count()).resolves.toBe(1);
    await expect(duplicates.innerText()).resolves.toMatch(/awardStamps\s+5550002\s+try-1\s+try-2\s+no/);
    const cell = (operation: string, outcome: string) => page.locator(`tr[data-operation="${operation}"] td[data-outcome="${outcome}"]`);
    await expect(cell("getCustomer", "ok").getAttribute("class")).resolves.toBe("cell tested");
    await expect(cell("getCustomer", "CUSTOMER_NOT_FOUND").innerText()).resolves.toBe("2");
    await expect(cell("awardStamps", "lostAfterCommit").getAttribute("class")).resolves.toBe("cell forced");
    await expect(cell("awardStamps", "ok").innerText()).resolves.toBe("1");
    await expect(cell("getShop", "ok").getAttribute("class")).resolves.toBe("cell untested");
    // An outcome the operation does not have is no cell.
    await expect(cell("getShop", "CUSTOMER_NOT_FOUND").count()).resolves.toBe(0);
    await expect(page.locator("p.summary strong").innerText()).resolves.toBe("4 of 224 cells (1.8%)");

    await cell("getCustomer", "CUSTOMER_NOT_FOUND").locator("a").click();
    await page.waitForURL(/\/__sim\/ui\/requests\?operation=getCustomer&outcome=CUSTOMER_NOT_FOUND/);
    const rows = page.locator("#rows tr");
    await expect(rows.count()).resolves.toBe(2);
    await expect(rows.first().innerText()).resolves.toMatch(/GET\s+getCustomer\s+\/rest_api\/v1\/customers\/nobody\s+404\s+CUSTOMER_NOT_FOUND/);

    expect(errors).toEqual([]);
    expect(requests.filter((url) => new URL(url).origin !== session.cli.origin)).toEqual([]);
  });
});
