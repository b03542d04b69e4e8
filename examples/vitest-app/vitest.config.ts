import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["./test/global-setup.ts"],
    // Every file at once, whatever the cores: the two expiry files meet halfway (test/meet.ts).
    maxWorkers: 6,
    // A guard against a hang, not a speed check: shared CI runners can be many times slower than a laptop.
    testTimeout: 180_000,
  },
});
