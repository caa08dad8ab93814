/** Turns a normalised answer string into a structured value: expression, list/set/tuple/interval, equation, relation, matrix, choice or text. */
import { evaluateMatrix } from "./evaluate-expression.js";
import { latexToMathjs, UnsupportedMathError } from "./latex-to-mathjs.js";

export type RelationOperator = "<" | "<=" | "!=";

/** A structured answer; expressions carry mathjs syntax, lists carry their brackets ("" bare, "{" a set). */
export type MathValue =
  | { kind: "expression"; text: string; expression: string; decimalPlaces?: number }
  | { kind: "list"; open: "" | "(" | "[" | "{"; close: "" | ")" | "]" | "}"; items: MathValue[] }
  | { kind: "union"; items: MathValue[] }
  | { kind: "equation"; leftText: string; left: MathValue; right: MathValue; labelText: string }
  | { kind: "relation"; sides: string[]; operators: RelationOperator[]; flipped: boolean[] }
  | { kind: "matrix"; rows: MathValue[][] }
  | { kind: "choice"; letter: string }
  | { kind: "text"; text: string };

const relationPattern = /\\leq|\\geq|\\lt(?![a-zA-Z])|\\gt(?![a-zA-Z])|\\neq|<=|>=|!=|<|>/;
// The same, captured, so that splitting at it keeps the operators.
const relationSplitter = new RegExp(`(${relationPattern.source})`);
const knownWords = /^(?:sqrt|pi|exp|sin|cos|tan|sec|csc|cot|log|ln|abs|inf|infinity|infty|asin|acos|atan|arcsin|arccos|arctan|sinh|cosh|tanh|floor|ceil)$/i;

/** Parses a normalised answer; never throws (unparseable input becomes a text value). */
export function parseAnswer(text: string, depth = 0): MathValue {
  const trimmed = text.trim();
  if (depth > 8) return { kind: "text", text: trimmed };
  const choice = /^\(?([A-E])\)?$/.exec(trimmed);
  if (choice) return { kind: "choice", letter: choice[1]! };
  const matrixResult = evaluateMatrixArithmetic(trimmed);
  if (matrixResult) return matrixResult;
  const matrix = parseMatrix(trimmed.replace(/^[([]\s*(\\begin\{[\s\S]*\\end\{[a-zA-Z]+\})\s*[)\]]$/, "$1"), depth);
  if (matrix) return matrix;
  const plusMinus = trimmed.match(/\\(?:pm|mp)(?![a-zA-Z])/g);
  if (plusMinus?.length === 1 && splitTopLevel(trimmed, ",").length === 1) {
    // `a \pm b` is the set {a + b, a - b}; the sign applies where it is written, even inside a fraction.
    const items = ["+", "-"].map((sign) => trimmed.replace(/\\(?:pm|mp)(?![a-zA-Z])/, ` ${sign} `));
    return { kind: "list", open: "{", close: "}", items: items.map((item) => parseAnswer(item, depth + 1)) };
  }
  const labelledTuples = parseLabelledTuples(trimmed, depth);
  if (labelledTuples) return labelledTuples;
  const commaParts = splitTopLevel(trimmed, ",;");
  if (commaParts.length > 1 && commaParts.every((part) => splitTopLevel(part, "=").length === 2)) {
    return { kind: "list", open: "", close: "", items: commaParts.map((part) => parseAnswer(part, depth + 1)) };
  }
  const approximations = splitTopLevel(trimmed, "", /\\approx(?![a-zA-Z])|≈/);
  if (approximations.length > 1) {
    // `5\sqrt{3} \approx 8.66`: the exact form before the first ≈ is the answer (`y \approx 8.66`: the value).
    const values = approximations.filter((part) => !/^[a-zA-Z](?:_\{?\w+\}?)?$/.test(part));
    return parseAnswer(values[0] ?? approximations[0]!, depth + 1);
  }
  const membership = /^[a-zA-Z]\s*\\in(?![a-zA-Z])\s*(.+)$/.exec(trimmed);
  if (membership) return parseAnswer(membership[1]!, depth + 1);
  const relation = parseRelation(trimmed);
  if (relation) return relation;
  const equationParts = splitTopLevel(trimmed, "=");
  if (equationParts.length > 1 && equationParts.every((part) => part.trim() !== "")) {
    const leftText = equationParts[0]!.trim();
    return {
      kind: "equation",
      leftText,
      left: parseAnswer(leftText, depth + 1),
      right: parseAnswer(equationParts[equationParts.length - 1]!, depth + 1),
      // The side right before the value: `1 = \zzz = x = 0` labels 0 with `x`.
      labelText: equationParts[equationParts.length - 2]!.trim(),
    };
  }
  const unionParts = splitTopLevel(trimmed, "", /\\cup(?![a-zA-Z])|∪/);
  if (unionParts.length > 1) {
    const items = unionParts.map((part) => parseAnswer(part, depth + 1));
    // A union of finite sets is one set: `\{1,3\} \cup \{2,4\}` = `\{1,2,3,4\}`.
    if (items.every((item) => item.kind === "list" && item.open === "{")) {
      return { kind: "list", open: "{", close: "}", items: items.flatMap((item) => (item.kind === "list" ? item.items : [])) };
    }
    return { kind: "union", items };
  }
  const bracketed = parseBracketed(trimmed, depth);
  if (bracketed) return bracketed;
  if (commaParts.length > 1) {
    return { kind: "list", open: "", close: "", items: commaParts.map((part) => parseAnswer(part, depth + 1)) };
  }
  return parseExpression(trimmed);
}

/**
 * `p=5,q=2; p=7,q=2` (or with commas only): solutions that each name the same variables in the same order are the
 * tuples `(5,2), (7,2)`.
 */
function parseLabelledTuples(text: string, depth: number): MathValue | undefined {
  let groups = splitTopLevel(text, ";");
  if (groups.length < 2) {
    const parts = splitTopLevel(text, ",");
    const names = parts.map((part) => splitTopLevel(part, "=")[0]);
    const period = names.indexOf(names[0], 1);
    if (period < 2 || parts.length % period !== 0) return undefined;
    groups = Array.from({ length: parts.length / period }, (_, index) => parts.slice(index * period, (index + 1) * period).join(","));
  }
  const assignments = groups.map((group) => splitTopLevel(group, ",").map((part) => splitTopLevel(part, "=")));
  const names = (group: string[][]) => group.map((pair) => pair[0]).join(",");
  const isAssignmentGroup = (group: string[][]) =>
    group.length > 1 && group.every((pair) => pair.length === 2 && /^[a-zA-Z](?:_\{?\w+\}?)?$/.test(pair[0]!) && pair[1] !== "");
  if (!assignments.every(isAssignmentGroup) || new Set(assignments.map(names)).size !== 1) return undefined;
  const items = assignments.map((group): MathValue => ({
    kind: "list",
    open: "(",
    close: ")",
    items: group.map((pair) => parseAnswer(pair[1]!, depth + 1)),
  }));
  return { kind: "list", open: "", close: "", items };
}

/** A single expression, or text when it is words or unsupported LaTeX. */
function parseExpression(text: string): MathValue {
  const words = text.match(/[a-zA-Z]{3,}/g) ?? [];
  // `No` is a word, not the product N·o (`yes` has three letters, so it is one already).
  const isWords = words.some((word) => !knownWords.test(word)) || /^no$/i.test(text);
  if (/^[a-zA-Z][a-zA-Z\s'-]*$/.test(text) && isWords) return { kind: "text", text };
  const mixed = /^([-+]?)(\d+)\s+(\d+)\/(\d+)$/.exec(text);
  const source =
    mixed && Number(mixed[3]) < Number(mixed[4]) ? `${mixed[1]}(${mixed[2]}+\\frac{${mixed[3]}}{${mixed[4]}})` : mixedNumbers(text);
  try {
    const expression = latexToMathjs(source);
    if (expression.trim() === "") return { kind: "text", text };
    const decimal = /^[-+]?\d*\.(\d+)$/.exec(text);
    return decimal
      ? { kind: "expression", text, expression, decimalPlaces: decimal[1]!.length }
      : { kind: "expression", text, expression };
  } catch (error) {
    if (error instanceof UnsupportedMathError) return { kind: "text", text };
    throw error;
  }
}

/**
 * Mixed numbers as sums: `2\frac{1}{2}`, `1\frac12`, `-3 \frac{1}{2}` (= -(3 + 1/2)), `1 \frac{1}{2} + 3`; only a proper
 * fraction of integers after an integer that is not itself an exponent or a subscript.
 */
function mixedNumbers(text: string): string {
  return text.replace(
    /(?<![\d.^_{])(\d+)\s*\\frac\s*(?:\{(\d+)\}|(\d))\s*(?:\{(\d+)\}|(\d))(?=\s*(?:$|[-+),=]))/g,
    (match, whole: string, ...parts: (string | undefined)[]) => {
      const [numerator, denominator] = parts.slice(0, 4).filter((part) => part !== undefined);
      return Number(numerator) < Number(denominator) ? `(${whole}+\\frac{${numerator}}{${denominator}})` : match;
    },
  );
}

// Sticky copies of splitTopLevel's multi-character separators, compiled once each (the callers pass literals, new
// objects on every call); each use sets lastIndex before it matches.
const stickyPatterns = new Map<string, RegExp>();

function stickyVersion(pattern: RegExp): RegExp {
  let sticky = stickyPatterns.get(pattern.source);
  if (!sticky) {
    sticky = new RegExp(pattern.source, "y");
    stickyPatterns.set(pattern.source, sticky);
  }
  return sticky;
}

/**
 * Splits `text` at top-level separators (outside (), [], {}, \{ \}); `separators` are single characters,
 * `pattern` an optional multi-character separator such as `\cup`.
 */
function splitTopLevel(text: string, separators: string, pattern?: RegExp): string[] {
  // Where no separator occurs at all (most answers), there is nothing to split: the scan below would find none.
  const sticky = pattern?.test(text) ? stickyVersion(pattern) : undefined;
  if (!sticky && ![...separators].some((separator) => text.includes(separator))) return [text.trim()];
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    if (depth === 0 && sticky) {
      sticky.lastIndex = index;
      const match = sticky.exec(text);
      if (match) {
        parts.push(text.slice(start, index));
        start = index + match[0].length;
        index = start - 1;
        continue;
      }
    }
    const character = text[index]!;
    if (character === "\\") {
      // `\{` and `\}` count as brackets through their brace; other escapes are skipped whole.
      index += 1;
      if ("([{".includes(text[index] ?? " ")) depth += 1;
      else if (")]}".includes(text[index] ?? " ")) depth -= 1;
      continue;
    }
    if ("([{".includes(character)) depth += 1;
    else if (")]}".includes(character)) depth -= 1;
    else if (depth === 0 && separators.includes(character)) {
      parts.push(text.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((part) => part.trim());
}

/** `(a, b)`, `[a, b)`, `\{a, b\}`: brackets spanning the whole answer with a top-level comma inside. */
function parseBracketed(text: string, depth: number): MathValue | undefined {
  // `\{1, 2\}`, or `{1, 2}` whose braces LaTeX would drop but which is written as a set.
  const set = /^\\\{([\s\S]*)\\\}$/.exec(text) ?? (/^\{[\s\S]*\}$/.test(text) && isBalanced(text.slice(1, -1)) ? [text, text.slice(1, -1)] : null);
  if (set) {
    const inner = set[1]!.trim();
    const items = inner === "" ? [] : splitTopLevel(inner, ",;");
    if (!set[0].startsWith("\\") && items.length < 2) return undefined;
    return { kind: "list", open: "{", close: "}", items: items.map((item) => parseAnswer(item, depth + 1)) };
  }
  const open = text[0];
  const close = text[text.length - 1];
  if ((open !== "(" && open !== "[") || (close !== ")" && close !== "]")) return undefined;
  const inner = text.slice(1, -1);
  // The opening bracket must close at the very end: `(1)(2)` is a product, not a tuple.
  if (!isBalanced(inner)) return undefined;
  // `(0;-2;6)`: a semicolon separates the coordinates when no comma does.
  const commaItems = splitTopLevel(inner, ",");
  const items = commaItems.length > 1 ? commaItems : splitTopLevel(inner, ";");
  if (items.length < 2) return undefined;
  return { kind: "list", open, close, items: items.map((item) => parseAnswer(item, depth + 1)) };
}

function isBalanced(text: string): boolean {
  let depth = 0;
  for (const character of text) {
    if ("([{".includes(character)) depth += 1;
    else if (")]}".includes(character)) depth -= 1;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/** `a < b`, `-2 \leq x \leq 7`, `x \neq 3`: sides as mathjs expressions, operators normalised to <, <=, !=. */
function parseRelation(text: string): MathValue | undefined {
  if (!relationPattern.test(text)) return undefined;
  const tokens = text.split(relationSplitter);
  const sides: string[] = [];
  const operators: RelationOperator[] = [];
  const flipped: boolean[] = [];
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index]!;
    if (index % 2 === 1) {
      const isGreater = /geq|gt|>/.test(token);
      operators.push(/neq|!=/.test(token) ? "!=" : /leq|geq|<=|>=/.test(token) ? "<=" : "<");
      flipped.push(isGreater);
      continue;
    }
    // `0 < f(x) < 1`: a function value is bounded like a variable (the range of f), not read as f·x.
    const application = /^([a-zA-Z])\(([a-zA-Z])\)$/.exec(token.trim());
    try {
      sides.push(application ? `(${application[1]}_of_${application[2]})` : latexToMathjs(token.trim()));
    } catch (error) {
      if (error instanceof UnsupportedMathError) return undefined;
      throw error;
    }
  }
  if (sides.some((side) => side.trim() === "")) return undefined;
  return { kind: "relation", sides, operators, flipped };
}

/** Arithmetic on two or more numeric `pmatrix`/`bmatrix` literals (`A + B`, `A B` a product): the result, or undefined. */
function evaluateMatrixArithmetic(text: string): MathValue | undefined {
  const environment = /\\begin\{([pb]?matrix)\}([\s\S]*?)\\end\{\1\}/g;
  if ((text.match(environment) ?? []).length < 2) return undefined;
  try {
    let expression = "";
    let last = 0;
    for (const match of text.matchAll(environment)) {
      const between = text.slice(last, match.index).trim();
      // Matrices side by side multiply; mathjs would read `[…] […]` as indexing.
      expression += between === "" && last > 0 ? "*" : latexToMathjs(between);
      const rows = matrixRows(match[2]!).map((row) => `[${row.map((cell) => latexToMathjs(cell)).join(",")}]`);
      expression += `[${rows.join(",")}]`;
      last = match.index + match[0].length;
    }
    expression += latexToMathjs(text.slice(last));
    const value = evaluateMatrix(expression);
    if (!value) return undefined;
    const cell = (number: number): MathValue => ({ kind: "expression", text: String(number), expression: String(number) });
    return { kind: "matrix", rows: value.map((row) => row.map(cell)) };
  } catch (error) {
    if (error instanceof UnsupportedMathError) return undefined;
    throw error;
  }
}

/** A matrix body's cells: rows split at `\\`, cells at `&`, empty rows and `\hline` dropped. */
function matrixRows(body: string): string[][] {
  return body
    .split(/\\\\/)
    .map((row) => row.trim())
    .filter((row) => row !== "" && row !== "\\hline")
    .map((row) => row.split("&").map((cell) => cell.trim()));
}

/** `\begin{pmatrix} a & b \\ c & d \end{pmatrix}` (also bmatrix, matrix, array) → rows of values. */
function parseMatrix(text: string, depth: number): MathValue | undefined {
  const match = /^\\begin\{([pbvBV]?matrix|array)\}(?:\{[^}]*\})?([\s\S]*)\\end\{\1\}$/.exec(text);
  if (!match) return undefined;
  return { kind: "matrix", rows: matrixRows(match[2]!).map((row) => row.map((cell) => parseAnswer(cell, depth + 1))) };
}
