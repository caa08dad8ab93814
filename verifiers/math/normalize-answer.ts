/** String normalisation of an extracted answer: LaTeX noise, units, percent, degrees, currency, thousands separators. */
import { findPhysicalUnit, readUnitWords, type PhysicalUnit } from "./physical-unit.js";
import { spelledUnit } from "./spelled-unit.js";
import { matchingBrace } from "./extract-answer.js";

/** A normalised answer string with the decorations that were removed from it. */
export interface NormalizedAnswer {
  text: string;
  percent: boolean;
  degrees: boolean;
  /** Base of a subscripted literal such as `204_5`. */
  base?: number;
  /** The physical unit removed from the end (`4 km`), compared by the grader rather than dropped. */
  unit?: PhysicalUnit;
  /** The words of any unit removed from the end (`4 cents`: `cent`; spelled-unit.ts), compared when both sides have one. */
  unitWords?: string;
  /** A dollar sign, and no other unit: the unit dollar against an amount of money (`\$4` against `400 cents`). */
  dollars?: boolean;
}

const powersOfTen: Record<string, number> = { thousand: 3, million: 6, billion: 9, trillion: 12 };
// Words removed when they trail an answer (`5 cm`, `\text{ inches}^2`, `12 square feet`); sources: PRM800K / Minerva lists.
const unitWords = [
  "square", "sq", "cubic", "units?", "cm", "mm", "km", "m", "meters?", "metres?", "centimeters?", "millimeters?",
  "kilometers?", "in", "inch(?:es)?", "ft", "feet", "foot", "yards?", "yd", "miles?", "mi", "mph", "km/h", "kg", "g",
  "grams?", "kilograms?", "lbs?", "pounds?", "ounces?", "oz", "liters?", "litres?", "ml", "gallons?", "seconds?", "sec",
  "s", "minutes?", "min", "hours?", "hrs?", "days?", "weeks?", "months?", "years?", "dollars?", "cents?", "euros?",
  "ways", "people", "students", "points?", "times", "radians?", "rad", "cups?", "pages?", "marbles", "balls", "apples",
  "books", "cookies", "coins", "boxes", "cars", "trees", "questions", "games", "chairs", "tickets", "children", "men",
  "women", "boys", "girls", "sides", "diagonals", "edges", "vertices", "faces", "numbers", "integers", "digits",
];
// A unit follows a number, a closing bracket or a constant: `5 cm`, `\frac{1}{2} cm`, `2\pi cm`.
const trailingUnit = new RegExp(`([\\d})]|\\\\pi)(?:\\s+(?:${unitWords.join("|")}))+(?:\\s*\\^\\s*\\{?\\d\\}?)?\\.?$`, "i");
// Units glued to a number or a fraction: only multi-letter ones, so `2m` (2·m) and `5x` stay algebra.
const gluedUnit = /(\d|\})(?:cm|mm|km|ft|inches|meters|units|degrees|sq)(?:\^\{?\d\}?)?$/i;
const mathWords = /^(?:pi|sqrt|sin|cos|tan|sec|csc|cot|log|ln|exp|abs|inf|infty|infinity|and|or|mod|cdot|times|frac|to)$/i;
// Words after a number that change its value, so never a unit to drop: `5 hundred` is not 5, nor `5 squared` (issue #44).
const valueWords = /^(?:hundreds?|thousands?|millions?|billions?|trillions?|tenths|hundredths|thousandths|millionths|squared|cubed)$/i;
const textCommands = /\\(?:text|textbf|textit|textrm|mathrm|mathbf|mathit|mathsf|mbox|hbox|operatorname|textnormal|boldsymbol|mathbb|mathcal)\s*\{/g;

/** Normalises an extracted answer for comparison; never throws. */
export function normalizeAnswer(raw: string): NormalizedAnswer {
  let text = raw.trim();
  let percent = false;
  let degrees = false;
  text = unwrapDelimiters(text.replace(/^\*\*([\s\S]*)\*\*$/, "$1"));
  // `0.3333...`: a decimal written as truncated is graded as the decimal it shows.
  text = text.replace(/^([-+]?\d*\.\d+)\s*(?:\.\.\.|\\[lc]?dots|…)$/, "$1");
  text = text
    .replace(/\\displaystyle|\\limits|\\nolimits/g, "")
    .replace(/\\(?:left|right)\s*\.(?![0-9])/g, "")
    .replace(/\\(?:left|right|bigl|bigr|Bigl|Bigr|biggl|biggr|big|Big|bigg|Bigg)(?![a-zA-Z])/g, "")
    .replace(/\\[dtc]frac(?![a-zA-Z])/g, "\\frac")
    .replace(/\\[dt]binom(?![a-zA-Z])/g, "\\binom")
    .replace(/\{\s*,\s*\}/g, "")
    .replace(/(\d),\\!\s*(?=\d{3})/g, "$1")
    .replace(/(?<!\\)\\[!,;:> ]|\\q?quad|~/g, " ")
    .replace(/\\(?:lvert|rvert|vert|mid)(?![a-zA-Z])/g, "|")
    .replace(/\\(?:le|leqslant)(?![a-zA-Z])/g, "\\leq")
    .replace(/\\(?:ge|geqslant)(?![a-zA-Z])/g, "\\geq")
    .replace(/\\ne(?![a-zA-Z])/g, "\\neq")
    .replace(/≤/g, "\\leq")
    .replace(/≥/g, "\\geq")
    .replace(/≠/g, "\\neq")
    .replace(/π/g, "\\pi")
    .replace(/√/g, "\\sqrt")
    .replace(/∞/g, "\\infty")
    .replace(/[−–]/g, "-")
    .replace(/²/g, "^2")
    .replace(/³/g, "^3")
    .replace(/×|·/g, "\\cdot ");
  // Degrees: ^\circ, ^{\circ}, \circ, °, \degree, and the words.
  const degreePattern = /\^\s*\{?\s*\\circ\s*\}?|\\circ(?![a-zA-Z])|°|\\degree(?![a-zA-Z])|\\textdegree(?![a-zA-Z])/g;
  if (degreePattern.test(text)) {
    degrees = true;
    text = text.replace(degreePattern, " ");
  }
  // Percent: \%, %, and the words.
  if (/\\?%/.test(text)) {
    percent = true;
    text = text.replace(/\\?%/g, " ");
  }
  // Currency. A dollar sign with no other unit is kept as `dollars`, which counts only against an amount of money on
  // the other side (`\$4` is not `4 cents`, and is `4 dollars per hour` when the question asks a rate); the other
  // signs are dropped (`£` beside `pounds`, a mass in the unit table, would mislead).
  const isDollars = /\\\$|US\$|USD/.test(text);
  text = text.replace(/\\\$|\$|US\$|USD|€|£|¥|\\euro(?![a-zA-Z])|\\pounds(?![a-zA-Z])/g, " ");
  text = text
    .replace(/\\varnothing|∅|\\\{\s*\\\}/g, "\\emptyset")
    .replace(/\\mathbb\s*\{?R\}?|^(?:\\text\s*\{\s*)?all real(?:s| numbers)\s*\}?$/i, "(-\\infty, \\infty)")
    // `1.5 million` is 1.5·10^6, as PRM800K's grader reads it; the word is no unit.
    .replace(/(\d)\s*(?:\\text\s*\{\s*)?(thousand|million|billion|trillion)\b(?:\s*\})?/gi, (_match, digit: string, word: string) =>
      `${digit}\\cdot 10^{${powersOfTen[word.toLowerCase()]}}`,
    );
  const writtenUnit = findPhysicalUnit(text);
  // What is removed from the end as a unit, kept so that two different units are never taken for the same answer.
  const removed: string[] = [];
  text = removeSuffix(text, dropTextUnits(text), removed);
  text = removeSuffix(text, dropCompoundUnit(text), removed);
  text = unwrapTextCommands(text);
  text = text.replace(/\s+/g, " ").trim();
  const percentWord = /\s*(?:percent(?:age)?(?:\s+points)?|pct)\.?$/i;
  if (percentWord.test(text) && /\d/.test(text)) {
    percent = true;
    text = text.replace(percentWord, "");
  }
  const degreeWord = /\s*(?:degrees?|deg)\.?$/i;
  if (degreeWord.test(text) && /\S/.test(text.replace(degreeWord, ""))) {
    degrees = true;
    text = text.replace(degreeWord, "");
  }
  for (let round = 0; round < 3; round += 1) {
    const stripped = dropTrailingWords(text.replace(trailingUnit, "$1").replace(gluedUnit, "$1").trim());
    if (stripped === text) break;
    text = removeSuffix(text, stripped, removed);
  }
  // `3 and 5`, and `(11,7)or(7,11)` where the word sits between brackets without spaces.
  text = text
    .replace(/\s+(?:and|or)\s+|(?<=[)\]])\s*(?:and|or)\s*(?=[([])/gi, ", ")
    .replace(/[.。]$/, "")
    .trim();
  text = unwrapDelimiters(text);
  text = removeThousandsSeparators(text);
  // The leftmost match starts a run of digits: `(?<!\d)` spares the quadratic retry at every digit of a long number.
  text = text.replace(/(?<!\d)(\d*)\.(\d*)\\overline\s*\{?(\d+)\}?/g, (_match, whole: string, fixed: string, repeating: string) =>
    repeatingDecimalFraction(whole, fixed, repeating),
  );

  if (/^\.\d/.test(text)) text = `0${text}`;
  if (/^-\.\d/.test(text)) text = `-0${text.slice(1)}`;
  const baseMatch = /^(\d+)_\{?(\d{1,2})\}?$/.exec(text);
  if (baseMatch) return { text: baseMatch[1]!, percent, degrees, base: Number(baseMatch[2]) };
  const unitWords = spelledUnit(removed);
  const unit = writtenUnit ?? (unitWords === undefined ? undefined : readUnitWords(unitWords));
  const dollars = isDollars && !unit && !unitWords;
  return { text, percent, degrees, ...(unit ? { unit } : {}), ...(unitWords ? { unitWords } : {}), ...(dollars ? { dollars } : {}) };
}

// A unit of several words joined by `/` after a number (`100 km/hr`, `9.8 m/s^2`), without \text{}.
const compoundUnit = /^(.*(?:[\d})]|\\pi))\s+([a-zA-Z]+(?:\s*\/\s*[a-zA-Z]+)+(?:\s*\^\s*\{?[23]\}?)?)\s*\.?$/;

/** `text` without a compound unit at its end when the unit table reads it (`5 m/s`), else `text` (`5 x/y` is algebra). */
function dropCompoundUnit(text: string): string {
  const match = compoundUnit.exec(text);
  if (!match) return text;
  const words = spelledUnit([match[2]!]);
  return words !== undefined && readUnitWords(words) ? match[1]! : text;
}

/** `shortened`, recording in `removed` what it lacks at the end of `text` (every step here only cuts the end). */
function removeSuffix(text: string, shortened: string, removed: string[]): string {
  if (shortened !== text && text.startsWith(shortened)) removed.unshift(text.slice(shortened.length));
  return shortened;
}

/** `5 dogs`, `42 meters per second`: words (two letters or more, not math names) after a number are a unit. */
function dropTrailingWords(text: string): string {
  // Words separated by mandatory spaces: no nested ambiguity, so no catastrophic backtracking on long input.
  const match = /^(.*[\d})])\s+([a-zA-Z]{2,}\.?(?:\s+[a-zA-Z]{2,}\.?)*)\s*$/.exec(text);
  if (!match) return text;
  const words = match[2]!.split(/\s+/).map((word) => word.replace(/\.$/, ""));
  const isMath = words.some((word) => mathWords.test(word)) || valueWords.test(words[0]!);
  return isMath ? text : match[1]!;
}

/** Strips `$...$`, `$$...$$`, `\(...\)`, `\[...\]` wrapping the whole answer, and a trailing full stop. */
function unwrapDelimiters(text: string): string {
  let current = text.trim();
  for (;;) {
    const next = current
      .replace(/^\$\$([\s\S]*)\$\$$/, "$1")
      .replace(/^\$([^$]*)\$$/, "$1")
      .replace(/^\\\(([\s\S]*)\\\)$/, "$1")
      .replace(/^\\\[([\s\S]*)\\\]$/, "$1")
      .replace(/^\\boxed\{([\s\S]*)\}$/, "$1")
      .trim();
    if (next === current) return current;
    current = next;
  }
}

// Built once: dropTextUnits runs on every answer, and building this one there took about half of normalizeAnswer's time.
const knownTextUnit = new RegExp(
  `(\\S)\\s*\\\\(?:text|mbox|mathrm|textrm)\\s*\\{\\s*(?:${unitWords.join("|")}|degrees?)\\s*\\}(?:\\s*\\^\\s*\\{?\\d\\}?)?\\s*$`,
  "i",
);
const textAfterNumber = /([\d})])\s*\\(?:text|mbox|mathrm|textrm)\s*\{\s*[a-zA-Z(][a-zA-Z\s/.()-]*\}(?:\s*\^\s*\{?\d\}?)?\s*$/;

/**
 * Removes `\text{ cm}^2`-style unit annotations at the end of the answer; after a number, any trailing words in
 * `\text{}` are a unit or a remark (`5\text{ m/s}`, `12\text{ (rounded)}`).
 */
function dropTextUnits(text: string): string {
  return text.replace(knownTextUnit, "$1").replace(textAfterNumber, (removed, before: string) => {
    const firstWord = /\{\s*([a-zA-Z]+)/.exec(removed)?.[1] ?? "";
    return valueWords.test(firstWord) ? removed : before;
  });
}

/** `\text{abc}` → ` abc ` (also \mathrm, \mbox, \operatorname...), braces matched. */
function unwrapTextCommands(text: string): string {
  let result = text;
  for (let guard = 0; guard < 50; guard += 1) {
    textCommands.lastIndex = 0;
    const match = textCommands.exec(result);
    if (!match) break;
    const open = match.index + match[0].length - 1;
    const close = matchingBrace(result, open);
    if (close === -1) break;
    const inner = result.slice(open + 1, close);
    // Keep `\operatorname{arcsec}`-style names glued; pad words so they do not merge with numbers.
    const isName = /^(?:operatorname|mathrm)/.test(match[0].slice(1)) && /^[a-zA-Z]+$/.test(inner);
    result = result.slice(0, match.index) + (isName ? inner : ` ${inner} `) + result.slice(close + 1);
  }
  return result;
}

/** `I.F\overline{R}` as an exact `\frac{}{}`: (IFR − IF) / (10^|F| · (10^|R| − 1)). */
function repeatingDecimalFraction(whole: string, fixed: string, repeating: string): string {
  const withRepeat = BigInt(`${whole}${fixed}${repeating}` || "0");
  const withoutRepeat = BigInt(`${whole}${fixed}` || "0");
  const denominator = 10n ** BigInt(fixed.length) * (10n ** BigInt(repeating.length) - 1n);
  return `\\frac{${withRepeat - withoutRepeat}}{${denominator}}`;
}

/** `7,425,000` → `7425000` and `1 000` → `1000` when the whole answer is one such number. */
function removeThousandsSeparators(text: string): string {
  // A leading group of 0 is no thousands group: `0,111` is a decimal comma.
  if (/^[-+]?[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?$/.test(text)) return text.replace(/,/g, "");
  if (/^[-+]?\d{1,3}(?: \d{3})+(?:\.\d+)?$/.test(text)) return text.replace(/ /g, "");
  return text;
}
