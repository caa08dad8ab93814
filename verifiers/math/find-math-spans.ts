/**
 * The math spans of a text, `$$…$$`, `\[…\]`, `\(…\)` and `$…$`, found left to right as the global regular expression
 *   /(?<!\\)\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\]|\\\(([^\n]+?)\\\)|(?<!\\)\$((?:[^\n$\\]|\\[^\n])+?)\$/g
 * finds them (inline math does not span lines; `\$` is a dollar sign, not a delimiter), in linear time: that expression
 * searched again to the end of the text (or line) from each opening delimiter that has no closing one, so a response
 * of 100,000 `\(` took seconds.
 */

/** One span: its content (trimmed) and where it starts and ends in the text. */
export interface MathSpan {
  content: string;
  start: number;
  end: number;
}

export function findMathSpans(text: string): MathSpan[] {
  const spans: MathSpan[] = [];
  const next = nextOccurrence(text);
  let index = 0;
  while (index < text.length) {
    const end = spanEnd(text, index, next);
    if (end === undefined) {
      index += 1;
      continue;
    }
    const [contentStart, contentEnd] = text.startsWith("$$", index) ? [index + 2, end - 2] : text[index] === "$" ? [index + 1, end - 1] : [index + 2, end - 2];
    spans.push({ content: text.slice(contentStart, contentEnd).trim(), start: index, end });
    index = end;
  }
  return spans;
}

/** Where the span opening at `index` ends (after its closing delimiter), or undefined when none opens or closes there. */
function spanEnd(text: string, index: number, next: (marker: string, from: number) => number): number | undefined {
  const character = text[index];
  const isEscaped = text[index - 1] === "\\";
  if (character === "$" && !isEscaped) {
    if (text[index + 1] === "$") {
      // `$$` then at least one character, up to the first `$$` after it.
      const close = next("$$", index + 3);
      if (close !== -1) return close + 2;
      return undefined; // `$` then `$` opens no inline span either: its content would be empty.
    }
    return inlineDollarEnd(text, index);
  }
  if (character !== "\\") return undefined;
  if (text[index + 1] === "[") {
    const close = next("\\]", index + 3);
    return close === -1 ? undefined : close + 2;
  }
  if (text[index + 1] === "(") {
    const close = next("\\)", index + 3);
    const lineEnd = next("\n", index + 2);
    return close === -1 || (lineEnd !== -1 && lineEnd < close) ? undefined : close + 2;
  }
  return undefined;
}

/**
 * `$…$` opening at `index`: characters other than a newline, `$` or a backslash, or a backslash and any character but
 * a newline, at least one, up to the first `$` after them. A walk that fails passes no `$` that could open a span
 * (every `$` it passes follows a backslash), so the walks cost linear time in all.
 */
function inlineDollarEnd(text: string, index: number): number | undefined {
  let position = index + 1;
  while (position < text.length) {
    const character = text[position]!;
    if (character === "$") return position > index + 1 ? position + 1 : undefined;
    if (character === "\n") return undefined;
    if (character === "\\") {
      if (position + 1 >= text.length || text[position + 1] === "\n") return undefined;
      position += 2;
    } else {
      position += 1;
    }
  }
  return undefined;
}

/**
 * `indexOf` for the markers above, remembering the last answer per marker: the searches start ever further on, so a
 * marker found (or missing) once is not searched for again over the same text.
 */
function nextOccurrence(text: string): (marker: string, from: number) => number {
  const found = new Map<string, number>();
  return (marker, from) => {
    const known = found.get(marker);
    if (known !== undefined && (known === -1 || known >= from)) return known;
    const position = text.indexOf(marker, from);
    found.set(marker, position);
    return position;
  };
}
