import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { TEST_MS } from "./test/support/patience.js";

/** Test files that must not share modules with another file. */
const ISOLATED = [
  // vi.mock replaces a module for the whole file, which a shared module graph would not see.
  "test/regressions/write-or-nothing.test.ts",
  // Heap and garbage-collection measurements: another file's garbage would be counted.
  "test/coverage/bounds.test.ts",
  "test/robustness/document-cache-bytes.test.ts",
  "test/regressions/held-request-release.test.ts",
  "test/in-process.test.ts",
  "test/intercept-lifecycle.test.ts",
  "test/verify/client-bounds.test.ts",
  // test/support/import.ts keeps one temporary folder a file, removed after the file.
  "test/import/**/*.test.ts",
];

export default defineConfig({
  // Node loads "graphql" as its CommonJS main, as graphql-jit's own imports of it do; vite would
  // take its ESM build for our sources, and graphql-js refuses types from a second copy.
  resolve: { alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }] },
  test: {
    // The npm package is packed once a run, by the first test file that installs it.
    globalSetup: ["./test/support/pack-setup.ts"],
    reporters: ["default", "./test/support/summary-reporter.ts"],
    // A safety net for a hang, never a speed check: a busy 2-core runner is many times slower
    // than a quiet one, and each wait inside a test follows its own event (test/support/patience.ts).
    testTimeout: TEST_MS,
    hookTimeout: TEST_MS,
    // One worker per core, not vitest's cores - 1: many files mostly wait on child processes and
    // sockets, and on 2 cores the default ran every file one after another (155 s -> 105 s).
    maxWorkers: availableParallelism(),
    projects: [
      // Files share their worker's modules (each file's own code still runs afresh): the simulator's
      // module graph is evaluated once a worker, not once a file (CONTRIBUTING.md, "The suite's
      // time"). That holds while src/ and test/support/ keep no state at module level; the files
      // in ISOLATED need modules of their own, and say why.
      { extends: true, test: { name: "all", include: ["test/**/*.test.ts"], exclude: ISOLATED, isolate: false } },
      { extends: true, test: { name: "isolated", include: ISOLATED } },
      // The API tests once more through a real port: the Node server, buffered bodies and Node's headers.
      { extends: true, test: { name: "api-over-socket", include: ["test/api/**/*.test.ts"], env: { LOYALTY_SIM_TEST_TRANSPORT: "socket" } } },
    ],
  },
});
