/** LiveCodeBench/DeepCoder stdout comparison: strip, compare line by line, fall back to exact decimal comparison of tokens. */

// Python's str.strip()/str.split() whitespace: ASCII whitespace, \x1c-\x1f, \x85, \xa0 and the Unicode space separators.
const pythonSpace = "[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const leadingSpace = new RegExp(`^${pythonSpace}+`);
const trailingSpace = new RegExp(`${pythonSpace}+$`);
const spaceRun = new RegExp(`${pythonSpace}+`);

/** Python's `text.strip()`. */
function pythonStrip(text: string): string {
  return text.replace(leadingSpace, "").replace(trailingSpace, "");
}

/** Python's `text.split()`. */
function pythonSplit(text: string): string[] {
  const stripped = pythonStrip(text);
  return stripped === "" ? [] : stripped.split(spaceRun);
}

/** Why an output was rejected, for the verdict's detail. */
export interface StdoutComparison {
  isMatch: boolean;
  detail?: string;
}

/**
 * Compares a program's stdout with the expected output as LiveCodeBench's `grade_stdio` does: strip both, split on
 * "\n", strip each line, equal line counts, then per line exact text or equal `Decimal` token lists (1.0 == 1.00,
 * 0.333333 != 0.3333333). With `floatTolerance`, numeric tokens match within |a − b| ≤ tolerance · max(1, |b|).
 */
export function compareStdout(actual: string, expected: string, options: { floatTolerance?: number } = {}): StdoutComparison {
  const actualLines = pythonStrip(actual).split("\n").map(pythonStrip);
  const expectedLines = pythonStrip(expected).split("\n").map(pythonStrip);
  if (actualLines.length !== expectedLines.length) {
    return { isMatch: false, detail: `expected ${expectedLines.length} line(s), got ${actualLines.length}` };
  }
  for (let index = 0; index < actualLines.length; index += 1) {
    const actualLine = actualLines[index]!;
    const expectedLine = expectedLines[index]!;
    if (actualLine === expectedLine || tokensMatch(actualLine, expectedLine, options.floatTolerance)) continue;
    return { isMatch: false, detail: `line ${index + 1}: expected ${JSON.stringify(clip(expectedLine))}, got ${JSON.stringify(clip(actualLine))}` };
  }
  return { isMatch: true };
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function tokensMatch(actualLine: string, expectedLine: string, tolerance: number | undefined): boolean {
  const actualTokens = pythonSplit(actualLine).map(parseDecimal);
  const expectedTokens = pythonSplit(expectedLine).map(parseDecimal);
  if (actualTokens.length !== expectedTokens.length) return false;
  return actualTokens.every((token, index) => {
    const other = expectedTokens[index];
    if (token === undefined || other === undefined) return false;
    if (tolerance !== undefined && Number.isFinite(token.approximate) && Number.isFinite(other.approximate)) {
      return Math.abs(token.approximate - other.approximate) <= tolerance * Math.max(1, Math.abs(other.approximate));
    }
    return token.canonical !== "nan" && token.canonical === other.canonical;
  });
}

interface DecimalToken {
  /** A form equal for equal values: "0", "-inf", "nan", or sign + digits without trailing zeros + "e" + exponent. */
  canonical: string;
  approximate: number;
}

// What Python's Decimal() accepts: optional sign, digits with single underscores, fraction, exponent; inf/infinity/nan/snan.
const decimalPattern = /^([+-]?)(?:(\d(?:_?\d)*)?(?:\.(\d(?:_?\d)*)?)?(?:[eE]([+-]?\d(?:_?\d)*))?|(inf|infinity)|(s?nan\d*))$/i;

/** The exact value of a token as Python's `Decimal(token)` reads it, or undefined when Decimal would reject it. */
export function parseDecimal(token: string): DecimalToken | undefined {
  const match = decimalPattern.exec(token);
  if (!match) return undefined;
  const [, sign, integerPart, fractionPart, exponentPart, infinity, nan] = match;
  if (nan !== undefined) return { canonical: "nan", approximate: Number.NaN };
  const negative = sign === "-";
  if (infinity !== undefined) return { canonical: negative ? "-inf" : "inf", approximate: negative ? -Infinity : Infinity };
  if (integerPart === undefined && fractionPart === undefined) return undefined;
  const integerDigits = (integerPart ?? "").replaceAll("_", "");
  const fractionDigits = (fractionPart ?? "").replaceAll("_", "");
  let digits = (integerDigits + fractionDigits).replace(/^0+/, "");
  let exponent = BigInt((exponentPart ?? "0").replaceAll("_", "")) - BigInt(fractionDigits.length);
  const approximate = Number(`${sign}${integerDigits || "0"}.${fractionDigits || "0"}e${exponentPart?.replaceAll("_", "") ?? "0"}`);
  if (digits === "") return { canonical: "0", approximate: 0 };
  const trailingZeros = digits.length - digits.replace(/0+$/, "").length;
  digits = digits.slice(0, digits.length - trailingZeros);
  exponent += BigInt(trailingZeros);
  return { canonical: `${negative ? "-" : ""}${digits}e${exponent}`, approximate };
}
