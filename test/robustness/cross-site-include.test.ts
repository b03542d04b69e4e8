/**
 * The probe that found issue 26, case 1, in a real browser (headless Chromium) against the built
 * CLI started with credentials of its own: a hostile page served from another origin defines
 * the globals GraphiQL's init.js uses (`React`, `ReactDOM`, `GraphiQL`) as fakes that capture its settings, includes
 * `<script src=".../graphql/init.js">`, fetch()es the GraphiQL page and init.js, frames the page,
 * and awards stamps with whatever credentials it found. It must find none, and the balance must not
 * move; the DNS-rebinding shape (a Host that is not a loopback name) is checked without a browser.
 * The simulator's own GraphiQL page, opened at 127.0.0.1, still has the headers and runs a query.
 */
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser.js";
import { ensureBuilt, killAll, startCli, stopCli, type StartedCli } from "../support/cli.js";
import { HANG_MS } from "../support/patience.js";

const KEY = "probe_key_5d2b";
const SECRET = "probe_secret_e81c";
const AUTH = { "X-Api-Key": KEY, "X-Api-Secret": SECRET };
/** Another site than the simulator's 127.0.0.1 (on Linux every 127.x address is this machine). */
const OTHER_SITE = process.platform === "linux" ? "127.0.0.2" : "localhost";

let browser: Browser | undefined;
let cli: StartedCli | undefined;
const hostile: Server[] = [];
let customer = "";

beforeAll(() => ensureBuilt());
beforeAll(async () => {
  [browser, cli] = await Promise.all([launchBrowser(), startCli(["--port", "0", "--customers", "3", "--api-key", KEY, "--api-secret", SECRET, "--quiet"])]);
  const list = (await (await fetch(`${cli.origin}/rest_api/v1/customers?limit=5`, { headers: AUTH })).json()) as { data: { id: string; state: string }[] };
  customer = list.data.find((c) => c.state === "active")!.id;
});
afterAll(async () => {
  await browser?.close();
  if (cli) await stopCli(cli);
  await killAll();
  await Promise.all(hostile.map((s) => new Promise((resolve) => s.close(resolve))));
});

const balance = async () => ((await (await fetch(`${cli!.origin}/rest_api/v1/customers/${customer}`, { headers: AUTH })).json()) as { data: { stampBalance: number } }).data.stampBalance;

/** The attacker's page: everything it can get of the simulator's pages, into `window.report`. */
function hostilePage(sim: string, customerId: string): string {
  const script = `
const SIM = ${JSON.stringify(sim)};
const report = (window.report = { captured: [], attempts: {}, found: null, award: null });
const capture = (settings) => report.captured.push(JSON.stringify(settings));
window.GraphiQL = Object.assign(function () {}, { createFetcher: capture });
window.React = { createElement: (component, props) => capture(props) };
window.ReactDOM = { createRoot: () => ({ render: () => undefined }) };
async function attempt(url, init) {
  try {
    const res = await fetch(url, init);
    return { status: res.status, type: res.type, text: await res.text() };
  } catch (error) {
    return { error: String(error) };
  }
}
/** Credentials as any of the texts might carry them (JSON, or JSON in an HTML attribute). */
function credentials(text) {
  const plain = String(text).replace(/&quot;/g, '"');
  const key = /"X-Api-Key"\\s*:\\s*"([^"]+)"/.exec(plain);
  const secret = /"X-Api-Secret"\\s*:\\s*"([^"]+)"/.exec(plain);
  return key && secret && key[1] !== "..." ? { key: key[1], secret: secret[1] } : null;
}
window.addEventListener("load", async () => {
  report.script = document.querySelector("#include").dataset.state || "pending";
  report.attempts.page = await attempt(SIM + "/graphql", { headers: { Accept: "text/html" } });
  report.attempts.init = await attempt(SIM + "/graphql/init.js");
  report.attempts.pageNoCors = await attempt(SIM + "/graphql", { mode: "no-cors" });
  const frame = document.createElement("iframe");
  frame.src = SIM + "/graphql";
  document.body.append(frame);
  await new Promise((resolve) => { frame.onload = resolve; setTimeout(resolve, 5000); });
  try {
    report.attempts.frame = { text: frame.contentDocument ? frame.contentDocument.documentElement.outerHTML : "(no access)" };
  } catch (error) {
    report.attempts.frame = { error: String(error) };
  }
  const texts = [...report.captured, ...Object.values(report.attempts).map((a) => a.text || "")];
  for (const text of texts) report.found = report.found || credentials(text);
  if (report.found) {
    report.award = await attempt(SIM + "/rest_api/v1/customers/${customerId}/stamps/award", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Api-Key": report.found.key, "X-Api-Secret": report.found.secret },
      body: JSON.stringify({ stamps: 999 }),
    });
  }
  report.done = true;
});`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>hostile</title>
<script>${script}</script></head>
<body><div id="root"></div>
<script id="include" src="${sim}/graphql/init.js" onload="this.dataset.state='loaded'" onerror="this.dataset.state='blocked'"></script>
</body></html>`;
}

/** Serves the hostile page on `host`, on a port of its own; its origin. */
async function serveHostile(host: string): Promise<string> {
  const server = createServer((req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(hostilePage(cli!.origin, customer));
  });
  hostile.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

describe("robustness: a hostile page includes GraphiQL's script and fetches its page", () => {
  // Generous bounds, only to fail instead of hanging on a busy 2-core machine.
  it.each([
    ["another site", OTHER_SITE],
    ["another port of the same host (same site)", "127.0.0.1"],
  ])("from %s: no credential obtained, the balance unmoved", async (_, host) => {
    const before = await balance();
    const origin = await serveHostile(host);
    const page = await browser!.newPage();
    page.setDefaultTimeout(HANG_MS);
    await page.goto(origin);
    // Expressions as text: the tests are typed without the DOM's globals.
    await page.waitForFunction("window.report !== undefined && window.report.done === true");
    const report = (await page.evaluate("window.report")) as {
      captured: string[];
      attempts: Record<string, { status?: number; type?: string; text?: string; error?: string }>;
      found: unknown;
      award: unknown;
      script: string;
    };
    await page.goto("about:blank");
    const seen = JSON.stringify(report);
    expect(seen.includes(KEY) || seen.includes(SECRET)).toBe(false);
    expect([report.found, report.award]).toEqual([null, null]);
    // The script is refused as another origin's (Cross-Origin-Resource-Policy), and the reads fail as CORS does.
    expect([report.script, report.captured]).toEqual(["blocked", []]);
    expect([report.attempts.page?.error, report.attempts.init?.error]).toEqual(["TypeError: Failed to fetch", "TypeError: Failed to fetch"]);
    expect([report.attempts.pageNoCors?.type, report.attempts.pageNoCors?.text]).toEqual(["opaque", ""]);
    expect(await balance()).toBe(before);
  });

  /** GET `path` with `host` as the Host header (what a browser sends for a DNS name pointed at 127.0.0.1). */
  const withHost = (path: string, host: string) =>
    new Promise<string>((resolve, reject) => {
      const url = new URL(cli!.origin);
      const req = request({ host: url.hostname, port: url.port, path, headers: { Host: host, Accept: "text/html" } }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve(text));
      });
      req.on("error", reject);
      req.end();
    });

  it("DNS rebinding: the page and init.js asked for with a Host that is not a loopback name hold no credential", async () => {
    const port = new URL(cli!.origin).port;
    for (const host of [`rebind.attacker.test:${port}`, `localhost.attacker.test:${port}`, `127.0.0.1.nip.io:${port}`]) {
      for (const path of ["/graphql", "/graphql/init.js"]) {
        const text = await withHost(path, host);
        expect([host, path, text.includes(KEY) || text.includes(SECRET)]).toEqual([host, path, false]);
      }
    }
    // The same request with the simulator's own Host gets the page with the headers: the check above can fail.
    expect(await withHost("/graphql", `127.0.0.1:${port}`)).toContain(`&quot;X-Api-Key&quot;:&quot;${KEY}&quot;`);
  });
});

describe("robustness: the simulator's own GraphiQL page", () => {
  it("opened at 127.0.0.1, has the headers filled in and runs its default query with them", async (ctx) => {
    const page = await browser!.newPage();
    ctx.onTestFinished(() => page.goto("about:blank").then(() => undefined));
    page.setDefaultTimeout(HANG_MS);
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(m.text());
    });
    const res = await page.goto(`${cli!.origin}/graphql`);
    expect(res?.status()).toBe(200);
    const answer = page.waitForResponse((r) => r.url() === `${cli!.origin}/graphql` && r.request().method() === "POST" && (r.request().postData() ?? "").includes("programName"));
    await page.locator(".graphiql-execute-button").click();
    const response = await answer;
    expect([response.request().headers()["x-api-key"], response.request().headers()["x-api-secret"]]).toEqual([KEY, SECRET]);
    expect([response.status(), await response.json()]).toMatchObject([200, { data: { shop: { programName: "Crumb & Bean Rewards" } } }]);
    expect(problems).toEqual([]);
  });
});
