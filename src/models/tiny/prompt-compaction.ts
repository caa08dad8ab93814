/**
 * Prompt compaction: the tiny model's context is ~100 tokens, so its chat template recognises the two prompt
 * shapes it was trained on (an arith question, a pairwise judge prompt) in whatever wording they come, and keeps
 * only what the model reads: the expression and, for a judge prompt, each solution's final `\boxed{}` answer
 * (the math judge grades final answers only; the model re-derives the answer itself before rating).
 */

/** What a recognised user message is reduced to. */
export type CompactPrompt =
  | { kind: "solve"; expression: string }
  | { kind: "judge"; expression: string; solutionA: string; solutionB: string };

// `What is 12+7*3?`: the phrasing of the arith benchmark's questions.
const QUESTION = /What is\s+(-?\d+(?:\s*[-+*]\s*-?\d+)+)\s*\?/i;
// A boxed answer that is not a placeholder such as `\boxed{n}` or `\boxed{}`.
const BOXED = /\\boxed\{(?!\s*n\s*\}|\s*\})[^}]*\}/;
const SOLUTION_A = /solution\s*a\b/gi;
const SOLUTION_B = /solution\s*b\b/gi;
/** Longest boxed answer kept, in characters; a longer one reads as no answer. */
const MAX_ANSWER_CHARACTERS = 16;

/** Recognises a user message as an arith question or a pairwise judge prompt; undefined for anything else. */
export function compactPrompt(text: string): CompactPrompt | undefined {
  const question = QUESTION.exec(text);
  // A pointwise `<rating>` prompt is not a skill of this model: left as plain text, it is refused as too long.
  if (!question || (/<rating>/.test(text) && !/rating_A/.test(text))) return undefined;
  // QUESTION's one group is not optional, so every match has it.
  const expression = question[1]!.replace(/\s+/g, "");
  if (!/rating_A/.test(text)) return { kind: "solve", expression };
  const sections = solutionSections(text.slice(question.index + question[0].length));
  if (!sections) return undefined;
  return { kind: "judge", expression, solutionA: finalAnswer(sections[0]), solutionB: finalAnswer(sections[1]) };
}

// Solution A's section starts at the last "Solution A" heading before the first "Solution B" heading after it.
function solutionSections(text: string): [string, string] | undefined {
  const headingsA = [...text.matchAll(SOLUTION_A)].map((match) => match.index);
  const headingsB = [...text.matchAll(SOLUTION_B)].map((match) => match.index);
  for (let index = headingsA.length - 1; index >= 0; index--) {
    const startA = headingsA[index]!;
    const startB = headingsB.find((position) => position > startA);
    if (startB === undefined) continue;
    const nextA = headingsA.find((position) => position > startB);
    return [text.slice(startA, startB), text.slice(startB, nextA)];
  }
  return undefined;
}

/** The first `\boxed{...}` of a solution that is not a placeholder, without spaces; "" when it has none. */
export function finalAnswer(text: string): string {
  const boxed = BOXED.exec(text)?.[0].replace(/\s+/g, "") ?? "";
  return boxed.length <= MAX_ANSWER_CHARACTERS ? boxed : "";
}
