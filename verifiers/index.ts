/** The verifiers (`rllm-ts/verifiers`): the registry `rllm grade --verifier <name>` reads, and each verifier's entry points. */
import type { GradeVerifier } from "./grade-verifier.js";
import { mathGradeVerifier } from "./math/math-grade-verifier.js";
import { finqaGradeVerifier } from "./finqa/finqa-grade-verifier.js";
import { codeGradeVerifier } from "./code/code-grade-verifier.js";

/** Every verifier `rllm grade --verifier <name>` can run, by name. */
export const gradeVerifiers: ReadonlyMap<string, GradeVerifier<unknown>> = new Map<string, GradeVerifier<unknown>>(
  [mathGradeVerifier as GradeVerifier<unknown>, finqaGradeVerifier as GradeVerifier<unknown>, codeGradeVerifier as GradeVerifier<unknown>].map((verifier) => [verifier.name, verifier]),
);

// `rllm-ts/verifiers`: the verifiers' own entry points, beside the registry above.
export type { GradeVerifier } from "./grade-verifier.js";
export { gradeMath, gradeMathBatch, extractMathAnswer, MathPolicySchema, defaultMathPolicy } from "./math/index.js";
export { CodeGrader, normalizeTests, SandboxUnavailableError } from "./code/index.js";
export { gradeFinqaAnswer, tableAccess, finqaReward } from "./finqa/index.js";
