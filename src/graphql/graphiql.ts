/**
 * GraphiQL for `GET /graphql`, served entirely from the installed @graphql-yoga/render-graphiql
 * package so that it works with no internet access. Its pieces are served as files (no inline
 * script, so a `script-src 'self'; worker-src 'self'` policy holds) and its 9 MB bundle is loaded
 * on the first request for it. GraphiQL cannot introspect the schema without the shop's API
 * headers: the page (never a script, which any site may include) carries them as data when the
 * route decides it may, and init.js, the same for everyone, reads them from it.
 * @module
 */
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
  <link rel="icon" href="${ASSETS}/favicon.ico">
  <link rel="stylesheet" href="${ASSETS}/graphiql.css">
</head>
<body id="body" class="no-focus-outline">
  <noscript>GraphiQL needs JavaScript.</noscript>
  <div id="root" data-endpoint="${attribute(endpoint)}" data-headers="${attribute(headers)}"></div>
  <script src="/graphql/init.js"></script>
  <script src="${ASSETS}/graphiql.js"></script>
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

/** The editor's web workers, by the label Monaco asks for. */
const WORKERS = { editorWorkerService: "editor.worker.js", json: "json.worker.js", graphql: "graphql.worker.js" } as const;

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
 * The page's own script, the same for every page: where Monaco finds its workers (set before the
 * bundle loads, which reads it), and GraphiQL rendered once the bundle has run, with the page's data.
 */
const INIT = `self.MonacoEnvironment = {
  globalAPI: false,
  getWorkerUrl: function (moduleId, label) {
    var workers = ${JSON.stringify(WORKERS)};
    return "${ASSETS}/" + (workers[label] || workers.editorWorkerService);
  }
};
document.addEventListener("DOMContentLoaded", function () {
  var root = document.querySelector("#root");
  var headers = root.getAttribute("data-headers") || "";
  YogaGraphiQL.renderYogaGraphiQL(root, {
    endpoint: root.getAttribute("data-endpoint") || "/graphql",
    title: "loyalty-sim GraphQL",
    headers: headers && JSON.stringify(JSON.parse(headers), null, 2),
    defaultQuery: (headers ? "" : ${JSON.stringify(EMPTY_HEADERS_HINT)}) + ${JSON.stringify(DEFAULT_QUERY)}
  });
});
`;

export function graphiqlInit(): GraphiQLFile {
  return { contentType: JS, body: INIT };
}

/** A file of the bundle by name (`graphiql.js`, `graphiql.css`, a worker, `favicon.ico`), or undefined. */
export async function graphiqlAsset(name: string): Promise<GraphiQLFile | undefined> {
  const bundle = await import("@graphql-yoga/render-graphiql/graphiql");
  const files: Record<string, () => GraphiQLFile> = {
    "graphiql.js": () => ({ contentType: JS, body: bundle.js }),
    "graphiql.css": () => ({ contentType: "text/css; charset=utf-8", body: bundle.css }),
    [WORKERS.editorWorkerService]: () => ({ contentType: JS, body: bundle.editorWorkerService }),
    [WORKERS.json]: () => ({ contentType: JS, body: bundle.jsonWorker }),
    [WORKERS.graphql]: () => ({ contentType: JS, body: bundle.graphqlWorker }),
    "favicon.ico": () => ({ contentType: "image/x-icon", body: fromDataUrl(bundle.favicon) }),
  };
  const file = Object.hasOwn(files, name) ? files[name]!() : undefined;
  return file && { ...file, cacheControl: CACHED };
}

/** The bytes of a base64 `data:` URL. */
function fromDataUrl(url: string): Uint8Array {
  return new Uint8Array(Buffer.from(url.slice(url.indexOf(",") + 1), "base64"));
}

/** `GET /graphql/schema.graphql`: the schema's SDL as text, like `/openapi.json` (no credentials). */
export function graphqlSchemaFile(): GraphiQLFile {
  return { contentType: "text/plain; charset=utf-8", body: printedSchema() };
}
