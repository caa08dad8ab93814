/** Pulls the final answer out of a model response or a ground-truth solution (boxed, answer phrases, last math, whole). */
import { findMathSpans } from "./find-math-spans.js";

/** Where an answer came from, for the verdict's reason. */
export type AnswerSource = "boxed" | "answer-phrase" | "last-math" | "whole";

export interface ExtractedAnswer {
  text: string;
  source: AnswerSource;
}

// A response shorter than this with nothing boxed is graded as a whole (e.g. "12" or "x = 3").
const shortResponseLength = 60;

// Doubled backslashes (JSON escaped twice) before a LaTeX command; `\\` alone is a LaTeX line break and stays.
const doubledCommand = /\\\\(?=(?:boxed|fbox|frac|dfrac|tfrac|cfrac|sqrt|pi|text|mathrm|mbox|left|right|cdot|times|circ|infty|leq?|geq?|neq|pm|cup|cap|begin|end|theta|alpha|beta|degree|approx)(?![a-zA-Z]))/g;

/**
 * Whether the text between two answers joins them into one: "," / ";" / "and" / "or", with only spacing, math
 * delimiters, `\quad`, `\text{ and }` (also `\text{ for part (a) and }`) and a label such as `y_2 =` around it.
 */
function isConjunction(between: string, joinsAdjacent = false): boolean {
  // A ground truth's boxes with no word or number between them are one answer (`\boxed{1}\boxed{2}`).
  if (joinsAdjacent && /^[^a-zA-Z0-9]*$/.test(between)) return true;
  const words = between.replace(/\\text\s*\{([^{}]*)\}/g, (_match, inner: string) =>
    /^[\sa-zA-Z()]*$/.test(inner) && /\b(?:and|or)\b/.test(inner) ? " and " : inner.trim() === "" ? " " : "\u0000",
  );
  // One word may trail the first answer as its unit: `\boxed{1} papers and \boxed{2}`.
  const filler = /^(?:\s*[a-zA-Z]+\s+(?=and\b|or\b))?(?:\s|[$,;]|\\[()[\]]|\\q?quad|\\[,;: ]|\band\b|\bor\b|[a-zA-Z](?:_\{?\w+\}?)?\s*=)*$/;
  return filler.test(words) && /[,;]|\band\b|\bor\b/.test(words);
}

/**
 * The content of the last `\boxed{...}` / `\fbox{...}` (braces matched), or undefined. Boxes right before it that
 * are joined by a conjunction only (see `isConjunction`) are part of the same answer and come back as a comma list;
 * with `joinsAdjacent` (ground truths), so are boxes with no word or number between them (`\boxed{1}\boxed{2}`).
 */
export function lastBoxed(text: string, joinsAdjacent = false): string | undefined {
  const boxes = allBoxes(text);
  const last = boxes[boxes.length - 1];
  if (!last) return undefined;
  const parts = [last.content];
  for (let index = boxes.length - 2; index >= 0; index -= 1) {
    if (!isConjunction(text.slice(boxes[index]!.end, boxes[index + 1]!.start), joinsAdjacent)) break;
    parts.unshift(boxes[index]!.content);
  }
  return parts.join(", ");
}

/** Every `\boxed{...}` / `\fbox{...}` with its position (start of the command, end after the closing brace). */
function allBoxes(text: string): { content: string; start: number; end: number }[] {
  const boxes: { content: string; start: number; end: number }[] = [];
  // Both found for all boxes in one pass: found from each box in turn, many unclosed boxes took quadratic time.
  let closes: Map<number, number> | undefined;
  let bareEnds: Int32Array | undefined;
  for (const marker of text.matchAll(/\\(?:boxed|fbox)(?![a-zA-Z])\s*/g)) {
    const start = marker.index + marker[0].length;
    if (text[start] === "{") {
      closes ??= matchAllBraces(text, start);
      const end = closes.get(start) ?? -1;
      if (end !== -1) boxes.push({ content: text.slice(start + 1, end), start: marker.index, end: end + 1 });
    } else {
      // `\boxed 5` (no braces): up to the next `$`, brace or whitespace.
      bareEnds ??= bareContentEnds(text);
      const end = bareEnds[start] ?? start;
      if (end > start) boxes.push({ content: text.slice(start, end), start: marker.index, end });
    }
  }
  // Nested boxes (`\boxed{\boxed{5}}`) are found twice; keep the outer one. The boxes come in order of their start, so
  // a box lies inside an earlier one exactly when some earlier box ends at or after its end.
  let furthestEnd = -1;
  return boxes.filter((box) => {
    const isNested = furthestEnd >= box.end;
    furthestEnd = Math.max(furthestEnd, box.end);
    return !isNested;
  });
}

/** For each index of `text`, where a run of characters other than whitespace, `$` and braces starting there ends. */
function bareContentEnds(text: string): Int32Array {
  const ends = new Int32Array(text.length + 1);
  ends[text.length] = text.length;
  for (let index = text.length - 1; index >= 0; index -= 1) {
    ends[index] = /[\s${}]/.test(text[index]!) ? index : ends[index + 1]!;
  }
  return ends;
}

/**
 * The closing index of every `{` of `text` from `start` on that is closed, by the index of the `{`, as `matchingBrace`
 * finds it: a backslash escapes the character after it, so `\{` and `\}` are no braces. (`start` is an unescaped
 * brace; what comes before it matches no brace after it.)
 */
function matchAllBraces(text: string, start: number): Map<number, number> {
  const closes = new Map<number, number>();
  const open: number[] = [];
  for (let index = start; index < text.length; index += 1) {
    const character = text[index];
    if (character === "\\") index += 1;
    else if (character === "{") open.push(index);
    else if (character === "}") {
      const opening = open.pop();
      if (opening !== undefined) closes.set(opening, index);
    }
  }
  return closes;
}

/** Index of the `}` closing the `{` at `openIndex`, or -1. */
export function matchingBrace(text: string, openIndex: number): number {
  let depth = 0;
  for (let index = openIndex; index < text.length; index += 1) {
    const character = text[index];
    if (character === "\\") {
      index += 1; // skip escaped braces like \{
      continue;
    }
    if (character === "{") depth += 1;
    else if (character === "}") {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return -1;
}

/** The text after the last `</think>` when present; the whole response otherwise (non-thinking models). */
function stripThinking(response: string): string {
  const close = response.lastIndexOf("</think>");
  if (close === -1) return response;
  const after = response.slice(close + "</think>".length);
  return after.trim() === "" ? response.slice(0, close) : after;
}

/** Undoes a second level of JSON escaping before LaTeX commands (`\\frac` → `\frac`). */
function undoubleBackslashes(text: string): string {
  return text.replace(doubledCommand, "\\");
}

/**
 * The final answer of `response`: last box (also `<|begin_of_box|>`), then "final answer is ..." / "Answer: ...",
 * then the last `$...$` / `\(...\)` / `\[...\]`, then a short response as a whole. A ground truth (`isGroundTruth`)
 * falls back to its whole text at any length.
 */
export function extractAnswer(
  response: string,
  options: { isGroundTruth?: boolean; allowUnboxedFallback?: boolean } = {},
): ExtractedAnswer | undefined {
  const text = undoubleBackslashes(stripThinking(response));
  const inner = lastGlmBox(text);
  if (inner !== undefined) return { text: lastBoxed(inner) ?? inner.trim(), source: "boxed" };
  const boxed = lastBoxed(text, options.isGroundTruth === true);
  if (boxed !== undefined) {
    // "The final answer is X" after the last box overrides boxes in the working (`= \boxed{200}` … final answer is 10,455).
    const final = finalAnswerPhrase(text);
    const isAfterBoxes = final !== undefined && final.index > text.lastIndexOf("\\boxed") && !/\\boxed/.test(final.value);
    return isAfterBoxes ? { text: final.value, source: "answer-phrase" } : { text: boxed.trim(), source: "boxed" };
  }
  if (options.allowUnboxedFallback === false && !options.isGroundTruth) return undefined;
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  // Prose: two words in a row. A ground truth that is not prose is the answer itself, whatever it holds.
  // (Two letters each side are enough to find two words, and `{2,}` retried every run of letters from each of its letters.)
  const isProse = /[a-zA-Z]{2}[\s,.]+[a-zA-Z]{2}/.test(trimmed);
  if (options.isGroundTruth && (!isProse || trimmed.length <= shortResponseLength)) return { text: trimmed, source: "whole" };
  const phrase = answerPhrase(text);
  if (phrase !== undefined) return { text: phrase, source: "answer-phrase" };
  const math = lastMath(text);
  if (math !== undefined) return { text: math, source: "last-math" };
  // A short response, a long one that is math rather than prose, or a ground truth is the answer itself.
  if (trimmed.length <= shortResponseLength || !isProse || options.isGroundTruth) return { text: trimmed, source: "whole" };
  return undefined;
}

/**
 * The content of the last `<|begin_of_box|>…<|end_of_box|>`, each begin closed by the first end after it. Found with
 * `indexOf`, not a lazy regular expression, which searched to the end of the text from every begin left unclosed.
 */
function lastGlmBox(text: string): string | undefined {
  const [open, close] = ["<|begin_of_box|>", "<|end_of_box|>"];
  let inner: string | undefined;
  for (let start = text.indexOf(open); start !== -1; ) {
    const end = text.indexOf(close, start + open.length);
    if (end === -1) break;
    inner = text.slice(start + open.length, end);
    start = text.indexOf(open, end + close.length);
  }
  return inner;
}

/** "The final answer is X" (`$…$` inside it stripped), or undefined; only an explicit final answer, not "Answer:". */
function finalAnswerPhrase(text: string): { value: string; index: number } | undefined {
  const matches = [...text.matchAll(/final answer is[:\s]*(?:\$([^$\n]+)\$|([^$\n]+?))(?=\.?\s*I hope it is correct|\.?\s*$)/gim)];
  const last = matches[matches.length - 1];
  const value = unwrapPhrase(last?.[1] ?? last?.[2] ?? "");
  return last && value ? { value, index: last.index } : undefined;
}

/** "The final answer is X", "Answer: X" (last occurrence), with trailing courtesy text removed. */
function answerPhrase(text: string): string | undefined {
  const patterns = [
    /final answer is[:\s]*([\s\S]+?)(?:\.\s*I hope it is correct|\n\n|$)/gi,
    /final answer\b[^\n.]{0,100}?\bis[:\s]+([^\n]+?)(?=\.\s|\.?\s*I hope|\.?\s*$)/gim,
    /(?:^|\n)\s*\**(?:final\s+)?answer\**\s*[:：]\**\s*([^\n]+)/gi,
    /the answer is[:\s]*([^\n]+)/gi,
  ];
  for (const pattern of patterns) {
    const matches = [...text.matchAll(pattern)];
    if (matches.length === 0) continue;
    const value = unwrapPhrase(matches[matches.length - 1]![1]!);
    if (value !== "") return value;
  }
  return undefined;
}

// Marks around an answer phrase's value that are prose, never math: quotes and markdown emphasis. Models write
// `"The answer is 6."` and `**The answer is 6.**`; read as part of the value (`6."`, `6.**`) they zeroed a right answer.
const closingMarks = /(?:\*+|_+|`+|["\u201d]|(?<=[.\u3002])['\u2019])\s*$/;
const openingMarks = /^\s*(?:\*+|_+|`+|["\u201c'\u2018])/;
const closingPeriod = /[.\u3002]\s*$/;

/** An answer phrase's value without the sentence's period and the quotes or emphasis around it. */
function unwrapPhrase(raw: string): string {
  let value = raw.trim();
  for (let pass = 0; pass < 4; pass += 1) {
    const unwrapped = value.replace(closingMarks, "").replace(closingPeriod, "").replace(openingMarks, "").trim();
    if (unwrapped === value) break;
    value = unwrapped;
  }
  return value;
}

/**
 * The content of the last `$$...$$`, `$...$`, `\[...\]` or `\(...\)` (inline math may not span lines; `\$` is a
 * dollar sign, not a delimiter). Spans right before it joined by a conjunction only come back with it as a comma list.
 */
function lastMath(text: string): string | undefined {
  const spans = findMathSpans(text);
  const last = spans[spans.length - 1];
  if (!last) return undefined;
  const parts = [last.content];
  for (let index = spans.length - 2; index >= 0; index -= 1) {
    if (!isConjunction(text.slice(spans[index]!.end, spans[index + 1]!.start))) break;
    parts.unshift(spans[index]!.content);
  }
  return parts.join(", ");
}
