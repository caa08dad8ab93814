/** Converts a normalised LaTeX or plain-text math answer into mathjs expression syntax (throws when unsupported). */
import { matchingBrace } from "./extract-answer.js";

/** Thrown for LaTeX this converter does not model; the grader then falls back to text comparison. */
export class UnsupportedMathError extends Error {
  constructor(readonly construct: string) {
    super(`unsupported math: ${construct}`);
    this.name = "UnsupportedMathError";
  }
}

// LaTeX functions written `\sin x`, `\ln(2)`; the value is the mathjs name.
const latexFunctions: Record<string, string> = {
  sin: "sin", cos: "cos", tan: "tan", sec: "sec", csc: "csc", cot: "cot", arcsin: "asin", arccos: "acos",
  arctan: "atan", sinh: "sinh", cosh: "cosh", tanh: "tanh", ln: "log", log: "log", exp: "exp", lg: "log10",
};
const inverseFunctions: Record<string, string> = { sin: "asin", cos: "acos", tan: "atan", sinh: "asinh", cosh: "acosh", tanh: "atanh" };
// Names recognised in plain text (`sqrt(3)`, `pi/2`, `exp(16)`); other letter runs are products of one-letter variables.
const plainNames: Record<string, string> = {
  ...latexFunctions, sqrt: "sqrt", asin: "asin", acos: "acos", atan: "atan", abs: "abs", pi: "pi",
  infinity: "Infinity", inf: "Infinity", infty: "Infinity", floor: "floor", ceil: "ceil",
};
const greekLetters = new Set([
  "alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta", "vartheta", "iota", "kappa",
  "lambda", "mu", "nu", "xi", "rho", "sigma", "tau", "upsilon", "phi", "varphi", "chi", "psi", "omega",
  "Gamma", "Delta", "Theta", "Lambda", "Sigma", "Phi", "Psi", "Omega",
]);
const passThrough = new Set(["+", "-", "*", "/", "(", ")", "!", ",", "="]);

/** The mathjs expression for `latex`; variables come out as `(x)` so that `x(x+1)` stays a product. */
export function latexToMathjs(latex: string): string {
  return convert(latex, 0);
}

function convert(source: string, depth: number): string {
  if (depth > 40) throw new UnsupportedMathError("nesting too deep");
  let output = "";
  let index = 0;
  let absoluteOpen = false;
  while (index < source.length) {
    const character = source[index]!;
    if (/\s/.test(character)) {
      // `2^6 3^5`: a number after a space multiplies a power or bracket before it, as it does in print (`1 000`
      // between bare digits stays a thousands group, which mathjs rejects, so it compares as text).
      const isFactorAhead = /[0-9.]/.test(source[index + 1] ?? "") && output.trimEnd().endsWith(")");
      output += isFactorAhead ? "*" : " ";
      index += 1;
    } else if (character === "\\") {
      const [text, next] = convertCommand(source, index, depth);
      output += text;
      index = next;
    } else if (character === "{" || character === "[") {
      const close = character === "{" ? matchingBrace(source, index) : matchingBracket(source, index, "[", "]");
      if (close === -1) throw new UnsupportedMathError("unbalanced braces");
      output += `(${convert(source.slice(index + 1, close), depth + 1)})`;
      index = close + 1;
    } else if (character === "^") {
      const [argument, next] = readArgument(source, index + 1, true);
      output += `^(${convert(argument, depth + 1)})`;
      index = next;
    } else if (character === "_") {
      const [argument, next] = readArgument(source, index + 1);
      output = output.trimEnd();
      if (!output.endsWith(")") || !/^\(?[a-zA-Z]\w*\)$/.test(output.slice(output.lastIndexOf("(")))) {
        throw new UnsupportedMathError("subscript");
      }
      output = `${output.slice(0, -1)}_${subscriptName(argument)})`;
      index = next;
    } else if (/[a-zA-Z]/.test(character)) {
      const word = /^[a-zA-Z]+/.exec(source.slice(index))![0];
      output += convertWord(word);
      index += word.length;
    } else if (/[0-9.]/.test(character)) {
      // Plain-text scientific notation (`1.5e3`, `2e-4`, `1.2E-5`) is one number, not a product with Euler's e.
      const number = /^\d*\.?\d*(?:[eE][-+]?\d+(?![a-zA-Z.]))?/.exec(source.slice(index))![0];
      if (number === ".") throw new UnsupportedMathError("stray dot");
      output += number;
      index += number.length;
    } else if (character === "|") {
      output += absoluteOpen ? "))" : " abs((";
      absoluteOpen = !absoluteOpen;
      index += 1;
    } else if (passThrough.has(character)) {
      output += character;
      index += 1;
    } else {
      throw new UnsupportedMathError(character);
    }
  }
  if (absoluteOpen) throw new UnsupportedMathError("unbalanced |");
  return output;
}

/** A subscript as part of a variable name: `F_{n-k-1}` is one variable, distinct from `F_{n-k}` and `F_n`. */
function subscriptName(argument: string): string {
  const compact = argument.replace(/\s+/g, "");
  if (/^[a-zA-Z0-9]+$/.test(compact)) return compact;
  return compact.replace(/[^a-zA-Z0-9]/g, (character) => `_${character.charCodeAt(0).toString(16)}`);
}

/** A run of letters: a known name (`sqrt`, `pi`) or a product of one-letter variables (`xy` → x·y). */
function convertWord(word: string): string {
  const known = plainNames[word.toLowerCase()];
  // Constants are parenthesised so that `pi (r)` stays a product, not a call.
  if (known === "pi" || known === "Infinity") return ` (${known}) `;
  if (known !== undefined) return ` ${known} `;
  return [...word].map((letter) => ` ${symbolFor(letter)} `).join("");
}

/** `e` and `i` are the constants; other letters are variables (E is renamed: mathjs reads it as e). */
function symbolFor(letter: string): string {
  if (letter === "e" || letter === "i") return `(${letter})`;
  return letter === "E" ? "(E_)" : `(${letter})`;
}

function convertCommand(source: string, index: number, depth: number): [string, number] {
  const match = /^\\([a-zA-Z]+|.)/.exec(source.slice(index));
  if (!match) throw new UnsupportedMathError("trailing backslash");
  const name = match[1]!;
  let next = index + match[0].length;
  switch (name) {
    case "frac": {
      const [numerator, afterNumerator] = readArgument(source, next);
      const [denominator, afterDenominator] = readArgument(source, afterNumerator);
      return [`((${convert(numerator, depth + 1)})/(${convert(denominator, depth + 1)}))`, afterDenominator];
    }
    case "binom": {
      const [top, afterTop] = readArgument(source, next);
      const [bottom, afterBottom] = readArgument(source, afterTop);
      const [n, k] = [convert(top, depth + 1), convert(bottom, depth + 1)];
      // Integer literals stay exact; a symbolic binomial goes through gamma so that it can be sampled at any point.
      const call = /^\s*\d+\s*$/.test(n) && /^\s*\d+\s*$/.test(k)
        ? ` combinations(${n}, ${k})`
        : ` (gamma((${n})+1)/(gamma((${k})+1)*gamma((${n})-(${k})+1)))`;
      return [call, afterBottom];
    }
    case "sqrt": {
      let order: string | undefined;
      const rest = source.slice(next).trimStart();
      if (rest.startsWith("[")) {
        const open = source.indexOf("[", next);
        const close = matchingBracket(source, open, "[", "]");
        if (close === -1) throw new UnsupportedMathError("\\sqrt[");
        order = source.slice(open + 1, close);
        next = close + 1;
      }
      const [radicand, after] = readArgument(source, next);
      const inner = convert(radicand, depth + 1);
      return [order === undefined ? ` sqrt(${inner})` : ` nthRoot(${inner}, ${convert(order, depth + 1)})`, after];
    }
    case "sum":
      return convertSum(source, next);
    case "pi":
      return [" (pi) ", next];
    case "infty":
    case "infin":
      return [" (Infinity) ", next];
    case "cdot":
    case "times":
    case "ast":
      return ["*", next];
    case "div":
      return ["/", next];
    case "lfloor":
      return [" floor(", next];
    case "rfloor":
    case "rceil":
      return [")", next];
    case "lceil":
      return [" ceil(", next];
    case " ":
    case ",":
    case ";":
    case "!":
      return [" ", next];
    default:
      break;
  }
  if (greekLetters.has(name)) return [` (greek_${name}) `, next];
  const functionName = latexFunctions[name];
  if (functionName !== undefined) return convertFunction(source, next, functionName, name, depth);
  throw new UnsupportedMathError(`\\${name}`);
}

/**
 * `\sum_{k=0}^{n-1}` becomes an opaque factor named after its bounds. A sum is linear, so factors that do not depend
 * on the index move in and out of it; reordering the summand's factors (`F_k F_{n-k-1}`) then compares as a product.
 */
function convertSum(source: string, start: number): [string, number] {
  let index = start;
  const bounds: Record<string, string> = {};
  for (let round = 0; round < 2; round += 1) {
    const rest = source.slice(index).trimStart();
    const marker = rest[0];
    if (marker !== "_" && marker !== "^") break;
    const [argument, next] = readArgument(source, source.length - rest.length + 1, marker === "^");
    bounds[marker] = argument;
    index = next;
  }
  return [` (sum_${subscriptName(`${bounds._ ?? ""}^${bounds["^"] ?? ""}`)})*`, index];
}

/** `\sin x`, `\ln(2)`, `\sin^2 x`, `\log_2 8` → mathjs calls. */
function convertFunction(source: string, start: number, functionName: string, latexName: string, depth: number): [string, number] {
  let index = start;
  let base: string | undefined;
  let power: string | undefined;
  for (let round = 0; round < 2; round += 1) {
    const rest = source.slice(index).trimStart();
    const offset = source.length - rest.length;
    if (rest.startsWith("_") && latexName === "log") {
      const [argument, next] = readArgument(source, offset + 1);
      base = convert(argument, depth + 1);
      index = next;
    } else if (rest.startsWith("^")) {
      const [argument, next] = readArgument(source, offset + 1);
      power = convert(argument, depth + 1);
      index = next;
    }
  }
  const rest = source.slice(index).trimStart();
  const offset = source.length - rest.length;
  let argument: string;
  if (rest.startsWith("{")) {
    const close = matchingBrace(source, offset);
    if (close === -1) throw new UnsupportedMathError("unbalanced {");
    argument = source.slice(offset + 1, close);
    index = close + 1;
  } else if (rest.startsWith("(")) {
    const close = matchingBracket(source, offset, "(", ")");
    if (close === -1) throw new UnsupportedMathError("unbalanced (");
    argument = source.slice(offset + 1, close);
    index = close + 1;
  } else {
    // An unbracketed argument is a run of numbers, letters and symbols: `\sin 2x`, `\sin x \cos x` = sin(x)·cos(x).
    const simple = /^(?:\s*(?:\d+(?:\.\d+)?|[a-zA-Z]|\\(?:pi|theta|alpha|beta|gamma|phi|varphi)(?![a-zA-Z])))+/.exec(rest);
    if (!simple) throw new UnsupportedMathError(`\\${latexName} without argument`);
    argument = simple[0];
    index = offset + simple[0].length;
  }
  // `\sin^{-1}` is the inverse function, not a reciprocal.
  const inverse = power !== undefined && /^\s*-\s*1\s*$/.test(power) ? inverseFunctions[functionName] : undefined;
  const name = inverse ?? functionName;
  const call = base === undefined ? `${name}(${convert(argument, depth + 1)})` : `log(${convert(argument, depth + 1)}, ${base})`;
  return [power === undefined || inverse !== undefined ? ` ${call}` : ` (${call})^(${power})`, index];
}

/** One LaTeX argument at `start`: a `{...}` group, a command like `\pi`, or a single character. */
function readArgument(source: string, start: number, isExponent = false): [string, number] {
  let index = start;
  while (index < source.length && source[index] === " ") index += 1;
  const character = source[index];
  if (character === undefined) throw new UnsupportedMathError("missing argument");
  if (character === "{") {
    const close = matchingBrace(source, index);
    if (close === -1) throw new UnsupportedMathError("unbalanced braces");
    return [source.slice(index + 1, close), close + 1];
  }
  if (character === "\\") {
    const command = /^\\([a-zA-Z]+|.)/.exec(source.slice(index));
    if (!command) throw new UnsupportedMathError("trailing backslash");
    return [command[0], index + command[0].length];
  }
  if (character === "(") {
    // `\sqrt(2)` and plain-text `2^(n+1)`: a parenthesised argument.
    const close = matchingBracket(source, index, "(", ")");
    if (close === -1) throw new UnsupportedMathError("unbalanced (");
    return [source.slice(index, close + 1), close + 1];
  }
  if (isExponent && /\d/.test(character)) {
    // `2^10` means 2^{10} in every answer we grade, though LaTeX would read 2^{1}0.
    const number = /^\d+(?:\.\d+)?/.exec(source.slice(index))![0];
    return [number, index + number.length];
  }
  if (character === "-" && /\d/.test(source[index + 1] ?? "")) {
    // `x^-1`: a signed number is one argument in plain-text math.
    const number = /^-\d+(?:\.\d+)?/.exec(source.slice(index))![0];
    return [number, index + number.length];
  }
  return [character, index + 1];
}

/** Index of the bracket closing the one at `openIndex` (same kind), or -1. */
function matchingBracket(source: string, openIndex: number, open: string, close: string): number {
  let depth = 0;
  for (let index = openIndex; index < source.length; index += 1) {
    if (source[index] === open) depth += 1;
    else if (source[index] === close) {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return -1;
}
