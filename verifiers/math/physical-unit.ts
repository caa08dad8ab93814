/**
 * Physical units written after an answer (`4 km`, `3\text{ kg}`, `5 cm^2`, `60 mph`, `9.8\text{ m/s}^2`): which one,
 * so that `4 km` is compared with `4000 m` and never with `4 m` (docs/math-verifier.md, "Units"). Counting words
 * (`5 apples`) are not units here.
 */

/** A unit: what it measures (with its powers: `m^2` is length^2, `mph` length·time^-1) and its size in base units. */
export interface PhysicalUnit {
  /** As written, normalised: `km`, `ft^2`, `mile per hour`. */
  name: string;
  /** `length^2`, `mass`, `length·time^-1`… */
  dimension: string;
  /** Size in the base units (metre, gram, second, dollar), as exact arithmetic text: `(1000)^2`, `(1609.344)*(3600)^-1`. */
  factor: string;
}

type Dimension = Readonly<Record<string, number>>;

// name → dimension and size in the base units; spellings of one unit share an entry. Exact by definition (1 in =
// 0.0254 m, 1 US gallon = 231 in^3, 1 mph = 0.44704 m/s).
const units = new Map<string, { dimension: Dimension; factor: string }>();
const define = (dimension: Dimension | string, factor: string, ...names: string[]) => {
  for (const name of names) units.set(name, { dimension: typeof dimension === "string" ? { [dimension]: 1 } : dimension, factor });
};
define("length", "0.001", "mm", "millimeter", "millimeters", "millimetre", "millimetres");
define("length", "0.01", "cm", "centimeter", "centimeters", "centimetre", "centimetres");
define("length", "1", "m", "meter", "meters", "metre", "metres");
define("length", "1000", "km", "kilometer", "kilometers", "kilometre", "kilometres");
define("length", "0.0254", "in", "inch", "inches");
define("length", "0.3048", "ft", "foot", "feet");
define("length", "0.9144", "yd", "yard", "yards");
define("length", "1609.344", "mi", "mile", "miles");
define("mass", "0.001", "mg", "milligram", "milligrams");
define("mass", "1", "g", "gram", "grams");
define("mass", "1000", "kg", "kilogram", "kilograms");
define("mass", "453.59237", "lb", "lbs", "pound", "pounds");
define("mass", "28.349523125", "oz", "ounce", "ounces");
define("time", "1", "s", "sec", "secs", "second", "seconds");
define("time", "60", "min", "mins", "minute", "minutes");
define("time", "3600", "h", "hr", "hrs", "hour", "hours");
define("time", "86400", "day", "days");
define("time", "604800", "week", "weeks");
// Volumes are lengths cubed: `1 l` is `1000 cm^3`, and `cc` is `cm^3`.
define({ length: 3 }, "0.000001", "ml", "milliliter", "milliliters", "millilitre", "millilitres", "cc");
define({ length: 3 }, "0.001", "l", "liter", "liters", "litre", "litres");
define({ length: 3 }, "0.003785411784", "gallon", "gallons");
define({ length: 2 }, "4046.8564224", "acre", "acres");
define({ length: 1, time: -1 }, "0.44704", "mph");
define({ length: 1, time: -1 }, "(1000/3600)", "kph", "kmh", "kmph");
// Money in dollars: `400 cents` is `4 dollars` (and `4 cents` is not).
define("money", "1", "dollar", "dollars");
define("money", "0.01", "cent", "cents");

/** The unit dollar, which a dollar sign stands for against an amount of money (normalize-answer.ts). */
export const dollarUnit: PhysicalUnit = { name: "dollar", dimension: "money", factor: "1" };

// The last unit of the answer, after a number, a closing bracket or \pi: an optional `square`/`sq`/`cubic`, the name
// (bare or in \text{}, \mathrm{}, \mbox{}), an optional power (`^2`, `^{3}`).
const trailing =
  /(?:[\d})]|\\pi)\s*(?:\\(?:text|mathrm|mbox|textrm)\s*\{\s*)?(square\s+|sq\.?\s+|cubic\s+)?([a-zA-Z]+)\.?\s*\}?\s*(?:\^\s*\{?\s*([23])\s*\}?)?\s*\.?$/;
// Letters that are algebra when glued to a number (`2m`, `3s`, `5h` are products): a one-letter unit needs a space or \text.
const oneLetter = /^[a-zA-Z]$/;

/** The physical unit at the end of `text`, or undefined (none, a counting word, or a one-letter name glued to a number). */
export function findPhysicalUnit(text: string): PhysicalUnit | undefined {
  const match = trailing.exec(text.trim());
  if (!match) return undefined;
  const [whole, prefix, name, power] = match;
  const entry = units.get(name!.toLowerCase());
  if (!entry) return undefined;
  const isSpaced = /^[\d})]\s|\\(?:text|mathrm|mbox|textrm)/.test(whole.replace(/^\\pi/, "0"));
  if (oneLetter.test(name!) && !isSpaced) return undefined;
  const exponent = power ? Number(power) : prefix === undefined ? 1 : /cubic/.test(prefix) ? 3 : 2;
  return {
    name: exponent === 1 ? name!.toLowerCase() : `${name!.toLowerCase()}^${exponent}`,
    dimension: dimensionName(scaleDimension(entry.dimension, exponent)),
    factor: exponent === 1 ? entry.factor : `(${entry.factor})^${exponent}`,
  };
}

/**
 * The physical unit that unit words name (`mile per hour`, `km/h`, `m/s^2`, `meter per second squared`, `cubic
 * centimeter`; lower case, as spelled-unit.ts writes them), every word a unit of the table or a joining word;
 * undefined otherwise (`mile an hour` is mile/hour, `apple per day` is no physical unit).
 */
export function readUnitWords(words: string): PhysicalUnit | undefined {
  const tokens = words.replace(/\//g, " per ").replace(/\\cdot|[·*]/g, " ").trim().split(/\s+/);
  let dimension: Dimension = {};
  const factors: string[] = [];
  let sign = 1;
  let pendingPower = 1;
  let last: { dimension: Dimension; factor: string; power: number } | undefined;
  const flush = () => {
    if (!last) return;
    const power = sign * last.power;
    dimension = addDimensions(dimension, scaleDimension(last.dimension, power));
    factors.push(power === 1 ? `(${last.factor})` : `(${last.factor})^${power}`);
    last = undefined;
  };
  for (const [index, token] of tokens.entries()) {
    if (token === "per" || ((token === "a" || token === "an") && last && index < tokens.length - 1)) {
      flush();
      sign = -1;
    } else if (token === "square" || token === "sq" || token === "cubic" || token === "cu") {
      flush();
      pendingPower = token === "cubic" || token === "cu" ? 3 : 2;
    } else if ((token === "squared" || token === "cubed") && last) {
      last.power *= token === "cubed" ? 3 : 2;
    } else {
      const [name, power] = token.split("^") as [string, string?];
      const entry = units.get(name);
      if (!entry || (power !== undefined && !/^[23]$/.test(power))) return undefined;
      flush();
      last = { ...entry, power: pendingPower * Number(power ?? 1) };
      pendingPower = 1;
    }
  }
  flush();
  if (factors.length === 0 || pendingPower !== 1) return undefined;
  return { name: words, dimension: dimensionName(dimension), factor: factors.join("*") };
}

function scaleDimension(dimension: Dimension, power: number): Dimension {
  return Object.fromEntries(Object.entries(dimension).map(([base, exponent]) => [base, exponent * power]));
}

function addDimensions(a: Dimension, b: Dimension): Dimension {
  const sum: Record<string, number> = { ...a };
  for (const [base, exponent] of Object.entries(b)) sum[base] = (sum[base] ?? 0) + exponent;
  return sum;
}

/** `length`, `length^2`, `length·time^-1`: bases in alphabetical order, those to the power 0 left out. */
function dimensionName(dimension: Dimension): string {
  return Object.entries(dimension)
    .filter(([, exponent]) => exponent !== 0)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([base, exponent]) => (exponent === 1 ? base : `${base}^${exponent}`))
    .join("·");
}
