/**
 * The inspector's routes at `/__sim/ui` (hidden from the OpenAPI document). They are mounted at
 * start, but the pages (hono/jsx, src/inspector/pages.tsx) are imported on the first request, so
 * start-up and the API's hot path do not pay for them. The pages read and change the simulator
 * through the control API, in process, as any client would.
 * @module
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../http/env.js";
import { sendNoRoute } from "../http/errors.js";
import type { Exchange } from "../http/exchange.js";
import type { Mount } from "../http/mount.js";
import { PAGE_FILE_HEADERS } from "../http/page-headers.js";
import { pathParams } from "../http/params.js";

export { CSP, UI_PATH, type InspectorDeps } from "./paths.js";
import { CSP, UI_PATH, type InspectorDeps } from "./paths.js";

/** The files the pages load: htmx from its package, the rest from the shipped `inspector/` folder. */
const ASSETS: Record<string, { type: string; path: () => string }> = {
  "htmx.min.js": { type: "text/javascript; charset=utf-8", path: () => join(dirname(createRequire(import.meta.url).resolve("htmx.org/package.json")), "dist/htmx.min.js") },
  "inspector.js": { type: "text/javascript; charset=utf-8", path: () => own("inspector.js") },
  "inspector.css": { type: "text/css; charset=utf-8", path: () => own("inspector.css") },
  "favicon.svg": { type: "image/svg+xml", path: () => own("favicon.svg") },
};

/** src/inspector and dist/inspector are both two levels below the package root. */
function own(file: string): string {
  return fileURLToPath(new URL(`../../assets/inspector/${file}`, import.meta.url));
}

type Pages = typeof import("./pages.js");
let loading: Promise<Pages> | undefined;

const route = (method: "get" | "post", path: string, names: string[] = []) =>
  createRoute({ method, path, hide: true, ...(names.length > 0 && { request: { params: pathParams(Object.fromEntries(names.map((n) => [n, {}]))) } }), responses: { 200: { description: "" } } });

const PAGE_PATHS: [string, string[]][] = [
  [UI_PATH, []],
  [`${UI_PATH}/{page}`, ["page"]],
  [`${UI_PATH}/{page}/{id}`, ["page", "id"]],
  [`${UI_PATH}/{page}/{id}/{part}`, ["page", "id", "part"]],
];

export function inspectorRouter(mount: Mount, deps: InspectorDeps) {
  const cache = new Map<string, Buffer>();
  let handle: ((c: Context<AppEnv>, exchange: Exchange) => Promise<Response>) | undefined;
  const page = async (c: Context<AppEnv>, exchange: Exchange) => {
    // Assets share the pages' path pattern (one route per path); they need no pages loaded.
    const { page: name, id, part } = c.req.param() as { page?: string; id?: string; part?: string };
    if (name === "assets" && c.req.method === "GET" && id !== undefined && part === undefined) return asset(c, exchange, id);
    if (!handle) {
      const pages = await (loading ??= import("./pages.js"));
      handle ??= pages.createPages(deps);
    }
    const res = await handle(c, exchange);
    res.headers.set("Content-Security-Policy", CSP);
    for (const [name, value] of Object.entries(PAGE_FILE_HEADERS)) res.headers.set(name, value);
    return res;
  };
  const asset = async (c: Context<AppEnv>, exchange: Exchange, file: string) => {
    const found = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!found) return sendNoRoute(exchange);
    let data = cache.get(file);
    if (!data) cache.set(file, (data = await readFile(found.path())));
    return c.body(new Uint8Array(data), 200, { "Content-Type": found.type, "Cache-Control": "no-cache", ...PAGE_FILE_HEADERS });
  };
  let mounting = mount();
  for (const [path, names] of PAGE_PATHS) mounting = mounting.route(route("get", path, names), page).route(route("post", path, names), page);
  return mounting.router;
}
