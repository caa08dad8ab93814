/** Pulls the final answer out of a reply: the last \boxed{...} (brace-matched), else the last non-empty line. */

/** Content of the last `\boxed{...}` in `text`, with nested braces matched; undefined when there is none. */
export function lastBoxedContent(text: string): string | undefined {
  const start = text.lastIndexOf("\\boxed{");
  if (start === -1) return undefined;
  let depth = 0;
  for (let index = start + "\\boxed".length; index < text.length; index++) {
    const character = text[index];
    if (character === "{") depth += 1;
    else if (character === "}") {
      depth -= 1;
      if (depth === 0) return text.slice(start + "\\boxed{".length, index);
    }
  }
  return undefined;
}

/** The boxed answer if any, else the last non-empty line (with an "Answer:" label dropped). */
export function extractFinalAnswer(text: string): string {
  const boxed = lastBoxedContent(text);
  if (boxed !== undefined) return boxed;
  const lines = text.split("\n").map((line) => line.trim()).filter((line) => line !== "");
  const last = lines.at(-1) ?? "";
  return last.replace(/^(final\s+)?answer\s*[:：]\s*/i, "");
}

/** Case, surrounding spaces and quotes, $...$, a trailing full stop and inner runs of spaces do not matter. */
export function normalizeAnswer(answer: string): string {
  return answer
    .trim()
    .replace(/^\$(.*)\$$/s, "$1")
    .replace(/^["'`](.*)["'`]$/s, "$1")
    .replace(/\.$/, "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}
