/**
 * Sample points for expressions with a floor, a ceiling or an absolute value of a variable (issue #44): the eight
 * points of magnitude 0.3…2.7 do not see `\lfloor x^2/100 \rfloor`, which is 0 on all of them, nor `|x - 100|`,
 * which is `100 - x` there. Points from 10^-K to 10^K, K four decades past the largest constant, see where such a term
 * jumps or bends (docs/math-verifier.md, "Expressions with variables").
 */
import type { MathNode } from "mathjs";
import type { CompiledExpression } from "./evaluate-expression.js";
import { forEachFloatValue } from "./float-intermediates.js";

const piecewise = new Set(["floor", "ceil", "abs"]);
// Points reach four decades past the largest constant, and no further than 10^30 (floats stay finite in powers).
const marginDecades = 4;
const maxDecades = 30;

/** Whether `compiled` takes a floor, ceiling or absolute value of something that depends on a variable. */
export function hasPiecewiseTerm(compiled: CompiledExpression): boolean {
  let found = false;
  compiled.node.traverse((child) => {
    const shape = child as unknown as { fn?: { name?: string }; args?: MathNode[] };
    if (found || child.type !== "FunctionNode" || !piecewise.has(shape.fn?.name ?? "")) return;
    found = (shape.args ?? []).some((argument) => dependsOnVariable(argument, compiled.symbols));
  });
  return found;
}

/**
 * The decades the wide points span for these expressions (K above), or undefined when a constant in them is past
 * 10^26 or below 10^-26 (or cannot be evaluated), so far that no point in floats would see past it.
 */
export function wideDecades(expressions: readonly CompiledExpression[]): number | undefined {
  let largest = 0;
  for (const compiled of expressions) {
    // Variables bound to NaN: only the constant parts have a value.
    const scope = Object.fromEntries(compiled.symbols.map((symbol) => [symbol, Number.NaN]));
    let isBounded = true;
    const walked = forEachFloatValue(compiled.node, scope, ({ size, isWrittenInfinity }) => {
      if (Number.isNaN(size) || size === 0) return;
      if (!Number.isFinite(size)) {
        if (!isWrittenInfinity) isBounded = false;
        return;
      }
      largest = Math.max(largest, Math.abs(Math.log10(size)));
    });
    if (!walked || !isBounded) return undefined;
  }
  const decades = Math.ceil(largest) + marginDecades;
  return decades <= maxDecades ? decades : undefined;
}

/**
 * Two points per decade from 10^-decades to 10^decades, one of either sign, `dimensions` coordinates each; the
 * coordinates of a point lie in different decades, so that `x/y` is not always near 1. Seeded (mulberry32): a verdict
 * replays exactly.
 */
export function wideSamplePoints(decades: number, dimensions: number): number[][] {
  let state = 0x51de;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  const span = 2 * decades + 1;
  return Array.from({ length: 2 * span }, (_, index) =>
    Array.from({ length: dimensions }, (_, coordinate) => {
      const decade = ((Math.floor(index / 2) + 3 * coordinate) % span) - decades;
      const mantissa = 1 + 9 * next();
      const isNegative = coordinate === 0 ? index % 2 === 1 : next() < 0.5;
      return (isNegative ? -1 : 1) * mantissa * 10 ** decade;
    }),
  );
}

function dependsOnVariable(node: MathNode, symbols: readonly string[]): boolean {
  let depends = false;
  node.traverse((child) => {
    if (child.type === "SymbolNode" && symbols.includes((child as unknown as { name: string }).name)) depends = true;
  });
  return depends;
}
