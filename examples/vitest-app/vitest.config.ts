import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["./test/global-setup.ts"],
    // Every file at once, whatever the cores: the two expiry files meet halfway (test/meet.ts).
    maxWorkers: 6,
    testTimeout: 30_000,
  },
});
