/**
 * GraphiQL for `GET /graphql`, served entirely from the installed graphiql package (its UMD bundle,
 * on the UMD builds of react and react-dom) so that it works with no internet access. Its pieces
 * are served as files (no inline script, so a `script-src 'self'` policy holds), each read on the
 * first request for it. graphiql 3 rather than a newer GraphiQL: it ships a ready bundle, and its
 * packages install on every supported Node without an engine warning.
 * GraphiQL cannot introspect the schema without the shop's API headers: the page (never a script,
 * which any site may include) carries them as data when the route decides it may, and init.js, the
 * same for everyone, reads them from it.
 * @module
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { FRAME_OWN } from "../http/page-headers.js";
import { printedSchema } from "./schema.js";

/** A file to answer with. */
export interface GraphiQLFile {
  contentType: string;
  body: string | Uint8Array;
  /** For the bundle's files, which never change while the package is the same; the page is never stored. */
  cacheControl?: string;
  /** The page's Content-Security-Policy. */
  policy?: string;
}

export interface GraphiQLOptions {
  /** The credentials to prefill in the headers editor (the default shop's); without them it is empty, with a hint. */
  credentials?: { apiKey: string; apiSecret: string } | undefined;
  /** Where GraphiQL sends operations; default `/graphql`. */
  endpoint?: string;
}

/** Where the page's files are served, below the endpoint. */
const ASSETS = "/graphql/assets";

const JS = "text/javascript; charset=utf-8";
const CACHED = "public, max-age=3600";

/** The page, with the endpoint and the headers editor's text as data of the element GraphiQL renders in. */
const page = (endpoint: string, headers: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>loyalty-sim GraphQL</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="icon" type="image/svg+xml" href="${ASSETS}/favicon.svg">
  <link rel="stylesheet" href="${ASSETS}/graphiql.css">
</head>
<body id="body" class="no-focus-outline">
  <noscript>GraphiQL needs JavaScript.</noscript>
  <div id="root" data-endpoint="${attribute(endpoint)}" data-headers="${attribute(headers)}"></div>
  <script src="${ASSETS}/react.js"></script>
  <script src="${ASSETS}/react-dom.js"></script>
  <script src="${ASSETS}/graphiql.js"></script>
  <script src="/graphql/init.js"></script>
</body>
</html>`;

/** `text` as an HTML attribute's value. */
const attribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/'/g, "&#39;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The page's policy: its scripts and workers are its own files, and only the simulator's own pages may frame it. */
const POLICY = `script-src 'self'; worker-src 'self'; ${FRAME_OWN}`;

const DEFAULT_QUERY = `# loyalty-sim's GraphQL API: the same shop, data and errors as REST.
{
  shop {
    programName
    currencySymbol
  }
  customers(limit: 5) {
    items {
      id
      firstName
      stampBalance
    }
    pageInfo {
      hasNext
      nextCursor
    }
  }
}
`;

/** Above the default query when the headers editor is empty: why, and how to fill it. */
const EMPTY_HEADERS_HINT = `# The headers editor (below) is empty: this page fills in the default shop's API headers only
# when it is opened on this machine at localhost, 127.0.0.1 or [::1], not through another host
# name, from another site's page or from another machine. Fill it in with your shop's
# credentials (printed at start), as {"X-Api-Key": "...", "X-Api-Secret": "..."}.
`;

/** The GraphiQL page (no credentials needed to load it), the headers prefilled with `credentials` if given. */
export function graphiqlPage(options: GraphiQLOptions = {}): GraphiQLFile {
  const { credentials } = options;
  const headers = credentials ? JSON.stringify({ "X-Api-Key": credentials.apiKey, "X-Api-Secret": credentials.apiSecret }) : "";
  return { contentType: "text/html; charset=utf-8", body: page(options.endpoint ?? "/graphql", headers), cacheControl: "no-store", policy: POLICY };
}

/**
 * The page's own script, the same for every page, loaded after the bundles: GraphiQL rendered with
 * the page's data. The headers editor's text goes with every request (GraphiQL merges it into the
 * fetcher's headers), introspection included.
 */
const INIT = `(function () {
  var root = document.querySelector("#root");
  var headers = root.getAttribute("data-headers") || "";
  var fetcher = GraphiQL.createFetcher({ url: root.getAttribute("data-endpoint") || "/graphql" });
  ReactDOM.createRoot(root).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      headers: headers && JSON.stringify(JSON.parse(headers), null, 2),
      defaultEditorToolsVisibility: "headers",
      defaultQuery: (headers ? "" : ${JSON.stringify(EMPTY_HEADERS_HINT)}) + ${JSON.stringify(DEFAULT_QUERY)}
    })
  );
})();
`;

export function graphiqlInit(): GraphiQLFile {
  return { contentType: JS, body: INIT };
}

/** A file of a package's folder, found through its package.json (which each of these exports). */
const fromPackage = (name: string, file: string) => () => join(dirname(createRequire(import.meta.url).resolve(`${name}/package.json`)), file);

/** The files the page loads, by name: the bundles from their packages, the icon the inspector's (src/ and dist/ sit two levels below the package root). */
const FILES: Record<string, { contentType: string; path: () => string }> = {
  "react.js": { contentType: JS, path: fromPackage("react", "umd/react.production.min.js") },
  "react-dom.js": { contentType: JS, path: fromPackage("react-dom", "umd/react-dom.production.min.js") },
  "graphiql.js": { contentType: JS, path: fromPackage("graphiql", "graphiql.min.js") },
  "graphiql.css": { contentType: "text/css; charset=utf-8", path: fromPackage("graphiql", "graphiql.min.css") },
  "favicon.svg": { contentType: "image/svg+xml", path: () => fileURLToPath(new URL("../../assets/inspector/favicon.svg", import.meta.url)) },
};

const read = new Map<string, Promise<Uint8Array>>();

/** A file of the page by name (`graphiql.js`, `graphiql.css`, `react.js`, `react-dom.js`, `favicon.svg`), or undefined. */
export async function graphiqlAsset(name: string): Promise<GraphiQLFile | undefined> {
  if (!Object.hasOwn(FILES, name)) return undefined;
  const { contentType, path } = FILES[name]!;
  let body = read.get(name);
  if (!body) read.set(name, (body = readFile(path()).then((b) => new Uint8Array(b), (error: unknown) => (read.delete(name), Promise.reject(error)))));
  return { contentType, body: await body, cacheControl: CACHED };
}

/** `GET /graphql/schema.graphql`: the schema's SDL as text, like `/openapi.json` (no credentials). */
export function graphqlSchemaFile(): GraphiQLFile {
  return { contentType: "text/plain; charset=utf-8", body: printedSchema() };
}
