/**
 * The user docs (README.md and docs/*.md) as data for tests: their fenced code blocks, and their
 * TypeScript snippets as files to compile. Each ```ts block becomes a module, at the path its first
 * line names (`// test/file-shop.ts`) or at `test/<page>-L<line>.ts`, so that its relative imports
 * resolve as in a project's test folder. A block right after a `<!-- not compiled -->` line is left out.
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface DocPage {
  /** The page's path in the repository, e.g. `docs/testing.md`. */
  source: string;
  markdown: string;
}

/** README.md and every page of docs/, in that order. */
export function docPages(root: string): DocPage[] {
  const docs = readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`);
  return ["README.md", ...docs].map((source) => ({ source, markdown: readFileSync(join(root, source), "utf8") }));
}

export interface CodeBlock {
  /** The fence's language (`sh`, `ts`, ...; empty when none). */
  lang: string;
  /** The page's line number of the block's first code line. */
  line: number;
  lines: string[];
  /** The last non-blank line before the fence. */
  before: string | undefined;
}

const FENCE = /^```(\w*)\s*$/;

/** The page's fenced code blocks, in order. */
export function codeBlocks({ source, markdown }: DocPage): CodeBlock[] {
  const lines = markdown.split("\n");
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && FENCE.test(l) && FENCE.exec(l)![1] === "");
    if (end < 0) throw new Error(`${source}:${i + 1}: a code block that is never closed`);
    const before = lines.slice(0, i).reverse().find((l) => l.trim() !== "");
    blocks.push({ lang: open[1]!, line: i + 2, lines: lines.slice(i + 1, end), before });
    i = end;
  }
  return blocks;
}

export interface Snippet {
  /** The page the block is on. */
  source: string;
  /** The page's line of the block's first code line. */
  line: number;
  /** Where the block goes, relative to the folder the snippets are compiled in. */
  file: string;
  code: string;
}

const NAMED = /^\/\/ ((?:[\w.-]+\/)*[\w.-]+\.ts)\b/;

/** `readme` for README.md, `testing` for docs/testing.md: the default snippet files' prefix. */
const stem = (source: string) => (source === "README.md" ? "readme" : source.replace(/^.*\//, "").replace(/\.md$/, ""));

export function docSnippets(pages: DocPage[]): { snippets: Snippet[]; skipped: number } {
  const snippets: Snippet[] = [];
  let skipped = 0;
  for (const page of pages) {
    for (const { lang, line, lines, before } of codeBlocks(page)) {
      if (lang !== "ts") continue;
      if (before?.trim().startsWith("<!-- not compiled")) skipped++;
      else snippets.push({ source: page.source, line, file: NAMED.exec(lines[0] ?? "")?.[1] ?? `test/${stem(page.source)}-L${line}.ts`, code: `${lines.join("\n")}\n` });
    }
  }
  const seen = new Map<string, Snippet>();
  for (const snippet of snippets) {
    const first = seen.get(snippet.file);
    if (first) throw new Error(`${snippet.source}:${snippet.line}: a second snippet named ${snippet.file} (the first is at ${first.source}:${first.line})`);
    seen.set(snippet.file, snippet);
  }
  return { snippets, skipped };
}

/**
 * tsc's diagnostics (`path(line,col): error ...`) of the snippets, with the pages' lines instead of
 * the snippet files' own: `docs/testing.md:412 (test/testing-L410.ts:3:5): error TS2345: ...`.
 */
export function snippetDiagnostics(tscOutput: string, dir: string, snippets: Snippet[]): string[] {
  const byFile = new Map(snippets.map((s) => [`${dir}/${s.file}`, s]));
  return tscOutput
    .split("\n")
    .filter((l) => l.startsWith(`${dir}/`))
    .map((l) => {
      const [, file, row, col, rest] = /^(.+?)\((\d+),(\d+)\): (.*)$/.exec(l) ?? [];
      const snippet = file ? byFile.get(file) : undefined;
      return snippet ? `${snippet.source}:${snippet.line + Number(row) - 1} (${snippet.file}:${row}:${col}): ${rest}` : l;
    });
}
