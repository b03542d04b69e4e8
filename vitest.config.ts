import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The npm package is packed once a run, by the first test file that installs it.
    globalSetup: ["./test/support/pack-setup.ts"],
    reporters: ["default", "./test/support/summary-reporter.ts"],
    // Shared 2-core machines: real-port and browser tests get room, unit tests stay fast anyway.
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
