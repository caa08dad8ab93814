/** Grades a multiple-choice reply against the correct letter: the chosen letter must be it; a tie or no answer is a scored 0. */
import { scored, unscored, type Score } from "rllm-ts/core";
import { extractChoice } from "./extract-choice.js";

/**
 * Reward 1 when the reply's choice (extractChoice) is `correctLetter`; several letters at once or none score 0, with
 * the reason. A row whose correct option's text also stands under another letter (a duplicated option, a defect some
 * published rows have) cannot tell a choice of that twin from the right answer: a reply that picks the twin, or ties
 * the two, is unscored rather than a 0 the model did not earn.
 */
export function gradeChoice(response: string, options: readonly string[], correctLetter: string): Score {
  const correct = correctLetter.trim().toUpperCase();
  const twins = twinLetters(options, correct);
  const choice = extractChoice(response, options.length, options);
  if (choice.kind === "none") return scored(0, false, { explanation: "no answer letter in the reply" });
  if (choice.kind === "tie") {
    if (choice.letters.every((letter) => letter === correct || twins.includes(letter))) return duplicated(choice.letters.join(","), correct, twins);
    return scored(0, false, { answer: choice.letters.join(","), explanation: `several answers at once (${choice.letters.join(", ")})` });
  }
  if (twins.includes(choice.letter)) return duplicated(choice.letter, correct, twins);
  const isCorrect = choice.letter === correct;
  return scored(isCorrect ? 1 : 0, isCorrect, { answer: choice.letter, explanation: `chose ${choice.letter} (${choice.source}), correct ${correctLetter}` });
}

/** The other letters whose option text equals the correct option's (compared as extractChoice compares texts). */
function twinLetters(options: readonly string[], correct: string): string[] {
  const text = comparable(options[correct.charCodeAt(0) - 65] ?? "");
  if (text === "") return [];
  return options.flatMap((option, index) => {
    const letter = String.fromCharCode(65 + index);
    return letter !== correct && comparable(option) === text ? [letter] : [];
  });
}

function duplicated(answer: string, correct: string, twins: readonly string[]): Score {
  return unscored(`options ${[correct, ...twins].join(" and ")} have the same text, so choosing ${answer} cannot be told from the correct ${correct}`, { answer });
}

function comparable(text: string): string {
  return text.replace(/\s+/g, " ").trim().toLowerCase();
}
