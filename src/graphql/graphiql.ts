/**
 * GraphiQL for `GET /graphql`, served entirely from the installed @graphql-yoga/render-graphiql
 * package so that it works with no internet access. Its pieces are served as files (no inline
 * script, so a `script-src 'self'; worker-src 'self'` policy holds) and its 9 MB bundle is loaded
 * on the first request for it. The page comes with the shop's API headers filled in: GraphiQL
 * cannot introspect the schema without them.
 * @module
 */
import { printedSchema } from "./schema.js";

/** A file to answer with. */
export interface GraphiQLFile {
  contentType: string;
  body: string | Uint8Array;
  /** For the bundle's files, which never change while the package is the same. */
  cacheControl?: string;
}

export interface GraphiQLOptions {
  /** The credentials prefilled in the headers editor (the default shop's). */
  apiKey: string;
  apiSecret: string;
  /** Where GraphiQL sends operations; default `/graphql`. */
  endpoint?: string;
}

/** Where the page's files are served, below the endpoint. */
const ASSETS = "/graphql/assets";

const JS = "text/javascript; charset=utf-8";
const CACHED = "public, max-age=3600";

const PAGE = `<!doctype html>
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
  <div id="root"></div>
  <script src="/graphql/init.js"></script>
  <script src="${ASSETS}/graphiql.js"></script>
</body>
</html>`;

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

/** The GraphiQL page (no credentials needed to load it). */
export function graphiqlPage(): GraphiQLFile {
  return { contentType: "text/html; charset=utf-8", body: PAGE };
}

/**
 * The page's own script: where Monaco finds its workers (set before the bundle loads, which reads
 * it), and GraphiQL rendered once the bundle has run.
 */
export function graphiqlInit(options: GraphiQLOptions): GraphiQLFile {
  const settings = {
    endpoint: options.endpoint ?? "/graphql",
    title: "loyalty-sim GraphQL",
    headers: JSON.stringify({ "X-Api-Key": options.apiKey, "X-Api-Secret": options.apiSecret }, null, 2),
    defaultQuery: DEFAULT_QUERY,
  };
  const body = `self.MonacoEnvironment = {
  globalAPI: false,
  getWorkerUrl: function (moduleId, label) {
    var workers = ${JSON.stringify(WORKERS)};
    return "${ASSETS}/" + (workers[label] || workers.editorWorkerService);
  }
};
document.addEventListener("DOMContentLoaded", function () {
  YogaGraphiQL.renderYogaGraphiQL(document.querySelector("#root"), ${JSON.stringify(settings)});
});
`;
  return { contentType: JS, body };
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
