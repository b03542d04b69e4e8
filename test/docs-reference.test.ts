/**
 * The docs' reference tables against what they describe, and the links between the pages: the
 * README's operations with their GraphQL twins (as the simulator matches them), its options (as
 * `--help` lists them), the control API's routes and the control client's methods (as the client
 * calls them); every relative link finds its file and heading; each page links back to the README.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { buildSchema, getNamedType, isEnumType, isInputObjectType, isLeafType, isNonNullType, type GraphQLField, type GraphQLInputType } from "graphql";
import { describe, expect, it } from "vitest";
import { HELP } from "../src/cli/args.js";
import { createControlClient, createSimulator } from "../src/index.js";
import { ROOT } from "./support/cli.js";
import { docPages, type DocPage } from "./support/doc-snippets.js";
import { AUTH } from "./support/sim.js";
import { withOperationsTable } from "../scripts/lib/operations-table.js";

const pages = [...docPages(ROOT), { source: "CONTRIBUTING.md", markdown: readFileSync(join(ROOT, "CONTRIBUTING.md"), "utf8") }];
const page = (source: string) => pages.find((p) => p.source === source)!.markdown;
/** How contributors' pages start; the user docs all start with a line linking back to the README. */
const CONTRIBUTOR_PAGES = ["docs/architecture.md", "docs/performance.md", "CONTRIBUTING.md"];

/** The rows of the table whose header row starts with `header`, cells trimmed and unquoted. */
function table(markdown: string, header: string): string[][] {
  const lines = markdown.split("\n");
  const start = lines.findIndex((l) => l.startsWith(header));
  if (start < 0) throw new Error(`no table starting "${header}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(line.slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim().replaceAll("\\|", "|")));
  }
  return rows;
}
const code = (cell: string) => cell.replace(/^`|`$/g, "");

type OpenApi = { paths: Record<string, Record<string, { operationId?: string }>> };
const openapi = JSON.parse(readFileSync(join(ROOT, "openapi/openapi.json"), "utf8")) as OpenApi;
const operations = Object.entries(openapi.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ id: op.operationId!, method: method.toUpperCase(), path })));

describe("the README's operations", () => {
  const rows = table(page("README.md"), "| operation | method and path | GraphQL |").map(([id, route, field]) => ({ id: code(id!), route: code(route!), field: code(field!) }));

  it("are the table npm run documents writes from the contract", () => {
    expect(page("README.md")).toBe(withOperationsTable(page("README.md")));
  });

  it("are the API's operations, each with its method and path", () => {
    const api = operations.filter((op) => !op.id.startsWith("sim")).map((op) => [op.id, `${op.method} ${op.path.replace("/rest_api/v1", "")}`]);
    expect(rows.map((r) => [r.id, r.route]).sort()).toEqual(api.sort());
  });

  it("name every root field of the GraphQL schema once, each as the simulator matches it to its twin", async () => {
    const schema = buildSchema(readFileSync(join(ROOT, "graphql/schema.graphql"), "utf8"));
    const roots = [...Object.values(schema.getQueryType()!.getFields()).map((f) => ["query", f] as const), ...Object.values(schema.getMutationType()!.getFields()).map((f) => ["mutation", f] as const)];
    expect(rows.map((r) => r.field).sort()).toEqual(roots.map(([, f]) => f.name).sort());
    const sim = createSimulator();
    const twins: string[][] = [];
    for (const [kind, field] of roots) {
      await sim.fetch(sim.graphqlUrl, { method: "POST", headers: { ...AUTH, "Content-Type": "application/json" }, body: JSON.stringify({ query: rootFieldDocument(kind, field) }) });
      const journal = (await (await sim.fetch("/__sim/requests?api=graphql&limit=1")).json()) as { requests: { graphql: { fields: { operation: string }[] } }[] };
      twins.push([field.name, journal.requests[0]!.graphql.fields[0]!.operation]);
    }
    expect(rows.map((r) => [r.field, r.id]).sort()).toEqual(twins.sort());
  });
});

/** A document that runs one root field with made-up required arguments: enough to be journaled. */
function rootFieldDocument(kind: "query" | "mutation", field: GraphQLField<unknown, unknown>): string {
  const literal = (type: GraphQLInputType): string => {
    const named = getNamedType(type);
    if (isInputObjectType(named)) return `{ ${Object.values(named.getFields()).filter((f) => isNonNullType(f.type)).map((f) => `${f.name}: ${literal(f.type)}`).join(", ")} }`;
    if (isEnumType(named)) return named.getValues()[0]!.name;
    return { ID: '"1"', Int: "1", Float: "1", String: '"x"', Boolean: "false" }[named.name]!;
  };
  const args = field.args.filter((a) => isNonNullType(a.type)).map((a) => `${a.name}: ${literal(a.type)}`);
  return `${kind} { ${field.name}${args.length > 0 ? `(${args.join(", ")})` : ""}${isLeafType(getNamedType(field.type)) ? "" : " { __typename }"} }`;
}

describe("the README's options", () => {
  const rows = table(page("README.md"), "| flag | environment variable | default | meaning |");
  const tokens = (text: string, pattern: RegExp) => [...new Set(text.match(pattern))].sort();

  it("are the flags and variables --help lists", () => {
    const documented = rows.map((r) => r[0]!).join(" ");
    expect(tokens(documented, /--[\w-]+/g)).toEqual(tokens(HELP, /--[\w-]+/g).filter((f) => f !== "--help" && f !== "--version"));
    expect(tokens(rows.map((r) => r[1]!).join(" "), /LOYALTY_SIM_\w+/g)).toEqual(tokens(HELP, /LOYALTY_SIM_\w+/g));
  });

  it("give the limits the defaults and variables docs/limits.md gives them", () => {
    const limits = table(page("docs/limits.md"), "| flag | environment variable | default | bounds |").map((r) => r.slice(0, 3));
    expect(limits.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.slice(0, 3)).filter(([flag]) => limits.some(([f]) => f === flag))).toEqual(limits);
  });
});

describe("docs/control-api.md", () => {
  const routes = table(page("docs/control-api.md"), "| call | does |").map(([call]) => code(call!));
  const methods = table(page("docs/control-api.md"), "| method | answers | call |").map(([method, , call]) => ({ name: code(method!).replace(/\(.*$/, ""), call: code(call!).replace(/\?.*$/, "") }));

  it("has one row for each route of the control API", () => {
    expect(routes.sort()).toEqual(operations.filter((op) => op.id.startsWith("sim")).map((op) => `${op.method} ${op.path}`).sort());
  });

  it("has one row for each method of the control client, with the route it calls", async () => {
    const calls: string[] = [];
    const recorder: typeof fetch = async (input, init) => {
      calls.push(`${init?.method} ${new URL(String(input)).pathname}`);
      return Response.json({});
    };
    const client = createControlClient(recorder, "http://127.0.0.1:4747") as unknown as Record<string, (...args: string[]) => Promise<unknown>>;
    expect(methods.map((m) => m.name).sort()).toEqual(Object.keys(client).sort());
    // `{}` is no wait's answer: waitFor throws on it, after its one call.
    for (const { name } of methods) await client[name]!("1", "2").catch((error: unknown) => { if (name !== "waitFor") throw error; });
    expect(calls).toEqual(methods.map((m) => m.call.replace(/\{\w+\}/, "1")));
  });
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, each space a hyphen. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");

/** The page without its code blocks, line numbers kept. */
const prose = (markdown: string) => markdown.replace(/^```[\s\S]*?^```$/gm, (block) => block.replace(/[^\n]/g, ""));

function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(heading!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    found.add(n === 0 ? base : `${base}-${n}`);
  }
  return found;
}

function links({ source, markdown }: DocPage): { where: string; target: string }[] {
  const text = prose(markdown);
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => ({ where: `${source}:${text.slice(0, m.index).split("\n").length}`, target: m[1]! }))
    .filter(({ target }) => !/^[a-z]+:/.test(target));
}

describe("links between the pages", () => {
  it("every relative link finds its file, and its heading when it names one", () => {
    const broken: string[] = [];
    for (const p of pages) {
      for (const { where, target } of links(p)) {
        const [file, anchor] = target.split("#");
        const path = file ? posix.join(dirname(p.source), file) : p.source;
        if (!existsSync(join(ROOT, path))) broken.push(`${where}: ${target}: no ${path}`);
        else if (anchor !== undefined && path.endsWith(".md") && !anchors(readFileSync(join(ROOT, path), "utf8")).has(anchor)) broken.push(`${where}: ${target}: no heading #${anchor} in ${path}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("the README links every page of docs/, and each user page links back in its opening lines", () => {
    const linked = new Set(links({ source: "README.md", markdown: page("README.md") }).map(({ target }) => target.split("#")[0]));
    const docs = pages.filter((p) => p.source.startsWith("docs/"));
    expect(docs.filter((p) => !linked.has(p.source)).map((p) => p.source)).toEqual([]);
    const users = docs.filter((p) => !CONTRIBUTOR_PAGES.includes(p.source));
    expect(users.length).toBeGreaterThan(0);
    expect(users.filter((p) => !p.markdown.split("\n").slice(0, 5).join("\n").includes("(../README.md)")).map((p) => p.source)).toEqual([]);
  });
});
