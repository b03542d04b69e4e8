/**
 * The README's TypeScript snippets as files to compile: each ```ts block becomes a module, at the
 * path its first line names (`// test/file-shop.ts`) or at `test/readme-L<line>.ts`, so that its
 * relative imports resolve as in a project's test folder. A block right after a
 * `<!-- not compiled -->` line is left out.
 * @module
 */

export interface Snippet {
  /** The README line of the block's first code line. */
  line: number;
  /** Where the block goes, relative to the folder the snippets are compiled in. */
  file: string;
  code: string;
}

const FENCE = /^```(\w*)\s*$/;
const NAMED = /^\/\/ ((?:[\w.-]+\/)*[\w.-]+\.ts)\b/;

export function readmeSnippets(markdown: string): { snippets: Snippet[]; skipped: number } {
  const lines = markdown.split("\n");
  const snippets: Snippet[] = [];
  let skipped = 0;
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && FENCE.test(l) && FENCE.exec(l)![1] === "");
    if (end < 0) throw new Error(`README.md:${i + 1}: a code block that is never closed`);
    if (open[1] === "ts") {
      const code = lines.slice(i + 1, end);
      const before = lines.slice(0, i).reverse().find((l) => l.trim() !== "");
      if (before?.trim().startsWith("<!-- not compiled")) skipped++;
      else snippets.push({ line: i + 2, file: NAMED.exec(code[0] ?? "")?.[1] ?? `test/readme-L${i + 2}.ts`, code: `${code.join("\n")}\n` });
    }
    i = end;
  }
  const seen = new Set<string>();
  for (const { file, line } of snippets) {
    if (seen.has(file)) throw new Error(`README.md:${line}: a second snippet named ${file}`);
    seen.add(file);
  }
  return { snippets, skipped };
}

/**
 * tsc's diagnostics (`path(line,col): error ...`) of the snippets, with README lines instead of
 * the snippet files' own: `README.md:412 (test/readme-L410.ts:3:5): error TS2345: ...`.
 */
export function readmeDiagnostics(tscOutput: string, dir: string, snippets: Snippet[]): string[] {
  const byFile = new Map(snippets.map((s) => [`${dir}/${s.file}`, s]));
  return tscOutput
    .split("\n")
    .filter((l) => l.startsWith(`${dir}/`))
    .map((l) => {
      const [, file, row, col, rest] = /^(.+?)\((\d+),(\d+)\): (.*)$/.exec(l) ?? [];
      const snippet = file ? byFile.get(file) : undefined;
      return snippet ? `README.md:${snippet.line + Number(row) - 1} (${snippet.file}:${row}:${col}): ${rest}` : l;
    });
}
