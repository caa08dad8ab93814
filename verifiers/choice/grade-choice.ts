/** Grades a multiple-choice reply against the correct letter: the chosen letter must be it; a tie or no answer is a scored 0. */
import { scored, type Score } from "rllm-ts/core";
import { extractChoice } from "./extract-choice.js";

/** Reward 1 when the reply's choice (extractChoice) is `correctLetter`; several letters at once or none score 0, with the reason. */
export function gradeChoice(response: string, options: readonly string[], correctLetter: string): Score {
  const choice = extractChoice(response, options.length, options);
  if (choice.kind === "none") return scored(0, false, { explanation: "no answer letter in the reply" });
  if (choice.kind === "tie") return scored(0, false, { answer: choice.letters.join(","), explanation: `several answers at once (${choice.letters.join(", ")})` });
  const isCorrect = choice.letter === correctLetter.trim().toUpperCase();
  return scored(isCorrect ? 1 : 0, isCorrect, { answer: choice.letter, explanation: `chose ${choice.letter} (${choice.source}), correct ${correctLetter}` });
}
