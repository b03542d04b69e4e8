/**
 * GraphiQL's page and files as the GraphQL module hands them out (phase 2 mounts them at
 * `GET /graphql`, `/graphql/init.js`, `/graphql/assets/*`): local files only, no inline script,
 * the shop's headers prefilled; and in a real browser, from the simulator's own routes under
 * `script-src 'self'; worker-src 'self'`, it renders offline and runs its default query through the
 * gateway (check 36).
 * @module
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphiqlAsset, graphiqlInit, graphiqlPage, graphqlSchemaFile, printedSchema } from "../../src/graphql/index.js";
import { startSimulator } from "../../src/simulator/server.js";
import { launchBrowser } from "../support/browser.js";
import { HANG_MS } from "../support/patience.js";

const refs = (html: string) => [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
const CREDENTIALS = { apiKey: "sim_key", apiSecret: "sim_secret" };
/** A file of an installed package, as bytes. */
const installed = (name: string, file: string) => readFileSync(join(dirname(createRequire(import.meta.url).resolve(`${name}/package.json`)), file));

describe("GraphiQL's page and files", () => {
  it("is an HTML page whose script, style and icon are local /graphql/ URLs, with no inline script", () => {
    const page = graphiqlPage();
    expect(page.contentType).toBe("text/html; charset=utf-8");
    const html = String(page.body);
    expect(html).not.toMatch(/https?:\/\//i);
    expect(html).not.toMatch(/<script>[^<]|<script[^>]*>[^<]/);
    // The page's script last: the bundles define React, ReactDOM and GraphiQL before it runs.
    expect(refs(html)).toEqual(["/graphql/assets/favicon.svg", "/graphql/assets/graphiql.css", "/graphql/assets/react.js", "/graphql/assets/react-dom.js", "/graphql/assets/graphiql.js", "/graphql/init.js"]);
  });

  it("carries the endpoint and, when given, both API headers as data of GraphiQL's element; never stored", () => {
    const prefilled = graphiqlPage({ credentials: CREDENTIALS });
    expect(String(prefilled.body)).toContain('<div id="root" data-endpoint="/graphql" data-headers="{&quot;X-Api-Key&quot;:&quot;sim_key&quot;,&quot;X-Api-Secret&quot;:&quot;sim_secret&quot;}"></div>');
    expect(String(graphiqlPage().body)).toContain('<div id="root" data-endpoint="/graphql" data-headers=""></div>');
    expect(String(graphiqlPage({ endpoint: "/other" }).body)).toContain('data-endpoint="/other"');
    // Attribute text: a quote or a tag in a key cannot end the attribute.
    expect(String(graphiqlPage({ credentials: { apiKey: `"><script>`, apiSecret: "a&b'" } }).body)).toContain(
      'data-headers="{&quot;X-Api-Key&quot;:&quot;\\&quot;&gt;&lt;script&gt;&quot;,&quot;X-Api-Secret&quot;:&quot;a&amp;b&#39;&quot;}"',
    );
    expect([prefilled.cacheControl, prefilled.policy]).toEqual(["no-store", "script-src 'self'; worker-src 'self'; frame-ancestors 'self'"]);
  });

  it("init.js, the same for every page, renders GraphiQL with the page's data", () => {
    const init = graphiqlInit();
    expect(init.contentType).toBe("text/javascript; charset=utf-8");
    const text = String(init.body);
    expect(text).toContain('root.getAttribute("data-headers")');
    expect(text).toContain('GraphiQL.createFetcher({ url: root.getAttribute("data-endpoint") || "/graphql" })');
    expect(text).toContain("headers: headers && JSON.stringify(JSON.parse(headers), null, 2)");
    expect(text).not.toMatch(/https?:\/\//i);
    expect(text).not.toContain("sim_key");
  });

  it.each([
    ["graphiql.js", "text/javascript; charset=utf-8", "graphiql", "graphiql.min.js"],
    ["graphiql.css", "text/css; charset=utf-8", "graphiql", "graphiql.min.css"],
    ["react.js", "text/javascript; charset=utf-8", "react", "umd/react.production.min.js"],
    ["react-dom.js", "text/javascript; charset=utf-8", "react-dom", "umd/react-dom.production.min.js"],
  ])("%s is the installed package's, as %s", async (name, type, pkg, file) => {
    const { body, ...rest } = (await graphiqlAsset(name))!;
    expect(rest).toStrictEqual({ contentType: type, cacheControl: "public, max-age=3600" });
    // Bytes compared as one buffer: element by element, a megabyte takes seconds.
    expect(Buffer.from(body as Uint8Array).equals(installed(pkg, file))).toBe(true);
  });

  it("favicon.svg is the inspector's icon", async () => {
    const icon = await graphiqlAsset("favicon.svg");
    expect(icon?.contentType).toBe("image/svg+xml");
    expect(Buffer.from(icon!.body as Uint8Array).toString()).toBe(readFileSync(new URL("../../assets/inspector/favicon.svg", import.meta.url), "utf8"));
  });

  it.each(["index.js", "package.json", "../package.json", "toString", "__proto__", "", "favicon.ico", "editor.worker.js"])("%j is no file", async (name) => {
    expect(await graphiqlAsset(name)).toBeUndefined();
  });

  it("the schema file is the printed SDL", () => {
    expect(graphqlSchemaFile()).toStrictEqual({ contentType: "text/plain; charset=utf-8", body: printedSchema() });
  });
});

describe("GraphiQL in a real browser (Chromium)", () => {
  let browser: Browser | undefined;
  let sim: Awaited<ReturnType<typeof startSimulator>> | undefined;
  let origin = "";
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  beforeAll(async () => {
    sim = await startSimulator({ customers: 5, logLevel: "silent" });
    origin = sim.url;
  });
  afterAll(async () => {
    await browser?.close();
    await sim?.close();
  });

  // A generous bound, only to fail instead of hanging on a busy machine.
  it("renders offline under a strict script policy and runs its default query with the prefilled headers", async (ctx) => {
    const page = await browser!.newPage();
    ctx.onTestFinished(() => page.close());
    page.setDefaultTimeout(HANG_MS);
    const requests: string[] = [];
    const problems: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    // The simulator's own routes, served under a strict script policy: no inline script, no other origin.
    await page.route(`${origin}/**`, async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), "content-security-policy": "script-src 'self'; worker-src 'self'" } });
    });
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
    expect(requests).toEqual(expect.arrayContaining([`${origin}/graphql/assets/react.js`, `${origin}/graphql/assets/react-dom.js`, `${origin}/graphql/assets/graphiql.js`, `${origin}/graphql/init.js`]));
  });
});
