/** Numbers as analysts write them: currency, thousands separators, percent, scale words and accounting negatives. */

/** One number found in financial prose. */
export interface FinancialNumber {
  /** The value as written with its sign, before percent or scale: "$(1,234.5) million" → -1234.5. */
  value: number;
  /** Digits written after the decimal point: the rounding the writer used. */
  decimals: number;
  isPercent: boolean;
  /** 1, or 1e3 / 1e6 / 1e9 / 1e12 from a scale word ("thousand", "million", "bn"...). */
  scale: number;
  /** A bare integer from 1900 to 2100: probably a year, not the answer. */
  isYearLike: boolean;
  /** The matched text, for logs. */
  text: string;
}

/** One reading of a number in absolute units, with the half-unit of its last written digit. */
export interface CandidateValue {
  value: number;
  halfUnit: number;
  /**
   * The natural reading (percent as a fraction, scale applied). Alternative readings (percent as a
   * plain number, another unit scale) only match under the strict relative tolerance.
   */
  isPrimary: boolean;
}

const scaleWords: Record<string, number> = {
  trillion: 1e12,
  billion: 1e9,
  bn: 1e9,
  b: 1e9,
  million: 1e6,
  mn: 1e6,
  m: 1e6,
  thousand: 1e3,
  k: 1e3,
};

// Sign or currency may come in either order ("-$32", "$-32"); "(32)" is an accounting negative.
// `\%` is LaTeX's percent sign (boxed answers). The lookbehind keeps "2014-2015" from reading as 2014 and -2015.
const numberPattern = new RegExp(
  String.raw`(?<![\w.])(?<open>\(\s*)?(?<signBefore>[-−–—]\s*)?(?<currency>[$€£¥]\s*)?(?<signAfter>[-−–—]\s*)?` +
    String.raw`(?<digits>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)` +
    String.raw`(?:\s*(?<closeBefore>\)))?\s*(?<percent>\\?%|percent\b|per\s?cent\b|pct\b)?(?:\s*(?<closeAfter>\)))?` +
    String.raw`(?:\s*(?<scale>trillion|billion|million|thousand|bn|mn|m|b|k)\b)?`,
  "giu",
);

/** Every number in `text`, in order of appearance. */
export function parseFinancialNumbers(text: string): FinancialNumber[] {
  const numbers: FinancialNumber[] = [];
  for (const match of text.matchAll(numberPattern)) {
    const groups = match.groups ?? {};
    const digits = groups.digits!.replaceAll(",", ""); // the digits group is not optional
    const isNegative =
      Boolean(groups.signBefore || groups.signAfter) || Boolean(groups.open && (groups.closeBefore || groups.closeAfter));
    const magnitude = Number(digits);
    const decimals = digits.includes(".") ? digits.length - digits.indexOf(".") - 1 : 0;
    const scale = groups.scale ? scaleWords[groups.scale.toLowerCase()]! : 1; // the pattern admits only scaleWords' keys
    const isPercent = Boolean(groups.percent);
    numbers.push({
      value: isNegative ? -magnitude : magnitude,
      decimals,
      isPercent,
      scale,
      isYearLike:
        !isNegative && !isPercent && !groups.currency && scale === 1 && decimals === 0 && magnitude >= 1900 && magnitude <= 2100,
      text: match[0].trim(),
    });
  }
  return numbers;
}

/** The first (or last) number that is not a year, or the first (last) year when there is nothing else. */
export function pickAnswerNumber(numbers: readonly FinancialNumber[], position: "first" | "last"): FinancialNumber | undefined {
  const ordered = position === "first" ? numbers : [...numbers].reverse();
  return ordered.find((number) => !number.isYearLike) ?? ordered[0];
}

/**
 * The readings of a number in absolute units: a percent is a fraction first (14.46% → 0.1446) and
 * the plain number second; a scale word applies first (3.9 million → 3.9e6) and other unit scales
 * second (in case the gold value is in thousands or millions, as financial tables are).
 */
export function candidateValues(number: FinancialNumber): [CandidateValue, ...CandidateValue[]] {
  const halfUnit = 0.5 * 10 ** -number.decimals;
  if (number.isPercent) {
    return [
      { value: number.value / 100, halfUnit: halfUnit / 100, isPrimary: true },
      { value: number.value, halfUnit, isPrimary: false },
    ];
  }
  const candidates: [CandidateValue, ...CandidateValue[]] = [
    { value: number.value * number.scale, halfUnit: halfUnit * number.scale, isPrimary: true },
  ];
  if (number.scale !== 1) {
    for (const unit of [1e3, 1e6, 1e9]) {
      if (unit > number.scale) continue;
      const factor = number.scale / unit;
      candidates.push({ value: number.value * factor, halfUnit: halfUnit * factor, isPrimary: false });
    }
  }
  return candidates;
}
