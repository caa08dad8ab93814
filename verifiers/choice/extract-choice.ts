/** Finds the option letter a multiple-choice reply chose: its last explicit answer, a bare letter, or an option's text. */

/** What a reply chose: one letter, several at once (a tie), or nothing. */
export type ExtractedChoice =
  | { kind: "letter"; letter: string; source: "boxed" | "answer-phrase" | "bare-letter" | "option-text" }
  | { kind: "tie"; letters: string[] }
  | { kind: "none" };

// Letters of the options (MMLU-Pro has up to ten, A-J).
const letterOf = (index: number) => String.fromCharCode(65 + index);

// Markdown and LaTeX wrappers a model puts around a letter: **C**, $C$, \text{C}, \textbf{C}, (C), [C], {C}.
const wrappers = String.raw`(?:\*\*|__|\$|\\[(\[]|\\text(?:bf)?\{|\\mathrm\{|[(\[{]|\s)*`;

/**
 * The choice of `response` among `optionCount` options (A, B, …), with `options` (their texts) for a reply that
 * names the text instead of the letter. The last explicit answer wins: `\boxed{C}`, or a phrase such as "The answer is
 * (C)", "Answer: C", "**Answer:** C", "the correct option is C" (a bare "option A" in the reasoning is not one). A phrase or box holding two letters ("A or C",
 * `\boxed{A, C}`) is a tie; a box holding an option's value chose it. Without one: a reply that is only a letter (`C`,
 * `(C)`, `**C.**`); a last line that opens with a letter and its option's text (`C. <text of C> …`), holds one
 * parenthesised letter, or ends with exactly one option's text. Only capital letters of existing options count, so "answer is a" is no answer.
 */
export function extractChoice(response: string, optionCount: number, options: readonly string[] = []): ExtractedChoice {
  const valid = Array.from({ length: optionCount }, (_, index) => letterOf(index));
  const range = `[${valid[0]}-${valid.at(-1)}]`;
  // Reasoning inside a think block is not the answer.
  const text = response.replace(/<think>[\s\S]*?<\/think>/gi, "").replace(/^[\s\S]*<\/think>/i, "");

  const statements: { index: number; letters: string[]; source: "boxed" | "answer-phrase" | "option-text" }[] = [];
  for (const match of text.matchAll(/\\boxed\s*\{((?:[^{}]|\{[^{}]*\})*)\}/g)) {
    const letters = lettersIn(match[1]!, range);
    // A box holding an option's value (`\boxed{50}`) chose that option.
    const byText = letters.length === 0 ? optionsEqualTo(match[1]!, options) : [];
    statements.push({ index: match.index, letters: letters.length > 0 ? letters : byText, source: letters.length > 0 ? "boxed" : "option-text" });
  }
  // "answer is C", "answer: (C)", "final answer is **C**", "correct option is C", "answer to this question is: E", "answer (C)".
  // A bare "answer E" is not one: "The answer E is not applicable" and "the answer I gave" name no choice.
  const keyword = String.raw`(?:answer(?:\s+to\s+(?:this|the)\s+question)?|(?:correct|best|right) (?:option|choice)|(?:corresponds|corresponding) to (?:option|choice))`;
  const connector = String.raw`(?:(?:\s+(?:is|was|would be|should be))?\s*(?:\*\*)?\s*[:：,]\s*|\s+(?:is|was|would be|should be)\s*|\s*(?=\(|\*\*|\\boxed))`;
  const phrase = new RegExp(
    String.raw`${keyword}${connector}(?:\*\*)?\s*(?:option\s+|choice\s+)?${wrappers}(${range}(?:${wrappers}(?:,|or|and|/|&)${wrappers}${range})*)(?![A-Za-z0-9])`,
    "gi",
  );
  for (const match of text.matchAll(phrase)) {
    // The letter group must be capitals: "the answer is a trick" names no option.
    const letters = lettersIn(match[1]!, range);
    if (letters.length > 0 && !/[a-z]/.test(match[1]!.replace(/\\text(?:bf)?|\\mathrm|\bor\b|\band\b/g, ""))) {
      statements.push({ index: match.index, letters, source: "answer-phrase" });
    }
  }
  const last = statements.sort((first, second) => first.index - second.index).at(-1);
  if (last) return fromLetters(last.letters, last.source);

  const bare = text.trim().replace(/[*_$.\s]+$/g, "").replace(/^[*_$\s]+/g, "");
  const bareMatch = new RegExp(String.raw`^[(\[]?(${range})[)\]]?$`).exec(bare);
  if (bareMatch) return { kind: "letter", letter: bareMatch[1]!, source: "bare-letter" };

  const rawLastLine = text.trim().split("\n").at(-1) ?? "";
  // A reply that ends by listing the options back ("A. …", "B. …", "C. …") chose none of them.
  const labelledLine = new RegExp(String.raw`^[*_\s]*[(\[]?(${range})[.)\]]\s`);
  const closingLines = text.trim().split("\n").filter((line) => line.trim() !== "").reverse();
  const listed = closingLines.findIndex((line) => !labelledLine.test(line));
  if ((listed === -1 ? closingLines.length : listed) >= 3) return { kind: "none" };
  // "C. <option C's text> - because …": the last line opens with a letter and that option's text.
  const labelled = new RegExp(String.raw`^[*_\s]*[(\[]?(${range})[.):\]]\s+(.+)$`).exec(rawLastLine);
  if (labelled) {
    const option = normalizeOption(options[labelled[1]!.charCodeAt(0) - 65] ?? "");
    if (option !== "" && normalizeOption(labelled[2]!).startsWith(option)) return { kind: "letter", letter: labelled[1]!, source: "option-text" };
    // A letter labelling another option's text ("A. 1" where 1 is B's text) is no clear choice.
    return { kind: "none" };
  }
  // One parenthesised letter in the closing line: "… enter a judgment in the amount of (C) nothing, because …".
  const marked = [...new Set([...rawLastLine.matchAll(new RegExp(String.raw`\((${range})\)`, "g"))].map((match) => match[1]!))];
  if (marked.length === 1) return { kind: "letter", letter: marked[0]!, source: "bare-letter" };
  const lastLine = normalizeOption(rawLastLine);
  const named = options.map((option, index) => [normalizeOption(option), letterOf(index)] as const).filter(([option]) => option !== "" && lastLine.endsWith(option));
  // The longest text that ends the line, so "10" is not taken for "110"; two equally long ones are a tie.
  const longest = Math.max(0, ...named.map(([option]) => option.length));
  const chosen = named.filter(([option]) => option.length === longest && (lastLine === option || /[\s:]$/.test(lastLine.slice(0, -option.length))));
  if (chosen.length === 1) return { kind: "letter", letter: chosen[0]![1], source: "option-text" };
  if (chosen.length > 1) return { kind: "tie", letters: chosen.map(([, letter]) => letter) };
  return { kind: "none" };
}

/** The distinct option letters in `text`, in order (standalone capitals only). */
function lettersIn(text: string, range: string): string[] {
  const cleaned = text.replace(/\\text(?:bf)?\{([^{}]*)\}|\\mathrm\{([^{}]*)\}/g, "$1$2");
  return [...new Set([...cleaned.matchAll(new RegExp(`(?<![A-Za-z])(${range})(?![A-Za-z])`, "g"))].map((match) => match[1]!))];
}

/** The letters of the options whose text is `value` (normalised), for a box holding a value instead of a letter. */
function optionsEqualTo(value: string, options: readonly string[]): string[] {
  const wanted = normalizeOption(value.replace(/\\text(?:bf)?\{([^{}]*)\}/g, "$1"));
  return options.flatMap((option, index) => (wanted !== "" && normalizeOption(option) === wanted ? [letterOf(index)] : []));
}

function fromLetters(letters: string[], source: "boxed" | "answer-phrase" | "option-text"): ExtractedChoice {
  if (letters.length === 0) return { kind: "none" };
  if (letters.length > 1) return { kind: "tie", letters };
  return { kind: "letter", letter: letters[0]!, source };
}

/** Lower case, no markdown, no trailing full stop, single spaces: how an option's text is compared with a line. */
function normalizeOption(text: string): string {
  return text
    .replace(/[*_$`]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/\.$/, "")
    .toLowerCase();
}
