/** Every verifier `rllm grade --verifier <name>` can run, by name. */
import type { GradeVerifier } from "./grade-verifier.js";
import { mathGradeVerifier } from "./math/math-grade-verifier.js";
import { finqaGradeVerifier } from "./finqa/finqa-grade-verifier.js";
import { codeGradeVerifier } from "./code/code-grade-verifier.js";

export const gradeVerifiers: ReadonlyMap<string, GradeVerifier<unknown>> = new Map<string, GradeVerifier<unknown>>(
  [mathGradeVerifier as GradeVerifier<unknown>, finqaGradeVerifier as GradeVerifier<unknown>, codeGradeVerifier as GradeVerifier<unknown>].map((verifier) => [verifier.name, verifier]),
);
