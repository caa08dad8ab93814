/** The deterministic FinQA grader: answer extraction, number parsing, table access, reward, and the `finqa` GradeVerifier. */
export { gradeFinqaAnswer, relativeTolerance, roundingCeiling, type FinqaGrade, type FinqaVerdict } from "./grade-finqa-answer.js";
export { extractFinalAnswer, type FinalAnswer } from "./extract-final-answer.js";
export { parseFinancialNumbers, type FinancialNumber } from "./financial-number.js";
export { tableAccess } from "./table-access.js";
export { finqaReward, defaultTableAccessBeta } from "./finqa-reward.js";
export { finqaScore, type FinqaScoreInput } from "./finqa-score.js";
export { finqaComparableAnswer } from "./comparable-answer.js";
export { finqaGradeVerifier, gradeFinqaRow, FinqaRowSchema, type FinqaRow } from "./finqa-grade-verifier.js";
