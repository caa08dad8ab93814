/** The multiple-choice verifier: which option letter a reply chose, and its grade against the correct one. */
export { extractChoice, type ExtractedChoice } from "./extract-choice.js";
export { gradeChoice } from "./grade-choice.js";
export { choiceGradeVerifier, ChoiceRowSchema, type ChoiceRow } from "./choice-grade-verifier.js";
