/**
 * The OpenAPI document at `/openapi.json`, and interactive API docs at `/doc`, served entirely from the installed swagger-ui-dist package so
 * they work with no internet access. The Authorize button takes both API headers.
 * @module
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createRoute } from "@hono/zod-openapi";
import { sendNoRoute } from "./errors.js";
import type { Mount } from "./mount.js";
import { FRAME_OWN, PAGE_FILE_HEADERS } from "./page-headers.js";
import { pathParams } from "./params.js";

const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

function assetDir(): string {
  return dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>loyalty-sim API docs</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="icon" type="image/png" href="/doc/assets/favicon-32x32.png">
  <link rel="stylesheet" href="/doc/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/doc/assets/swagger-ui-bundle.js"></script>
  <script src="/doc/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/doc/init.js"></script>
</body>
</html>`;

// Kept out of the page so a strict Content-Security-Policy (no inline scripts) still works.
// validatorUrl: null, or Swagger UI loads a badge from validator.swagger.io whenever the page is
// opened at a host other than localhost/127.0.0.1 (e.g. a Docker service name).
const INIT = `window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  persistAuthorization: true,
  tryItOutEnabled: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: "StandaloneLayout"
});`;

/** Routes outside the public contract: mounted like any other, not documented. */
const hidden = (path: string) => createRoute({ method: "get", path, hide: true, responses: { 200: { description: "" } } });
const assetRoute = createRoute({ method: "get", path: "/doc/assets/{file}", hide: true, request: { params: pathParams({ file: {} }) }, responses: { 200: { description: "" } } });

/** The OpenAPI document (`document(origin)`, with the server it was asked of), the docs page and its assets. */
export function docsRouter(mount: Mount, document: (origin: string) => object) {
  const cache = new Map<string, Buffer>();
  return mount()
    .route(hidden("/openapi.json"), (c) => c.json(document(new URL(c.req.url).origin)))
    .route(hidden("/doc"), (c) => c.html(PAGE, 200, { ...PAGE_FILE_HEADERS, "Content-Security-Policy": FRAME_OWN }))
    .route(hidden("/doc/init.js"), (c) => c.body(INIT, 200, { "Content-Type": "text/javascript; charset=utf-8", ...PAGE_FILE_HEADERS }))
    .route(assetRoute, async (c, exchange) => {
      const file = c.req.valid("param").file;
      // Own names only: `constructor` or `toString` is no asset.
      const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
      if (!type) return sendNoRoute(exchange);
      let data = cache.get(file);
      if (!data) cache.set(file, (data = await readFile(join(assetDir(), file))));
      return c.body(new Uint8Array(data), 200, { "Content-Type": type, "Cache-Control": "public, max-age=3600", ...PAGE_FILE_HEADERS });
    }).router;
}
