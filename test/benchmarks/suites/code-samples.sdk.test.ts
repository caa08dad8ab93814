/**
 * The code suites' bundled samples: every reference solution passes every test in the sandbox, with the pinned
 * "parity" environment's Python (EvalPlus's test code imports numpy), so this file is in `npm run test:sdk`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { benchmarks } from "../../../benchmarks/registry.js";
import { CodeGrader } from "../../../verifiers/code/code-grader.js";
import { normalizeTests } from "../../../verifiers/code/normalize-tests.js";
import { pythonEnv } from "../../helpers/python-env.js";

const home = mkdtempSync(path.join(os.tmpdir(), "rllm-suites-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("the code suites' samples", () => {
  // EvalPlus's test code imports numpy: the pinned "parity" environment has a numpy wheel (its libraries inside it, where
  // Debian's python3-numpy reaches its BLAS through /etc/alternatives, which the sandbox does not mount).
  const python = pythonEnv("parity");

  it.each(["humaneval", "humanevalplus", "mbppplus", "livecodebench"])("%s: every reference solution passes every test in the sandbox", async (name) => {
    const tasks = await (await benchmarks.load(name)).loadTasks({ home });
    const grader = await CodeGrader.create({ timeoutSeconds: 60, concurrency: 2, python });
    try {
      for (const task of tasks) {
        const { tests, fnName } = normalizeTests(task.metadata.tests, task.metadata.fn_name as string | null | undefined);
        const verdict = await grader.grade({ program: String(task.metadata.reference_solution), tests, fnName });
        expect(verdict.verdict, `${task.id}: ${verdict.detail}`).toBe("accepted");
        expect(verdict.passedTests).toBe(verdict.totalTests);
      }
    } finally {
      await grader.close();
    }
  });

  it.each(["humanevalplus", "mbppplus"])("%s: a program that is right on the base tests only fails the extended ones", async (name) => {
    const tasks = await (await benchmarks.load(name)).loadTasks({ home });
    const grader = await CodeGrader.create({ timeoutSeconds: 60, concurrency: 1, python });
    try {
      const task = tasks[0]!;
      // The reference solution, wrong on exactly the inputs beyond the first one it is called with.
      const broken = `${String(task.metadata.reference_solution)}\n_calls = [0]\n_real = {k: v for k, v in list(globals().items()) if callable(v) and not k.startswith("_")}\nfor _name, _function in _real.items():\n    def _wrap(*a, _f=_function, **k):\n        _calls[0] += 1\n        return _f(*a, **k) if _calls[0] == 1 else None\n    globals()[_name] = _wrap\n`;
      const { tests } = normalizeTests(task.metadata.tests);
      expect((await grader.grade({ program: broken, tests })).passed).toBe(false);
    } finally {
      await grader.close();
    }
  });
});
