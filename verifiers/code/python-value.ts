/** Python values on the grader side: a JSON reader that keeps ints exact, and Python `==` over the result (tuples as lists). */

/** A value as Python sees it: ints are exact, a dict is a list of key/value pairs, `other` is a type with no JSON form (never equal). */
export type PythonValue =
  | { type: "none" }
  | { type: "bool"; value: boolean }
  | { type: "int"; value: bigint }
  | { type: "float"; value: number }
  | { type: "str"; value: string }
  | { type: "list"; items: PythonValue[] }
  | { type: "dict"; entries: [PythonValue, PythonValue][] }
  | { type: "other"; name: string };

/** Thrown for text that is not JSON as Python's json module reads it. */
export class PythonJsonError extends Error {
  constructor(message: string, readonly position: number) {
    super(`${message} at character ${position}`);
    this.name = "PythonJsonError";
  }
}

/**
 * Parses JSON as `json.loads` does (ints exact, `NaN`/`Infinity` allowed). With `tagged`, the launcher's encoding is read
 * too: `{"$dict": [[k, v], ...]}`, `{"$hex": "0x.."}`, `{"$other": "name"}`.
 */
export function parsePythonJson(text: string, options: { tagged?: boolean } = {}): PythonValue {
  const reader = new JsonReader(text, options.tagged ?? false);
  const value = reader.value();
  reader.skipWhitespace();
  if (reader.position !== text.length) throw new PythonJsonError("extra data", reader.position);
  return value;
}

class JsonReader {
  position = 0;
  constructor(
    private readonly text: string,
    private readonly tagged: boolean,
  ) {}

  skipWhitespace(): void {
    while (this.position < this.text.length && " \t\n\r".includes(this.text[this.position]!)) this.position += 1;
  }

  value(): PythonValue {
    this.skipWhitespace();
    const character = this.text[this.position];
    if (character === "{") return this.object();
    if (character === "[") return { type: "list", items: this.array() };
    if (character === '"') return { type: "str", value: this.string() };
    for (const [word, value] of literals) {
      if (this.text.startsWith(word, this.position)) {
        this.position += word.length;
        return value;
      }
    }
    return this.number();
  }

  private array(): PythonValue[] {
    this.position += 1;
    const items: PythonValue[] = [];
    this.skipWhitespace();
    if (this.text[this.position] === "]") {
      this.position += 1;
      return items;
    }
    for (;;) {
      items.push(this.value());
      this.skipWhitespace();
      const character = this.text[this.position++];
      if (character === "]") return items;
      if (character !== ",") throw new PythonJsonError("expected ',' or ']'", this.position - 1);
    }
  }

  private object(): PythonValue {
    this.position += 1;
    const entries: [PythonValue, PythonValue][] = [];
    this.skipWhitespace();
    if (this.text[this.position] === "}") {
      this.position += 1;
      return { type: "dict", entries };
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.position] !== '"') throw new PythonJsonError("expected a string key", this.position);
      const key = this.string();
      this.skipWhitespace();
      if (this.text[this.position++] !== ":") throw new PythonJsonError("expected ':'", this.position - 1);
      entries.push([{ type: "str", value: key }, this.value()]);
      this.skipWhitespace();
      const character = this.text[this.position++];
      if (character === "}") break;
      if (character !== ",") throw new PythonJsonError("expected ',' or '}'", this.position - 1);
    }
    return this.tagged && entries.length === 1 ? untag(entries[0]!) : { type: "dict", entries };
  }

  private string(): string {
    const start = this.position;
    this.position += 1;
    let result = "";
    for (;;) {
      const character = this.text[this.position];
      if (character === undefined) throw new PythonJsonError("unterminated string", start);
      if (character === '"') {
        this.position += 1;
        return result;
      }
      if (character === "\\") {
        const escaped = this.text[this.position + 1];
        if (escaped === "u") {
          const hex = this.text.slice(this.position + 2, this.position + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new PythonJsonError("bad \\u escape", this.position);
          result += String.fromCharCode(parseInt(hex, 16));
          this.position += 6;
          continue;
        }
        const decoded = escapes[escaped ?? ""];
        if (decoded === undefined) throw new PythonJsonError("bad escape", this.position);
        result += decoded;
        this.position += 2;
        continue;
      }
      result += character;
      this.position += 1;
    }
  }

  private number(): PythonValue {
    const match = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/.exec(this.text.slice(this.position, this.position + 100_000));
    if (!match) throw new PythonJsonError("expected a value", this.position);
    this.position += match[0].length;
    if (match[1] === undefined && match[2] === undefined) return { type: "int", value: BigInt(match[0]) };
    return { type: "float", value: Number(match[0]) };
  }
}

const literals: [string, PythonValue][] = [
  ["null", { type: "none" }],
  ["true", { type: "bool", value: true }],
  ["false", { type: "bool", value: false }],
  ["NaN", { type: "float", value: Number.NaN }],
  ["Infinity", { type: "float", value: Number.POSITIVE_INFINITY }],
  ["-Infinity", { type: "float", value: Number.NEGATIVE_INFINITY }],
];

const escapes: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** Reads one tagged launcher object ({"$dict"|"$hex"|"$other": ...}); any other single-key object stays a dict. */
function untag([key, value]: [PythonValue, PythonValue]): PythonValue {
  const tag = key.type === "str" ? key.value : "";
  if (tag === "$dict" && value.type === "list") {
    return { type: "dict", entries: value.items.map((pair) => (pair.type === "list" && pair.items.length === 2 ? [pair.items[0]!, pair.items[1]!] : [pair, pair])) };
  }
  if (tag === "$hex" && /^-?0x[0-9a-f]+$/.test(value.type === "str" ? value.value : "")) {
    const hex = (value as { value: string }).value;
    return { type: "int", value: hex.startsWith("-") ? -BigInt(hex.slice(1)) : BigInt(hex) };
  }
  if (tag === "$other" && value.type === "str") return { type: "other", name: value.value };
  return { type: "dict", entries: [[key, value]] };
}

/** Options of value comparison. */
export interface EqualityOptions {
  /** When set, two numbers of which one is a float match if |a − b| ≤ tolerance · max(1, |b|). Never implicit. */
  floatTolerance?: number;
}

/** Python `prediction == expected`, with tuples already lists; bools are ints (True == 1 == 1.0), NaN equals nothing. */
export function pythonEquals(prediction: PythonValue, expected: PythonValue, options: EqualityOptions = {}): boolean {
  const left = numeric(prediction);
  const right = numeric(expected);
  if (left !== undefined || right !== undefined) {
    if (left === undefined || right === undefined) return false;
    return numbersEqual(left, right, options.floatTolerance);
  }
  switch (prediction.type) {
    case "none":
      return expected.type === "none";
    case "str":
      return expected.type === "str" && prediction.value === expected.value;
    case "list":
      return (
        expected.type === "list" &&
        prediction.items.length === expected.items.length &&
        prediction.items.every((item, index) => pythonEquals(item, expected.items[index]!, options))
      );
    case "dict":
      return expected.type === "dict" && dictsEqual(prediction.entries, expected.entries, options);
    default:
      return false;
  }
}

type Numeric = { exact: bigint } | { float: number };

function numeric(value: PythonValue): Numeric | undefined {
  if (value.type === "bool") return { exact: value.value ? 1n : 0n };
  if (value.type === "int") return { exact: value.value };
  if (value.type === "float") return { float: value.value };
  return undefined;
}

function numbersEqual(left: Numeric, right: Numeric, tolerance: number | undefined): boolean {
  if ("exact" in left && "exact" in right) return left.exact === right.exact;
  const a = "float" in left ? left.float : Number(left.exact);
  const b = "float" in right ? right.float : Number(right.exact);
  if (tolerance !== undefined && Number.isFinite(a) && Number.isFinite(b)) return Math.abs(a - b) <= tolerance * Math.max(1, Math.abs(b));
  // Python compares an int with a float exactly: 2**53 + 1 != 2.0**53.
  if ("exact" in left) return Number.isInteger(b) && BigInt(b) === left.exact;
  if ("exact" in right) return Number.isInteger(a) && BigInt(a) === right.exact;
  return a === b;
}

function dictsEqual(left: [PythonValue, PythonValue][], right: [PythonValue, PythonValue][], options: EqualityOptions): boolean {
  if (left.length !== right.length) return false;
  // Keys compare with == as in a dict lookup (1 == 1.0 == True); tolerance never applies to keys.
  return left.every(([key, value]) => {
    const match = right.find(([otherKey]) => pythonEquals(key, otherKey));
    return match !== undefined && pythonEquals(value, match[1], options);
  });
}
