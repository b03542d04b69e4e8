/**
 * examples/vitest-app as a consumer project runs it: the packed package installed (its other
 * dependencies linked from ours, no download), `tsc --noEmit`, then its own vitest suite. The
 * TypeScript snippets of the README and of docs/ are compiled in the same project, against the same
 * package and beside the example's `src/loyalty.ts`, which they import.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "./support/cli.js";
import { cleanEnv, npm, packedTarball, run } from "./support/pack.js";
import { docPages, docSnippets, snippetDiagnostics, type Snippet } from "./support/doc-snippets.js";
import { NPM_MS } from "./support/patience.js";

const EXAMPLE = join(ROOT, "examples/vitest-app");
type Manifest = { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
const manifest = JSON.parse(readFileSync(join(EXAMPLE, "package.json"), "utf8")) as Manifest;
const ours = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Manifest;
/** The example's dependencies but loyalty-sim, which are linked from our node_modules. */
const linked = Object.entries({ ...manifest.dependencies, ...manifest.devDependencies }).filter(([name]) => name !== "loyalty-sim");

let tmp: string;
let app: string;
let snippets: Snippet[];
let skipped: number;
let exampleTsc: string;
let snippetsTsc: string;

beforeAll(async () => {
  const tarball = await packedTarball();
  tmp = mkdtempSync(join(tmpdir(), "loyalty-sim-example-"));
  app = join(tmp, "vitest-app");
  cpSync(EXAMPLE, app, { recursive: true, filter: (src) => !/[\\/](node_modules|coverage)$|\.tgz$/.test(src) });
  // npm installs the tarball alone (and its runtime dependencies, from the cache when it can).
  writeFileSync(join(app, "package.json"), JSON.stringify({ ...manifest, dependencies: {}, devDependencies: {} }, null, 2));
  await npm(["install", tarball, "--no-save", "--no-audit", "--no-fund", "--prefer-offline"], app);
  writeFileSync(join(app, "package.json"), JSON.stringify(manifest, null, 2));
  for (const [name] of linked) {
    mkdirSync(dirname(join(app, "node_modules", name)), { recursive: true });
    symlinkSync(join(ROOT, "node_modules", name), join(app, "node_modules", name), "dir");
  }

  ({ snippets, skipped } = docSnippets(docPages(ROOT)));
  for (const { file, code } of snippets) {
    mkdirSync(dirname(join(app, "snippets", file)), { recursive: true });
    writeFileSync(join(app, "snippets", file), code);
  }
  // `../src/loyalty.js` from a snippet in snippets/test/ is the example's module.
  symlinkSync(join(app, "src"), join(app, "snippets", "src"), "dir");
  // The snippets on their own, as a reader copies them: the example's declarations do not help them.
  writeFileSync(join(app, "tsconfig.snippets.json"), JSON.stringify({ extends: "./tsconfig.json", include: ["snippets"] }));
  [exampleTsc, snippetsTsc] = await Promise.all([tsc("tsconfig.json"), tsc("tsconfig.snippets.json")]);
});

/** tsc's diagnostics of a project of the app, one a line, paths relative to the app. */
async function tsc(project: string): Promise<string> {
  const args = ["node_modules/typescript/bin/tsc", "-p", project, "--noEmit", "--pretty", "false"];
  const result = await run(process.execPath, args, { cwd: app, env: cleanEnv(), timeout: NPM_MS }).catch((e: { stdout?: string; stderr?: string }) => ({
    stdout: `${e.stdout ?? ""}${e.stderr ?? ""}`,
  }));
  return result.stdout;
}

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("examples/vitest-app against the packed package", () => {
  it("declares the versions of its other dependencies that this repository has", () => {
    expect(linked.map(([name]) => name).sort()).toEqual(["@types/node", "axios", "typescript", "vitest"]);
    for (const [name, range] of linked) expect(range, name).toBe(ours.dependencies?.[name] ?? ours.devDependencies?.[name]);
    expect(manifest.devDependencies?.["loyalty-sim"]).toMatch(/^file:\.\.\/\.\.\/loyalty-sim-[\d.]+\.tgz$/);
    expect(existsSync(join(app, "node_modules/loyalty-sim/dist/index.d.ts"))).toBe(true);
  });

  it("type-checks (tsc --noEmit)", () => {
    expect(exampleTsc.split("\n").filter((l) => l.trim() !== "")).toEqual([]);
  });

  it("every TypeScript snippet of the README and docs/ compiles in it", () => {
    expect([snippets.length, skipped]).toEqual([13, 0]);
    expect(snippets.map((s) => s.file).filter((f) => !/-L\d+\.ts$/.test(f))).toEqual(["vitest.global-setup.ts", "test/file-shop.ts", "test/expiry.test.ts"]);
    expect(snippetDiagnostics(snippetsTsc, "snippets", snippets)).toEqual([]);
    expect(snippetsTsc).toBe("");
  });

  it("passes its own vitest suite: every file, every test", async () => {
    const report = join(tmp, "report.json");
    const ran = await run(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "--reporter=json", `--outputFile=${report}`], { cwd: app, env: cleanEnv(), timeout: NPM_MS }).then(
      (done) => ({ ok: true, output: `${done.stdout}${done.stderr}` }),
      (e: { stdout?: string; stderr?: string }) => ({ ok: false, output: `${e.stdout ?? ""}${e.stderr ?? ""}` }),
    );
    const result = JSON.parse(readFileSync(report, "utf8")) as {
      numTotalTests: number;
      numPassedTests: number;
      testResults: { name: string; status: string; assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
    };
    const failures = result.testResults.flatMap((f) => f.assertionResults.filter((t) => t.status !== "passed").map((t) => `${f.name}: ${t.title}: ${t.failureMessages.join("\n")}`));
    expect(failures).toEqual([]);
    expect(result.testResults.map((f) => [f.name.slice(app.length + 1), f.status, f.assertionResults.length]).sort()).toEqual([
      ["test/cli.test.ts", "passed", 2],
      ["test/expiry-a-month.test.ts", "passed", 1],
      ["test/expiry-a-year.test.ts", "passed", 1],
      ["test/intercept.test.ts", "passed", 3],
      ["test/retry.test.ts", "passed", 2],
      ["test/typed.test.ts", "passed", 2],
    ]);
    expect([result.numPassedTests, result.numTotalTests]).toEqual([11, 11]);
    // The global teardown's coverage report (docs/coverage.md): each file shop's, and the run passed it.
    expect(ran.output.match(/^# loyalty-sim coverage: shop \d+$/gm)).toHaveLength(2);
    expect(ran.output).toContain("| getCustomer |");
    expect(ran.ok, ran.output).toBe(true);
  });
});
