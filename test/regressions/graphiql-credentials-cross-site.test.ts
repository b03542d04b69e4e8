/**
 * Issue 26, case 1. Was: `/graphql/init.js` carried the default shop's X-Api-Key and X-Api-Secret
 * (custom ones from `--api-key/--api-secret` too) in a script any web page could include with
 * `<script src>` (defining `window.YogaGraphiQL` to catch them), for any `Host` (DNS rebinding);
 * every page file answered CORS for any origin, so another site could also fetch() the HTML, and
 * none said `nosniff` or `Cross-Origin-Resource-Policy`. Now init.js is the same static script for
 * everyone; the GraphiQL page carries the headers, as data, only when the simulator serves it to a
 * same-origin request from this machine (a loopback Host, a loopback peer, `Sec-Fetch-Site` absent,
 * `none` or `same-origin`, `Origin` absent or its own), and otherwise an empty headers editor and a
 * hint; the pages' files (GraphiQL, /doc, the inspector) answer no CORS, and say `nosniff` and
 * `Cross-Origin-Resource-Policy: same-origin`; the loyalty API keeps its CORS.
 */
import { request } from "node:http";
import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type RunningSimulator } from "../../src/simulator/server.js";
import { createTestSim } from "../support/sim.js";

const KEY = "custom_key_9f3a";
const SECRET = "custom_secret_7c1e";
const PREFILLED = `data-headers="{&quot;X-Api-Key&quot;:&quot;${KEY}&quot;,&quot;X-Api-Secret&quot;:&quot;${SECRET}&quot;}"`;
const HTML = "text/html,application/xhtml+xml";

const sim = () => createTestSim({ customers: 1, access: { apiKey: KEY, apiSecret: SECRET } });

/** The GraphiQL page as `url` (its Host) and `headers` ask for it, in process. */
async function page(url: string, headers: Record<string, string> = {}) {
  const res = await sim().app.request(url, { headers: { Accept: HTML, ...headers } });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

const leaks = (text: string) => text.includes(KEY) || text.includes(SECRET);

describe("issue 26, case 1: any web page could read the default shop's credentials", () => {
  it.each([
    ["http://localhost/graphql", {}],
    ["http://127.0.0.1:4747/graphql", {}],
    ["http://127.9.8.7:4747/graphql", {}],
    ["http://[::1]:4747/graphql", {}],
    ["http://localhost:4747/graphql", { "Sec-Fetch-Site": "none" }],
    ["http://127.0.0.1:4747/graphql", { "Sec-Fetch-Site": "same-origin", Origin: "http://127.0.0.1:4747" }],
  ])("%s %j: the page carries the headers, as data", async (url, headers) => {
    const res = await page(url, headers);
    expect(res.status).toBe(200);
    expect(res.text).toContain(PREFILLED);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it.each([
    ["http://evil.example:4747/graphql", {}, "a DNS name (rebinding)"],
    ["http://localhost.evil.example/graphql", {}, "a name that starts like localhost"],
    ["http://127.0.0.1.nip.io/graphql", {}, "a name that starts like 127.0.0.1"],
    ["http://localhost:4747/graphql", { "Sec-Fetch-Site": "cross-site" }, "another site"],
    ["http://localhost:4747/graphql", { "Sec-Fetch-Site": "same-site" }, "another port of the same host"],
    ["http://localhost:4747/graphql", { Origin: "https://evil.example" }, "another origin"],
    ["http://localhost:4747/graphql", { Origin: "http://localhost:3000" }, "another port"],
    ["http://localhost:4747/graphql", { Origin: "null" }, "an opaque origin"],
  ])("%s %j (%s): an empty headers editor and a hint, no credential", async (url, headers, _why) => {
    const res = await page(url, headers);
    expect(res.status).toBe(200);
    expect(leaks(res.text)).toBe(false);
    expect(res.text).toContain('data-headers=""');
  });

  it("with an empty headers editor, GraphiQL's default query starts with a hint of how to fill it", async () => {
    const init = await (await sim().app.request("/graphql/init.js")).text();
    expect(init).toContain('(headers ? "" : "# The headers editor (below) is empty: this page fills in the default shop\'s API headers only\\n');
    expect(init).toContain('as {\\"X-Api-Key\\": \\"...\\", \\"X-Api-Secret\\": \\"...\\"}.\\n")');
  });

  it.each(["http://localhost/graphql/init.js", "http://evil.example/graphql/init.js"])("%s is a static script without any credential", async (url) => {
    const a = await sim().app.request(url);
    const b = await createTestSim({ customers: 1 }).app.request(url);
    const text = await a.text();
    expect(a.status).toBe(200);
    expect(leaks(text)).toBe(false);
    expect(text).not.toContain("sim_key");
    expect(text).toBe(await b.text());
  });

  const PAGE_FILES = ["/graphql", "/graphql/init.js", "/graphql/assets/graphiql.css", "/graphql/assets/favicon.svg", "/doc", "/doc/init.js", "/doc/assets/swagger-ui.css", "/__sim/ui", "/__sim/ui/assets/inspector.js"];

  it.each(PAGE_FILES)("%s: no CORS for another origin; nosniff and Cross-Origin-Resource-Policy: same-origin", async (path) => {
    const s = sim();
    const own = await s.app.request(`http://localhost${path}`, { headers: { Accept: HTML } });
    expect([own.status, own.headers.get("x-content-type-options"), own.headers.get("cross-origin-resource-policy")]).toEqual([200, "nosniff", "same-origin"]);
    // The inspector refuses another site's page outright (403); the other pages answer it, without CORS.
    const other = await s.app.request(`http://localhost${path}`, { headers: { Accept: HTML, Origin: "https://evil.example" } });
    expect([other.status, other.headers.get("access-control-allow-origin")]).toEqual([path.startsWith("/__sim") ? 403 : 200, null]);
    const preflight = await s.app.request(`http://localhost${path}`, { method: "OPTIONS", headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "GET" } });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
  });

  it.each([
    ["/graphql", "frame-ancestors 'self'"],
    ["/doc", "frame-ancestors 'self'"],
    ["/__sim/ui", "frame-ancestors 'none'"],
  ])("%s: only the simulator's own pages may frame it (%s)", async (path, directive) => {
    const res = await sim().app.request(`http://localhost${path}`, { headers: { Accept: HTML } });
    expect(res.headers.get("content-security-policy")?.split(/;\s*/)).toContain(directive);
  });

  it("the loyalty API keeps its CORS for browser apps under test: REST, POST /graphql and their preflights", async () => {
    const s = sim();
    const auth = { "X-Api-Key": KEY, "X-Api-Secret": SECRET, Origin: "https://app.example" };
    const rest = await s.app.request("/rest_api/v1/shop", { headers: auth });
    const gql = await s.app.request("/graphql", { method: "POST", headers: { ...auth, "Content-Type": "application/json" }, body: '{"query":"{ shop { currencySymbol } }"}' });
    const preflights = await Promise.all(
      ["/rest_api/v1/shop", "/graphql"].map((path) => s.app.request(path, { method: "OPTIONS", headers: { Origin: "https://app.example", "Access-Control-Request-Method": "POST" } })),
    );
    expect([rest.status, rest.headers.get("access-control-allow-origin")]).toEqual([200, "*"]);
    expect([gql.status, gql.headers.get("access-control-allow-origin")]).toEqual([200, "*"]);
    expect(preflights.map((r) => [r.status, r.headers.get("access-control-allow-origin")])).toEqual([[204, "*"], [204, "*"]]);
  });
});

/** A non-loopback address of this machine, if it has one. */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((i) => i !== undefined && i.family === "IPv4" && !i.internal)?.address;

describe.skipIf(outside === undefined)("issue 26, case 1: the peer's address, on a real socket", () => {
  let running: RunningSimulator;
  beforeAll(async () => {
    running = await startSimulator({ customers: 1, host: "0.0.0.0", apiKey: KEY, apiSecret: SECRET });
  });
  afterAll(() => running.close());

  /** GET /graphql through `address`, with a loopback Host whatever the address. */
  const through = (address: string) =>
    new Promise<string>((resolve, reject) => {
      const req = request({ host: address, port: running.port, path: "/graphql", headers: { Host: `127.0.0.1:${running.port}`, Accept: HTML } }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve(text));
      });
      req.on("error", reject);
      req.end();
    });

  it("a loopback peer gets the headers; one from another address does not, even naming a loopback Host", async () => {
    expect(await through("127.0.0.1")).toContain(PREFILLED);
    const remote = await through(outside!);
    expect(leaks(remote)).toBe(false);
    expect(remote).toContain('data-headers=""');
  });
});
