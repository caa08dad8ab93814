import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["test/perf/**", "node_modules/**"],
    // Sandboxed programs, worker pools and local servers are slow to start on a loaded 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
