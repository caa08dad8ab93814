/** Finds the `FINAL ANSWER:` block of a FinQA agent's reply, in rLLM's order of preference. */

/** The answer block and whether it came from an explicit marker (else it is the whole reply). */
export interface FinalAnswer {
  text: string;
  isMarked: boolean;
}

// rLLM (finqa_eval.py) tries: a fenced ```FINAL ANSWER: …``` block, then the paragraph after the marker.
const fencedPattern = /```[a-z]*\s*FINAL ANSWER:\s*([\s\S]*?)```/gi;
const paragraphPattern = /FINAL ANSWER:\s*([\s\S]*?)(?:\n\s*\n|$)/gi;
const boxedPattern = /\\boxed\{([^{}]*)\}/g;

/** The last marked answer block of `reply`; a `\boxed{}` wins inside it; else the whole reply, unmarked. */
export function extractFinalAnswer(reply: string): FinalAnswer {
  const marked = lastCapture(fencedPattern, reply) ?? lastCapture(paragraphPattern, reply);
  const scope = marked ?? reply;
  const boxed = lastCapture(boxedPattern, scope);
  if (boxed !== undefined) return { text: boxed, isMarked: true };
  if (marked !== undefined) return { text: stripMarkdown(marked), isMarked: true };
  return { text: stripMarkdown(reply.trim()), isMarked: false };
}

function lastCapture(pattern: RegExp, text: string): string | undefined {
  let last: string | undefined;
  for (const match of text.matchAll(pattern)) {
    const captured = match[1]?.trim() ?? "";
    if (captured !== "") last = captured;
  }
  return last;
}

// Bold and code marks would otherwise sit between a sign and its digits ("**-$32**" is fine, "-**32**" is not).
function stripMarkdown(text: string): string {
  return text.replace(/\*\*|__|`/g, "").trim();
}
