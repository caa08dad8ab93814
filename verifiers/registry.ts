/** Every verifier `rllm grade --verifier <name>` can run, loaded on demand (the code verifier brings the sandbox). */
import { createRegistry } from "rllm-ts/core";
import type { GradeVerifier, GradeVerifierEntry } from "./grade-verifier.js";

/** The grade verifiers by name; each that grades on a pool names it, for `rllm grade` to open as it starts. */
export const gradeVerifiers = createRegistry<GradeVerifier<unknown>, GradeVerifierEntry>("verifier", {
  math: {
    load: async () => (await import("./math/math-grade-verifier.js")).mathGradeVerifier as GradeVerifier<unknown>,
    loadPool: async (flags) => (await import("./math/math-pool.js")).mathPoolForFlags(flags),
    defersOptimizingCompiler: true,
  },
  finqa: { load: async () => (await import("./finqa/finqa-grade-verifier.js")).finqaGradeVerifier as GradeVerifier<unknown> },
  choice: { load: async () => (await import("./choice/choice-grade-verifier.js")).choiceGradeVerifier as GradeVerifier<unknown> },
  code: {
    load: async () => (await import("./code/code-grade-verifier.js")).codeGradeVerifier as GradeVerifier<unknown>,
    loadPool: async (flags) => (await import("./code/code-pool.js")).codePoolForFlags(flags),
  },
});
