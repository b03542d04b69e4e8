import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./support/browser.js";
import { ensureBuilt, killAll, startCli, stopCli } from "./support/cli.js";
import { createTestSim } from "./support/sim.js";
import { HANG_MS } from "./support/patience.js";

const committed = JSON.parse(readFileSync(new URL("../openapi/openapi.json", import.meta.url), "utf8"));
const swaggerDir = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

const TYPES: Record<string, string> = {
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  png: "image/png",
};

describe("/doc served with no CDN (app.request)", () => {
  const { app } = createTestSim();
  const page = async () => (await app.request("/doc")).text();
  const refs = (html: string) => [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);

  it("is an HTML page whose scripts, styles and icon are all local /doc/ URLs", async () => {
    const res = await app.request("/doc");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=UTF-8");
    const html = await res.text();
    expect(html).not.toMatch(/https?:\/\//i);
    expect(html).not.toMatch(/<script>[^<]/);
    expect(refs(html).sort()).toEqual([
      "/doc/assets/favicon-32x32.png",
      "/doc/assets/swagger-ui-bundle.js",
      "/doc/assets/swagger-ui-standalone-preset.js",
      "/doc/assets/swagger-ui.css",
      "/doc/init.js",
    ]);
  });

  it("answers every referenced asset with 200, its content type and the installed swagger-ui-dist bytes", async () => {
    for (const ref of refs(await page())) {
      const res = await app.request(ref);
      expect(res.status, ref).toBe(200);
      expect(res.headers.get("content-type"), ref).toBe(TYPES[ref.split(".").pop()!]);
      const bytes = Buffer.from(await res.arrayBuffer());
      if (ref.startsWith("/doc/assets/")) {
        expect(bytes.equals(readFileSync(join(swaggerDir, ref.slice("/doc/assets/".length)))), ref).toBe(true);
      } else {
        expect(bytes.length, ref).toBeGreaterThan(0);
      }
    }
  });

  it("configures Swagger UI with the local document and no online validator", async () => {
    const init = await (await app.request("/doc/init.js")).text();
    expect(init).toContain('url: "/openapi.json"');
    expect(init).toContain("validatorUrl: null");
    expect(init).not.toMatch(/https?:\/\//i);
  });

  it.each(["/doc/assets/index.html", "/doc/assets/package.json", "/doc/assets/..%2Fpackage.json", "/doc/assets/swagger-ui.js"])(
    "%s is a 404 NOT_FOUND",
    async (path) => {
      const res = await app.request(path);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
    },
  );

  it("serves /openapi.json as the committed document, with the request's origin as server", async () => {
    const res = await app.request("http://docs.example:8123/openapi.json");
    expect(res.status).toBe(200);
    const served = (await res.json()) as Record<string, unknown>;
    expect(served.servers).toEqual([{ url: "http://docs.example:8123", description: "This simulator" }]);
    expect({ ...served, servers: null }).toEqual({ ...committed, servers: null });
  });
});

/** Not 127.0.0.1 when we can: Swagger UI phones its online validator for any other host. */
const HOST = process.platform === "linux" ? "127.0.0.2" : "127.0.0.1";

describe("/doc in a real browser (Chromium)", () => {
  let browser: Browser | undefined;
  beforeAll(() => ensureBuilt());
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await killAll();
  });

  // Generous bounds, only to fail instead of hanging: on a shared 2-core machine Swagger UI's
  // bundle alone can take seconds to parse.
  it("renders offline, authorizes with both headers and runs GET /shop from the page", async (ctx) => {
    const cli = await startCli(["--port", "0", "--host", HOST]);
    ctx.onTestFinished(() => stopCli(cli));
    const page = await browser!.newPage();
    ctx.onTestFinished(() => page.close());
    page.setDefaultTimeout(HANG_MS);
    const requests: string[] = [];
    const errors: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    page.on("pageerror", (e) => errors.push(e.message));

    const res = await page.goto(`${cli.origin}/doc`);
    expect(res?.status()).toBe(200);
    await page.locator("#operations-Customers-listCustomers").waitFor();
    await expect(page.locator("#operations-tag-Customers").innerText()).resolves.toContain("Customers");

    await page.getByRole("button", { name: "Authorize" }).first().click();
    for (const [header, value] of [["X-Api-Key", "sim_key"], ["X-Api-Secret", "sim_secret"]] as const) {
      const form = page.locator(".modal-ux .auth-container").filter({ hasText: header });
      await form.locator("input").fill(value);
      await form.getByRole("button", { name: "Apply credentials" }).click();
      await form.getByText("Authorized").waitFor();
    }
    await page.locator(".modal-ux .btn-done").first().click();

    const op = page.locator("#operations-Shop-getShop");
    await op.locator(".opblock-summary").click();
    const tryIt = op.getByRole("button", { name: "Try it out" });
    if ((await tryIt.count()) > 0) await tryIt.click();
    await op.getByRole("button", { name: "Execute" }).click();
    const live = op.locator(".live-responses-table");
    await live.waitFor();
    await expect(live.locator("tr.response .response-col_status").innerText()).resolves.toBe("200");
    const shown = await live.innerText();
    expect(shown).toContain('"programName": "Crumb & Bean Rewards"');
    expect(shown).toContain("x-ratelimit-remaining: 999");
    await expect(op.locator(".request-url").innerText()).resolves.toContain(`${cli.origin}/rest_api/v1/shop`);
    if (process.env.DOC_SCREENSHOT) {
      await live.scrollIntoViewIfNeeded();
      await page.screenshot({ path: process.env.DOC_SCREENSHOT });
    }

    expect(errors).toEqual([]);
    expect(requests.filter((url) => new URL(url).origin !== cli.origin)).toEqual([]);
    expect(requests).toEqual(
      expect.arrayContaining([`${cli.origin}/doc/assets/swagger-ui-bundle.js`, `${cli.origin}/openapi.json`, `${cli.origin}/rest_api/v1/shop`]),
    );
  });
});
