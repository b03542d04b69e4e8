/**
 * The inspector's HTML through `app.request`: the shell (CSP, assets, favicon), the Requests list
 * with its filters and live rows, an entry's detail with the why panel, escaping, the same-origin
 * rule, and --no-inspector.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config.js";
import { buildSimulator } from "../../src/simulator/simulator.js";
import { CSP } from "../../src/inspector/mount.js";
import { AUTH, createTestSim } from "../support/sim.js";

const htmxFile = join(dirname(createRequire(import.meta.url).resolve("htmx.org/package.json")), "dist/htmx.min.js");

type Sim = ReturnType<typeof createTestSim>;

async function html(sim: Sim, path: string) {
  const res = await sim.app.request(path);
  return { status: res.status, res, text: await res.text() };
}

async function newCustomer(sim: Sim, id: string, stampBalance: number, extra: object = {}) {
  const res = await sim.call("POST", "/__sim/customers", { body: { id, firstName: "Ada", lastName: "Lovelace", email: `${id}@example.com`, stampBalance, ...extra } });
  expect(res.status).toBe(201);
}

/** The journal ids of the rows a page lists, in order. */
const rowIds = (text: string) => [...text.matchAll(/<tr data-id="(\d+)"/g)].map((m) => Number(m[1]));

describe("the shell", () => {
  const sim = createTestSim({ customers: 0 });

  it("is an HTML page with the strict CSP, refusing framing, and local scripts, style and icon only", async () => {
    const { status, res, text } = await html(sim, "/__sim/ui");
    expect(status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=UTF-8");
    expect(res.headers.get("content-security-policy")).toBe("default-src 'self'; script-src 'self'; style-src 'self'; frame-ancestors 'none'");
    expect(CSP).toContain("frame-ancestors 'none'");
    expect(text).not.toMatch(/https?:\/\//i);
    expect(text).not.toMatch(/<script>|<script [^>]*>[^<]|<style|\sstyle="/);
    const refs = [...text.matchAll(/\b(?:src|href)="(\/__sim\/ui\/assets\/[^"]*)"/g)].map((m) => m[1]!).sort();
    expect(refs).toEqual(["/__sim/ui/assets/favicon.svg", "/__sim/ui/assets/htmx.min.js", "/__sim/ui/assets/inspector.css", "/__sim/ui/assets/inspector.js"]);
  });

  it.each([
    ["htmx.min.js", "text/javascript; charset=utf-8"],
    ["inspector.js", "text/javascript; charset=utf-8"],
    ["inspector.css", "text/css; charset=utf-8"],
    ["favicon.svg", "image/svg+xml"],
  ])("serves %s as %s", async (file, type) => {
    const res = await sim.app.request(`/__sim/ui/assets/${file}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(type);
    const bytes = Buffer.from(await res.arrayBuffer());
    if (file === "htmx.min.js") expect(bytes.equals(readFileSync(htmxFile))).toBe(true);
    else expect(bytes.equals(readFileSync(new URL(`../../assets/inspector/${file}`, import.meta.url)))).toBe(true);
  });

  it("pins htmx 4.0.x exactly", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { dependencies: Record<string, string> };
    expect(pkg.dependencies["htmx.org"]).toMatch(/^4\.0\.\d+$/);
  });

  it.each(["/__sim/ui/assets/package.json", "/__sim/ui/assets/htmx.js", "/__sim/ui/assets/..%2Fpackage.json", "/__sim/ui/nowhere", "/__sim/ui/requests/1/nothing"])("%s is a 404 NOT_FOUND", async (path) => {
    const res = await sim.app.request(path);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("NOT_FOUND");
  });

  it("is not journaled and counts against no quota", async () => {
    await sim.app.request("/__sim/ui");
    await sim.app.request("/__sim/ui/requests");
    expect((await sim.call("GET", "/__sim/requests?limit=0")).body.count).toBe(0);
  });

  it("refuses a cross-site POST with 403 FORBIDDEN (the control API's same-origin rule)", async () => {
    const res = await sim.app.request("/__sim/ui/requests", { method: "POST", headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("FORBIDDEN");
  });

  it("is a 404 with the inspector off", async () => {
    const off = buildSimulator(parseConfig({ customers: 0, inspector: false }));
    for (const path of ["/__sim/ui", "/__sim/ui/requests", "/__sim/ui/assets/htmx.min.js"]) expect((await off.app.request(path)).status, path).toBe(404);
    expect((await off.app.request("/__sim/health")).status).toBe(200);
  });
});

describe("Requests", () => {
  async function seeded() {
    const sim = createTestSim({ customers: 0 });
    await newCustomer(sim, "5550001", 7);
    await newCustomer(sim, "5550002", 30);
    await sim.call("GET", "/customers/5550001"); // 1: 200
    await sim.call("POST", "/customers/5550001/redemptions", { body: { reward_product_id: 103 } }); // 2: 422
    await sim.call("GET", "/customers/nobody"); // 3: 404
    await sim.call("GET", "/customers/5550002"); // 4: 200
    return sim;
  }

  it("lists the journal newest first with method, operation, path, status, error code, customer, decider and duration", async () => {
    const sim = await seeded();
    const { status, text } = await html(sim, "/__sim/ui/requests");
    expect(status).toBe(200);
    expect(rowIds(text)).toEqual([4, 3, 2, 1]);
    const row = /<tr data-id="2"[\s\S]*?<\/tr>/.exec(text)![0];
    expect(row).toContain("<td>POST</td><td>redeemReward</td>");
    expect(row).toContain('<a href="/__sim/ui/requests/2">/rest_api/v1/customers/5550001/redemptions</a>');
    expect(row).toContain('<td class="status">422</td><td class="error">INSUFFICIENT_STAMPS</td>');
    expect(row).toContain('<a href="/__sim/ui/customers/5550001">5550001</a>');
    expect(row).toContain("<td>handler</td>");
    expect(row).toMatch(/<td class="num">\d+\.\d ms<\/td>/);
    expect(text).toContain('data-after="4"');
  });

  it.each([
    ["status=4xx", [3, 2]],
    ["status=2xx", [4, 1]],
    ["operation=redeemReward", [2]],
    ["customer=5550002", [4]],
    ["q=INSUFFICIENT", [2]],
    ["q=req_000004", [2]],
    ["decided=scenario", []],
    ["status=4xx&operation=getCustomer", [3]],
  ])("?%s narrows the list to %j", async (query, ids) => {
    const sim = await seeded();
    expect(rowIds((await html(sim, `/__sim/ui/requests?${query}`)).text)).toEqual(ids);
  });

  it("shows the control API's refusal of a filter instead of rows", async () => {
    const sim = await seeded();
    const { status, text } = await html(sim, "/__sim/ui/requests?operation=noSuchOperation");
    expect(status).toBe(200);
    expect(text).toContain('<div class="problem" role="alert"><strong>422</strong> Request validation failed<ul class="field-errors"><li><code>query operation</code>: Invalid option: expected one of');
    expect(rowIds(text)).toEqual([]);
  });

  it("rows?after= answers only the newer rows that pass the filters (what the page adds live)", async () => {
    const sim = await seeded();
    expect(rowIds((await html(sim, "/__sim/ui/requests/rows?after=2")).text)).toEqual([4, 3]);
    expect(rowIds((await html(sim, "/__sim/ui/requests/rows?after=2&status=2xx")).text)).toEqual([4]);
    expect((await html(sim, "/__sim/ui/requests/rows?after=4")).text).toBe("");
  });

  it("keeps ?shop= in its links and lists that shop's journal", async () => {
    const sim = await seeded();
    const made = await sim.call("POST", "/__sim/shops", { body: { customers: 1 } });
    expect(made.status).toBe(201);
    const { apiKey, apiSecret, id } = made.body as { apiKey: string; apiSecret: string; id: string };
    const first = ((await (await sim.app.request(`/__sim/customers?shop=${id}`)).json()) as { customers: { id: string }[] }).customers[0]!.id;
    expect((await sim.app.request(`/rest_api/v1/customers/${first}`, { headers: { "X-Api-Key": apiKey, "X-Api-Secret": apiSecret } })).status).toBe(200);
    for (const shop of [id, apiKey]) {
      const { text } = await html(sim, `/__sim/ui/requests?shop=${shop}`);
      expect(rowIds(text), shop).toEqual([5]);
      expect(text).toContain(`href="/__sim/ui/scenarios?shop=${shop}"`);
      expect(text).toContain(`data-shop="${shop}"`);
    }
    expect(rowIds((await html(sim, "/__sim/ui/requests")).text)).toEqual([4, 3, 2, 1]);
  });

  it("an entry's detail: both bodies, headers, the why panel with balance and price, cURL and a scenario rule", async () => {
    const sim = await seeded();
    const { status, text } = await html(sim, "/__sim/ui/requests/2");
    expect(status).toBe(200);
    expect(text).toContain("<p class=\"why-summary\">422: the handler refused with INSUFFICIENT_STAMPS (balance 7, price 10)</p>");
    expect(text).toContain("customer 5550001 has a balance of 7 stamps; the price is 10 (reward 103)");
    expect(text).toContain("&quot;reward_product_id&quot;: 103");
    expect(text).toContain("&quot;code&quot;: &quot;INSUFFICIENT_STAMPS&quot;");
    expect(text).toContain("&quot;x-ratelimit-remaining&quot;: &quot;");
    expect(text).toContain(`curl -X POST &#39;http://localhost/rest_api/v1/customers/5550001/redemptions&#39; \\\n  -H &#39;content-type: application/json&#39; \\\n  -H &#39;x-api-key: sim_key&#39; \\\n  -H &#39;x-api-secret: sim_secret&#39; \\\n  --data-raw &#39;{&quot;reward_product_id&quot;:103}&#39;`);
    expect(text).toContain("rules:\n  - match:\n      operation: redeemReward\n      customerId: &quot;5550001&quot;\n    respond:\n      error: INSUFFICIENT_STAMPS\n");
  });

  it("the detail of an entry the journal does not have is a 404 page", async () => {
    const sim = await seeded();
    const { status, text } = await html(sim, "/__sim/ui/requests/99");
    expect(status).toBe(404);
    expect(text).toContain("No journal entry 99");
  });

  it("shows a body with <script> in it as text", async () => {
    const sim = createTestSim({ customers: 0 });
    await newCustomer(sim, "5550003", 1);
    const res = await sim.call("PATCH", "/customers/5550003", { body: { firstName: "<script>alert(1)</script>" } });
    const { text } = await html(sim, `/__sim/ui/requests/1`);
    expect(text).not.toContain("<script>alert(1)</script>");
    expect(text).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(res.status).toBeGreaterThanOrEqual(200);
    const list = (await html(sim, "/__sim/ui/requests?q=%3Cscript%3E")).text;
    expect(list).not.toContain("<script>alert");
  });

  it("the errors summary counts error code x operation", async () => {
    const sim = await seeded();
    await sim.call("GET", "/customers/nobody-either");
    const { text } = await html(sim, "/__sim/ui/errors");
    expect(text).toContain("<tr><th>code</th><th>getCustomer</th><th>redeemReward</th></tr>");
    expect(text).toMatch(/<th>CUSTOMER_NOT_FOUND<\/th><td class="num"><a [^>]*>2<\/a><\/td><td class="num"><\/td>/);
    expect(text).toMatch(/<th>INSUFFICIENT_STAMPS<\/th><td class="num"><\/td><td class="num"><a [^>]*>1<\/a><\/td>/);
  });
});
