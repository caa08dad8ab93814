/** The verifiers (`rllm-ts/verifiers`): the registry `rllm grade --verifier <name>` reads, and each verifier's entry points. */
export { gradeVerifiers } from "./registry.js";

// `rllm-ts/verifiers`: the verifiers' own entry points, beside the registry above.
export type { GradeVerifier, GradeOptions } from "./grade-verifier.js";
export { gradeMath, gradeMathBatch, extractMathAnswer, MathPolicySchema, defaultMathPolicy } from "./math/index.js";
export { CodeGrader, normalizeTests } from "./code/index.js";
export { extractChoice, gradeChoice } from "./choice/index.js";
export { gradeFinqaAnswer, tableAccess, finqaReward } from "./finqa/index.js";
