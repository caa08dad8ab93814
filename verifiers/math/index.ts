/** The math verifier: answer extraction, normalisation and equivalence (mathjs + nerdamer), in process or on a timed worker pool. */
export { gradeMath, type MathGroundTruth, type MathVerdict } from "./grade-math.js";
export { gradeMathBatch, type GradeMathBatchOptions } from "./grade-math-batch.js";
export { mathPool, mathGradingPool, defaultMathTimeoutMs } from "./math-pool.js";
export { MathWorkerPool, type MathJob, type PooledMathVerdict } from "./math-worker-pool.js";
export { extractMathAnswer } from "./extract-math-answer.js";
export { extractAnswer, lastBoxed, type ExtractedAnswer } from "./extract-answer.js";
export { MathPolicySchema, defaultMathPolicy, type MathPolicy, type MathPolicyInput } from "./math-policy.js";
export { mathGradeVerifier, MathRowSchema, isEmptyGroundTruth, mathVerdictScore, type MathRow } from "./math-grade-verifier.js";
