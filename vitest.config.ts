import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Three projects. sdk: the tests that judge against real Python packages (verl, Ray, the Tinker and Fireworks SDKs,
// sandbox-fusion, gymnasium, Harbor) from the pinned environments that scripts/python-env.sh downloads from PyPI; they
// are named *.sdk.test.ts and run only under `npm run test:sdk`. e2e: they spawn the CLI, run programs in bwrap
// sandboxes, serve HTTP, or pack and install the package; new ones are named *.e2e.test.ts. Everything else under test/
// is a unit test: in process and fast. `npm test` runs unit and e2e, offline, with Debian's python3 alone.
// Chosen by file so that no test has to move.
const endToEnd = [
  "test/**/*.e2e.test.ts",
  "test/cli/**/*.test.ts",
  "test/package/**/*.test.ts",
  "test/**/*-eval.test.ts",
  "test/tournament/eval-rerank.test.ts",
  "test/tournament/rerank-end-to-end.test.ts",
  "test/verifiers/code/{code-dev-agreement,code-grade-verifier,sandbox-hostile}.test.ts",
  // They grade code rows and code cookbooks' replies (deepcoder's, evalplus's), in real sandboxes.
  "test/contracts/{grade-verifiers,integrity,cookbooks}.contract.test.ts",
  "test/verifiers/finqa/finqa-grade-verifier.test.ts",
  "test/benchmarks/deepcoder/deepcoder-benchmark.test.ts",
  "test/models/tiny/server.test.ts",
  "test/gateway/**/*.test.ts",
];
const sdk = ["test/**/*.sdk.test.ts"];
const excluded = ["test/perf/**", "node_modules/**"];

export default defineConfig({
  // tsconfig.json's paths: "rllm-ts/core" and the other entries the built-in plugins import mean the sources, the
  // same modules the tests import by path (vite would otherwise find no such package: dist/ is what "exports" names).
  resolve: { tsconfigPaths: true },
  test: {
    // Sandboxed programs, worker pools and local servers are slow to start on a loaded 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two test files at a time even on two cores (vitest's default there is one): the end-to-end files spend most of
    // their time waiting on child processes, servers and time limits (their CPU time is a tenth of their wall time).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { extends: true, test: { name: "unit", include: ["test/**/*.test.ts"], exclude: [...excluded, ...endToEnd, ...sdk] } },
      { extends: true, test: { name: "e2e", include: endToEnd, exclude: [...excluded, ...sdk] } },
      // Ray heads, pytest suites and torch: heavy enough to run one file at a time.
      { extends: true, test: { name: "sdk", include: sdk, exclude: excluded, maxWorkers: 1 } },
    ],
  },
});
