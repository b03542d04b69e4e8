/**
 * The curl examples of the docs' ```sh blocks as requests a test can send: the little shell they
 * are written in (variables set by `NAME=value` and expanded as a shell would, quotes, `\` line
 * continuations, `;`, comments), curl's flags they use, and the answer each shows in a `# {...}`
 * comment (on its last line, or on the lines right after it). Anything else in a curl line is an
 * error, so an example cannot say what the test does not check.
 * @module
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { codeBlocks, type DocPage } from "./doc-snippets.js";

export interface CurlExample {
  /** `README.md:44`: where the command starts. */
  where: string;
  method: string;
  /** The URL's path and query. */
  path: string;
  /** As curl sends them: its own `Accept` and `User-Agent`, then the `-H` ones. */
  headers: Record<string, string>;
  body?: string;
  /** The part of the JSON answer the docs show, if they show one. */
  expected?: unknown;
}

/** Where the docs' examples send their requests: the simulator as `npx loyalty-sim` starts it. */
const ORIGINS = new Set(["http://127.0.0.1:4747", "http://localhost:4747"]);

/** The words of one logical line, split into commands at `;`, and its trailing comment. */
function shellWords(line: string, vars: Map<string, string>, where: string): { commands: string[][]; comment?: string } {
  if (/\$\(|`/.test(line)) throw new Error(`${where}: command substitution is more shell than the docs' examples may use`);
  const commands: string[][] = [[]];
  let word = "";
  let inWord = false;
  const end = () => {
    if (inWord) commands.at(-1)!.push(word);
    word = "";
    inWord = false;
  };
  const variable = (at: number): [string, number] => {
    const m = /^\$(?:\{(\w+)\}|(\w+))/.exec(line.slice(at));
    if (!m) return ["$", at + 1];
    const name = m[1] ?? m[2]!;
    if (!vars.has(name)) throw new Error(`${where}: $${name} is not set in this page's examples`);
    return [vars.get(name)!, at + m[0].length];
  };
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (/\s/.test(c)) end(), i++;
    else if (c === ";") end(), commands.push([]), i++;
    else if (c === "#" && !inWord) return { commands: commands.filter((w) => w.length > 0), comment: line.slice(i + 1).trim() };
    else if (c === "'") {
      const close = line.indexOf("'", i + 1);
      if (close < 0) throw new Error(`${where}: a quote that is never closed`);
      word += line.slice(i + 1, close);
      inWord = true;
      i = close + 1;
    } else if (c === '"') {
      inWord = true;
      i++;
      while (line[i] !== '"') {
        if (i >= line.length) throw new Error(`${where}: a quote that is never closed`);
        if (line[i] === "\\" && /["\\$]/.test(line[i + 1] ?? "")) (word += line[i + 1]), (i += 2);
        else if (line[i] === "$") {
          const [value, next] = variable(i);
          word += value;
          i = next;
        } else word += line[i++];
      }
      i++;
    } else if (c === "\\") (word += line[i + 1] ?? ""), (inWord = true), (i += 2);
    else if (c === "$") {
      // Unquoted: the value is split into words, as `$H` holding several flags is.
      const [value, next] = variable(i);
      for (const v of value) if (/\s/.test(v)) end();
      else (word += v), (inWord = true);
      i = next;
    } else (word += c), (inWord = true), i++;
  }
  end();
  return { commands: commands.filter((w) => w.length > 0) };
}

/** One curl command as the request it sends. */
function curlRequest(args: string[], root: string, where: string): CurlExample {
  const headers: Record<string, string> = { Accept: "*/*", "User-Agent": "curl/8" };
  let method: string | undefined;
  let url: string | undefined;
  let body: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = () => {
      if (i + 1 >= args.length) throw new Error(`${where}: ${arg} without its value`);
      return args[++i]!;
    };
    if (/^-[sSf]+$/.test(arg)) continue;
    if (arg === "-X" || arg === "--request") method = value();
    else if (arg === "-H" || arg === "--header") {
      const header = value();
      const colon = header.indexOf(":");
      headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
    } else if (arg === "-d" || arg === "--data" || arg === "--data-binary") {
      const data = value();
      const file = data.startsWith("@") ? readFileSync(join(root, data.slice(1)), "utf8") : undefined;
      // As curl: -d strips a file's line ends, --data-binary sends it as it is.
      body = file === undefined ? data : arg === "--data-binary" ? file : file.replace(/[\r\n]/g, "");
    } else if (!arg.startsWith("-") && url === undefined) url = arg;
    else throw new Error(`${where}: curl ${arg} is not a flag the docs' examples may use`);
  }
  if (url === undefined) throw new Error(`${where}: curl without a URL`);
  const target = new URL(/^https?:\/\//.test(url) ? url : `http://${url}`);
  if (!ORIGINS.has(target.origin)) throw new Error(`${where}: ${url} is not the simulator at 127.0.0.1:4747`);
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type")) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
  }
  return { where, method: method ?? (body === undefined ? "GET" : "POST"), path: `${target.pathname}${target.search}`, headers, ...(body !== undefined && { body }) };
}

/** A comment that shows an answer: JSON, an object or an array. */
function shownAnswer(comment: string | undefined, where: string): unknown {
  if (comment === undefined || !/^[[{]/.test(comment)) return undefined;
  try {
    return JSON.parse(comment);
  } catch (error) {
    throw new Error(`${where}: the answer shown is not JSON: ${(error as Error).message}`);
  }
}

/** Every curl example of the page's ```sh blocks, in order, with the answer it shows. */
export function curlExamples(page: DocPage, root: string): CurlExample[] {
  const examples: CurlExample[] = [];
  const vars = new Map<string, string>();
  for (const block of codeBlocks(page)) {
    if (block.lang !== "sh") continue;
    let lastCurl: CurlExample | undefined;
    for (let i = 0; i < block.lines.length; i++) {
      const where = `${page.source}:${block.line + i}`;
      let line = block.lines[i]!;
      while (line.endsWith("\\") && i + 1 < block.lines.length) line = `${line.slice(0, -1)} ${block.lines[++i]!}`;
      // Other commands (npm, docker, git) are not examples of the API: not read.
      if (!/(^|[;\s])curl\s/.test(line) && !/^\s*([A-Za-z_]\w*=|#)/.test(line)) {
        lastCurl = undefined;
        continue;
      }
      const { commands, comment } = shellWords(line, vars, where);
      const shown = shownAnswer(comment, where);
      if (commands.length === 0) {
        if (shown === undefined) continue;
        if (!lastCurl || lastCurl.expected !== undefined) throw new Error(`${where}: an answer shown after no curl command`);
        lastCurl.expected = shown;
        continue;
      }
      lastCurl = undefined;
      for (const words of commands) {
        const assignment = /^([A-Za-z_]\w*)=(.*)$/s.exec(words[0]!);
        if (assignment && words.length === 1) vars.set(assignment[1]!, assignment[2]!);
        else if (words[0] === "curl") examples.push((lastCurl = curlRequest(words.slice(1), root, where)));
      }
      if (shown !== undefined) {
        if (!lastCurl) throw new Error(`${where}: an answer shown after no curl command`);
        lastCurl.expected = shown;
      }
    }
  }
  return examples;
}

/**
 * Where `actual` differs from what the docs show: objects in part (the fields shown), arrays
 * whole (as many items, each matched in part), anything else exactly.
 */
export function differences(actual: unknown, shown: unknown, at = ""): string[] {
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual) || actual.length !== shown.length) return [`${at || "(root)"}: shown ${JSON.stringify(shown)}, got ${JSON.stringify(actual)}`];
    return shown.flatMap((item, i) => differences(actual[i], item, `${at}[${i}]`));
  }
  if (shown !== null && typeof shown === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return [`${at || "(root)"}: shown an object, got ${JSON.stringify(actual)}`];
    return Object.entries(shown).flatMap(([key, value]) => differences((actual as Record<string, unknown>)[key], value, at ? `${at}.${key}` : key));
  }
  return Object.is(actual, shown) ? [] : [`${at || "(root)"}: shown ${JSON.stringify(shown)}, got ${JSON.stringify(actual)}`];
}
