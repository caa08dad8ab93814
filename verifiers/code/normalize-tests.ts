/** Turns every test encoding we meet (LiveCodeBench, DeepCoder, TACO/APPS, PrimeIntellect, HumanEval asserts) into one list. */
import { z } from "zod";

/** One normalised test: stdin/stdout text, a function call (one JSON value per argument per line → JSON), or assert code. */
export const TestCaseSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("stdin"), input: z.string(), output: z.string() }),
  z.object({ kind: z.literal("functional"), input: z.string(), output: z.string() }),
  z.object({ kind: z.literal("assert"), code: z.string() }),
]);
export type TestCase = z.infer<typeof TestCaseSchema>;

export interface NormalizedTests {
  tests: TestCase[];
  /** The function under test, for functional tests. */
  fnName?: string;
}

/** Thrown when a test payload cannot be decoded: an infrastructure error, never a pass. */
export class TestDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TestDecodeError";
  }
}

const TestEntrySchema = z
  .object({
    input: z.unknown().optional(),
    output: z.unknown().optional(),
    testtype: z.string().optional(),
    type: z.string().optional(),
    code: z.string().optional(),
    fn_name: z.string().nullish(),
    metadata: z.unknown().optional(),
  })
  .passthrough();

// Declared test types we know (testtype or type, lower-cased); "" is an entry that declares none.
const stdinTypes = new Set(["stdin", "stdin_stdout", "stdio"]);
const functionalTypes = new Set(["functional", "function_call"]);

const TacoSchema = z.object({ inputs: z.array(z.unknown()), outputs: z.array(z.unknown()), fn_name: z.string().nullish() }).passthrough();

/**
 * Normalises `raw` tests: a JSON string of either form; a list of `{input, output, testtype|type, metadata.func_name}`
 * or `{testtype: "assert", code}`; or a TACO/APPS dict `{inputs, outputs, fn_name?}` (a list-valued output is
 * collapsed to its first element for function calls, as rLLM does). Throws TestDecodeError; an empty list is an error.
 */
export function normalizeTests(raw: unknown, fnName?: string | null): NormalizedTests {
  const decoded = typeof raw === "string" ? decodeJson(raw, "tests") : raw;
  const result = Array.isArray(decoded) ? fromList(decoded, fnName ?? undefined) : fromTaco(decoded, fnName ?? undefined);
  if (result.tests.length === 0) throw new TestDecodeError("no tests: a problem without tests cannot be graded");
  if (result.tests.some((test) => test.kind === "functional") && !result.fnName) {
    throw new TestDecodeError("functional tests need a function name (fn_name or metadata.func_name)");
  }
  return result;
}

function decodeJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new TestDecodeError(`${what} is a string but not JSON: ${(error as Error).message}`);
  }
}

function fromList(entries: unknown[], fnName: string | undefined): NormalizedTests {
  let name = fnName;
  const tests = entries.map((entry, index): TestCase => {
    const parsed = TestEntrySchema.safeParse(entry);
    if (!parsed.success) throw new TestDecodeError(`test ${index}: expected an object with input/output or code`);
    const test = parsed.data;
    const declared = (test.testtype ?? test.type ?? "").toLowerCase();
    if (declared !== "" && declared !== "assert" && !stdinTypes.has(declared) && !functionalTypes.has(declared)) {
      const known = ["assert", ...stdinTypes, ...functionalTypes].join(", ");
      throw new TestDecodeError(`test ${index}: unknown test type "${test.testtype ?? test.type}" (known: ${known})`);
    }
    if (declared === "assert" || (test.code !== undefined && test.input === undefined)) {
      if (test.code === undefined) throw new TestDecodeError(`test ${index}: assert test without "code"`);
      return { kind: "assert", code: test.code };
    }
    name ??= test.fn_name ?? metadataFunctionName(test.metadata);
    if (test.input === undefined || test.output === undefined) throw new TestDecodeError(`test ${index}: missing "input" or "output"`);
    const isFunctional = functionalTypes.has(declared) || (declared === "" && name !== undefined);
    if (isFunctional) return { kind: "functional", input: argumentLines(test.input, index), output: jsonText(test.output, index, true) };
    return { kind: "stdin", input: stdioText(test.input, index, "input"), output: stdioText(test.output, index, "output") };
  });
  return { tests, fnName: name };
}

function fromTaco(decoded: unknown, fnName: string | undefined): NormalizedTests {
  const parsed = TacoSchema.safeParse(decoded);
  if (!parsed.success) throw new TestDecodeError("tests must be a list of test objects or a {inputs, outputs} dict");
  const { inputs, outputs } = parsed.data;
  const name = fnName ?? parsed.data.fn_name ?? undefined;
  if (inputs.length !== outputs.length) throw new TestDecodeError(`tests have ${inputs.length} inputs but ${outputs.length} outputs`);
  const tests = inputs.map((input, index): TestCase => {
    if (name !== undefined) {
      // TACO/APPS call-based: inputs[i] is the argument list, outputs[i] the return value wrapped in a list.
      const output = Array.isArray(outputs[index]) && (outputs[index] as unknown[]).length === 1 ? (outputs[index] as unknown[])[0] : outputs[index];
      const argumentsList = Array.isArray(input) ? input : [input];
      return { kind: "functional", input: argumentsList.map((argument) => JSON.stringify(argument)).join("\n"), output: JSON.stringify(output) };
    }
    return { kind: "stdin", input: stdioText(input, index, "input"), output: stdioText(outputs[index], index, "output") };
  });
  return { tests, fnName: name };
}

function metadataFunctionName(metadata: unknown): string | undefined {
  const value = typeof metadata === "string" ? safeJson(metadata) : metadata;
  if (value && typeof value === "object" && "func_name" in value) {
    const name = (value as { func_name: unknown }).func_name;
    return typeof name === "string" && name !== "" ? name : undefined;
  }
  return undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Function-call input: already "one JSON value per line" text, or a list of argument values (PrimeIntellect). */
function argumentLines(input: unknown, index: number): string {
  if (typeof input === "string") return input;
  if (Array.isArray(input)) return input.map((argument) => JSON.stringify(argument)).join("\n");
  throw new TestDecodeError(`test ${index}: function-call input must be a string or a list of arguments`);
}

/** Function-call output as JSON text; a PrimeIntellect list `[value]` is unwrapped like TACO's. */
function jsonText(output: unknown, index: number, unwrapSingleton: boolean): string {
  if (typeof output === "string") return output;
  if (unwrapSingleton && Array.isArray(output) && output.length === 1) return JSON.stringify(output[0]);
  if (output === undefined) throw new TestDecodeError(`test ${index}: missing output`);
  return JSON.stringify(output);
}

/** stdin/stdout text; a list of lines is joined with newlines. */
function stdioText(value: unknown, index: number, field: string): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((line) => typeof line === "string")) return value.join("\n");
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  throw new TestDecodeError(`test ${index}: ${field} must be text`);
}
