/**
 * Physical units written after an answer (`4 km`, `3\text{ kg}`, `5 cm^2`): which one, so that `4 km` is compared with
 * `4000 m` and never with `4 m` (docs/math-verifier.md, "Units"). Counting words (`5 apples`) are not units here.
 */

/** A unit: what it measures (with its power: `m^2` is length^2) and its size in that dimension's base unit. */
export interface PhysicalUnit {
  /** As written, normalised: `km`, `ft^2`. */
  name: string;
  /** `length^2`, `mass`, `time`… */
  dimension: string;
  /** Size in the dimension's base unit (metre, gram, second, litre), exact decimal text. */
  factor: string;
}

// name → [dimension, size in the base unit]; spellings of one unit share an entry. Exact by definition (1 in = 0.0254 m).
const units: Record<string, [string, string]> = {};
const define = (dimension: string, factor: string, ...names: string[]) => {
  for (const name of names) units[name] = [dimension, factor];
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
define("time", "1", "s", "sec", "second", "seconds");
define("time", "60", "min", "minute", "minutes");
define("time", "3600", "h", "hr", "hrs", "hour", "hours");
define("time", "86400", "day", "days");
define("time", "604800", "week", "weeks");
define("volume", "0.001", "ml", "milliliter", "milliliters", "millilitre", "millilitres");
define("volume", "1", "l", "liter", "liters", "litre", "litres");

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
  const entry = units[name!.toLowerCase()];
  if (!entry) return undefined;
  const isSpaced = /^[\d})]\s|\\(?:text|mathrm|mbox|textrm)/.test(whole.replace(/^\\pi/, "0"));
  if (oneLetter.test(name!) && !isSpaced) return undefined;
  const exponent = power ? Number(power) : prefix === undefined ? 1 : /cubic/.test(prefix) ? 3 : 2;
  const [dimension, factor] = entry;
  return {
    name: exponent === 1 ? name!.toLowerCase() : `${name!.toLowerCase()}^${exponent}`,
    dimension: exponent === 1 ? dimension : `${dimension}^${exponent}`,
    factor: exponent === 1 ? factor : `(${factor})^${exponent}`,
  };
}
