/** Every intermediate value of a mathjs expression tree in floats, bottom up: what a compiled evaluation never shows. */
import type { MathNode } from "mathjs";
import { floatMath } from "./evaluate-expression.js";

/** One value met on the way: the operation or function that made it (none for constants and variables) and sizes. */
export interface FloatValue {
  name?: string;
  /** |value| (of a complex value, its modulus); NaN when it is no number. */
  size: number;
  /** The sizes of the operation's operands. */
  operands: number[];
  /** Whether the value holds an infinity written as one (`\infty`), so that its being infinite is no overflow. */
  isWrittenInfinity: boolean;
}

interface NodeShape {
  type: string;
  name?: string;
  value?: unknown;
  fn?: string | { name?: string };
  args?: MathNode[];
  content?: MathNode;
}

/**
 * Evaluates `node` with the float mathjs instance, one node at a time with `scope` bound, and calls `visit` on each
 * value; false when a node cannot be walked (a type or function mathjs evaluates some other way, or one that throws).
 */
export function forEachFloatValue(node: MathNode, scope: Record<string, number>, visit: (value: FloatValue) => void): boolean {
  const math = floatMath() as unknown as Record<string, unknown>;
  const walk = (current: MathNode): { value: unknown; isWrittenInfinity: boolean } => {
    const shape = current as unknown as NodeShape;
    switch (shape.type) {
      case "ParenthesisNode":
        return walk(shape.content!);
      case "ConstantNode": {
        // mathjs reads `Infinity` as a constant.
        const isWrittenInfinity = typeof shape.value === "number" && !Number.isFinite(shape.value);
        visit({ size: sizeOf(shape.value), operands: [], isWrittenInfinity });
        return { value: shape.value, isWrittenInfinity };
      }
      case "SymbolNode": {
        const name = shape.name!;
        const value = name in scope ? scope[name] : math[name];
        visit({ size: sizeOf(value), operands: [], isWrittenInfinity: name === "Infinity" });
        return { value, isWrittenInfinity: name === "Infinity" };
      }
      case "OperatorNode":
      case "FunctionNode": {
        const name = typeof shape.fn === "string" ? shape.fn : shape.fn?.name;
        const fn = name === undefined ? undefined : math[name];
        if (typeof fn !== "function") throw new Error(`not walked: ${name}`);
        const parts = (shape.args ?? []).map(walk);
        const value: unknown = fn(...parts.map((part) => part.value));
        const isWrittenInfinity = parts.some((part) => part.isWrittenInfinity);
        visit({ name, size: sizeOf(value), operands: parts.map((part) => sizeOf(part.value)), isWrittenInfinity });
        return { value, isWrittenInfinity };
      }
      default:
        throw new Error(`not walked: ${shape.type}`);
    }
  };
  try {
    walk(node);
    return true;
  } catch {
    return false;
  }
}

function sizeOf(value: unknown): number {
  if (typeof value === "number") return Math.abs(value);
  const complex = value as { re?: unknown; im?: unknown } | null;
  return typeof complex?.re === "number" && typeof complex.im === "number" ? Math.hypot(complex.re, complex.im) : Number.NaN;
}
