/**
 * GraphiQL's page and files as the GraphQL module hands them out (phase 2 mounts them at
 * `GET /graphql`, `/graphql/init.js`, `/graphql/assets/*`): local files only, no inline script,
 * the shop's headers prefilled; and in a real browser, served with `script-src 'self'; worker-src
 * 'self'` by a bare test server, it renders offline and runs its default query (check 36).
 * @module
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as bundle from "@graphql-yoga/render-graphiql/graphiql";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocumentCache, graphiqlAsset, graphiqlInit, graphiqlPage, graphqlSchemaFile, handleGraphQLRequest, printedSchema } from "../../src/graphql/index.js";
import { BROWSER_START_MS, launchBrowser } from "../support/browser.js";
import { createTestSim } from "../support/sim.js";

const refs = (html: string) => [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
const CREDENTIALS = { apiKey: "sim_key", apiSecret: "sim_secret" };

describe("GraphiQL's page and files", () => {
  it("is an HTML page whose script, style and icon are local /graphql/ URLs, with no inline script", () => {
    const page = graphiqlPage();
    expect(page.contentType).toBe("text/html; charset=utf-8");
    const html = String(page.body);
    expect(html).not.toMatch(/https?:\/\//i);
    expect(html).not.toMatch(/<script>[^<]|<script[^>]*>[^<]/);
    expect(refs(html).sort()).toEqual(["/graphql/assets/favicon.ico", "/graphql/assets/graphiql.css", "/graphql/assets/graphiql.js", "/graphql/init.js"]);
  });

  it("init.js points GraphiQL at the endpoint with both API headers, and Monaco at local workers", () => {
    const init = String(graphiqlInit(CREDENTIALS).body);
    expect(graphiqlInit(CREDENTIALS).contentType).toBe("text/javascript; charset=utf-8");
    expect(init).toContain('"endpoint":"/graphql"');
    expect(init).toContain(JSON.stringify(JSON.stringify({ "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret" }, null, 2)));
    expect(init).toContain('"/graphql/assets/" + (workers[label] || workers.editorWorkerService)');
    expect(init).not.toMatch(/https?:\/\//i);
    expect(String(graphiqlInit({ ...CREDENTIALS, endpoint: "/other" }).body)).toContain('"endpoint":"/other"');
  });

  it.each([
    ["graphiql.js", "text/javascript; charset=utf-8", bundle.js],
    ["graphiql.css", "text/css; charset=utf-8", bundle.css],
    ["editor.worker.js", "text/javascript; charset=utf-8", bundle.editorWorkerService],
    ["json.worker.js", "text/javascript; charset=utf-8", bundle.jsonWorker],
    ["graphql.worker.js", "text/javascript; charset=utf-8", bundle.graphqlWorker],
  ])("%s is the installed package's, as %s", async (name, type, content) => {
    expect(await graphiqlAsset(name)).toStrictEqual({ contentType: type, body: content, cacheControl: "public, max-age=3600" });
  });

  it("favicon.ico is the bytes of the package's data URL", async () => {
    const icon = await graphiqlAsset("favicon.ico");
    expect(icon?.contentType).toBe("image/x-icon");
    expect(Buffer.from(icon!.body as Uint8Array).toString("base64")).toBe(bundle.favicon.slice(bundle.favicon.indexOf(",") + 1));
  });

  it.each(["index.js", "package.json", "../package.json", "toString", "__proto__", ""])("%j is no file", async (name) => {
    expect(await graphiqlAsset(name)).toBeUndefined();
  });

  it("the schema file is the printed SDL", () => {
    expect(graphqlSchemaFile()).toStrictEqual({ contentType: "text/plain; charset=utf-8", body: printedSchema() });
  });
});

/**
 * A bare server for the page: the GraphiQL routes phase 2 mounts, a strict script policy, and
 * POST /graphql answering only with both API headers (as the gateway will).
 */
function graphiqlServer(): Server {
  const { shop } = createTestSim({ customers: 5 });
  const cache = new DocumentCache();
  return createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const send = (status: number, type: string, body: string | Uint8Array, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "Content-Type": type, "Content-Security-Policy": "script-src 'self'; worker-src 'self'", ...headers });
      res.end(body);
    };
    if (req.method === "GET" && path === "/graphql") return send(200, ...(Object.values(graphiqlPage()) as [string, string]));
    if (req.method === "GET" && path === "/graphql/init.js") return send(200, ...(Object.values(graphiqlInit(CREDENTIALS)) as [string, string]));
    if (req.method === "GET" && path.startsWith("/graphql/assets/")) {
      const file = await graphiqlAsset(path.slice("/graphql/assets/".length));
      return file ? send(200, file.contentType, file.body) : send(404, "text/plain", "no such file");
    }
    if (req.method === "POST" && path === "/graphql") {
      if (req.headers["x-api-key"] !== "sim_key" || req.headers["x-api-secret"] !== "sim_secret") return send(401, "application/json", '{"errors":[{"message":"UNAUTHORIZED"}]}');
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const answer = await handleGraphQLRequest(
        { method: "POST", contentType: req.headers["content-type"], accept: req.headers.accept, bodyText: Buffer.concat(chunks).toString("utf8") },
        { shop },
        cache,
      );
      return send(answer.status, answer.headers["Content-Type"]!, answer.body);
    }
    return send(404, "text/plain", "no route");
  });
}

describe("GraphiQL in a real browser (Chromium)", () => {
  let browser: Browser | undefined;
  let server: Server | undefined;
  let origin = "";
  beforeAll(async () => {
    browser = await launchBrowser();
  }, BROWSER_START_MS);
  beforeAll(async () => {
    server = graphiqlServer();
    await new Promise<void>((done) => server!.listen(0, "127.0.0.1", done));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((done) => server?.close(done));
  });

  // A generous bound, only to fail instead of hanging: the 5 MB bundle takes seconds to parse here.
  it("renders offline under a strict script policy and runs its default query with the prefilled headers", { timeout: 90_000 }, async (ctx) => {
    const page = await browser!.newPage();
    ctx.onTestFinished(() => page.close());
    page.setDefaultTimeout(45_000);
    const requests: string[] = [];
    const problems: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(m.text());
    });

    const res = await page.goto(`${origin}/graphql`);
    expect(res?.status()).toBe(200);
    const answer = page.waitForResponse((r) => r.url() === `${origin}/graphql` && r.request().method() === "POST" && (r.request().postData() ?? "").includes("programName"));
    await page.locator(".graphiql-execute-button").click();
    const response = await answer;
    expect(response.status()).toBe(200);
    expect(await response.json()).toMatchObject({ data: { shop: { programName: "Crumb & Bean Rewards" } } });
    await page.locator(".graphiql-response").getByText("Crumb & Bean Rewards").waitFor();

    expect(problems).toEqual([]);
    expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
    expect(requests).toEqual(expect.arrayContaining([`${origin}/graphql/assets/graphiql.js`, `${origin}/graphql/init.js`, `${origin}/graphql/assets/graphql.worker.js`]));
  });
});
