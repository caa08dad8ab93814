/**
 * LiveCodeBench's private tests: a JSON string, or (code_generation_lite) base64 of zlib of a pickle of that JSON string
 * (lcb_runner/benchmarks/code_generation.py: json.loads(pickle.loads(zlib.decompress(base64.b64decode(...))))).
 * The pickle is read without an unpickler: only the opcodes that pickle one str are accepted, anything else is refused,
 * so a crafted file cannot run code or build objects here.
 */
import { inflateSync } from "node:zlib";

/** The pickle opcodes of one str (pickletools names); each is followed by the bytes of its argument. */
const opcodes = {
  PROTO: 0x80,
  FRAME: 0x95,
  SHORT_BINUNICODE: 0x8c,
  BINUNICODE: 0x58,
  BINUNICODE8: 0x8d,
  MEMOIZE: 0x94,
  BINPUT: 0x71,
  LONG_BINPUT: 0x72,
  STOP: 0x2e,
} as const;

/** Thrown for private tests that are not a JSON string nor a pickled str: the row cannot be graded, never a pass. */
export class PrivateTestsError extends Error {
  constructor(reason: string) {
    super(`private_test_cases: ${reason}`);
    this.name = "PrivateTestsError";
  }
}

/** The private test list of a code_generation_lite row: JSON as is, else base64 → zlib → one pickled str → JSON. */
export function decodePrivateTests(encoded: string): unknown[] {
  const text = encoded.trimStart().startsWith("[") ? encoded : unpickleString(inflate(encoded));
  let tests: unknown;
  try {
    tests = JSON.parse(text);
  } catch (error) {
    throw new PrivateTestsError(`the decoded text is not JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(tests)) throw new PrivateTestsError("the decoded JSON is not a list of tests");
  return tests;
}

function inflate(encoded: string): Buffer {
  if (!/^[A-Za-z0-9+/=\s]*$/.test(encoded)) throw new PrivateTestsError("neither JSON nor base64");
  try {
    return inflateSync(Buffer.from(encoded, "base64"));
  } catch (error) {
    throw new PrivateTestsError(`not zlib data (${(error as Error).message})`);
  }
}

/** The str a pickle holds, reading only the opcodes of `opcodes`; any other opcode, a second value or a trailing byte is refused. */
export function unpickleString(bytes: Buffer): string {
  let position = 0;
  let value: string | undefined;
  const take = (length: number): Buffer => {
    if (position + length > bytes.length) throw new PrivateTestsError("the pickle ends early");
    const slice = bytes.subarray(position, position + length);
    position += length;
    return slice;
  };
  const pushString = (length: number | bigint) => {
    if (value !== undefined) throw new PrivateTestsError("the pickle holds more than one value");
    if (BigInt(length) > BigInt(bytes.length)) throw new PrivateTestsError("the pickle ends early");
    value = take(Number(length)).toString("utf8");
  };
  while (position < bytes.length) {
    const opcode = bytes[position++]!;
    switch (opcode) {
      case opcodes.PROTO:
        if (take(1)[0]! > 5) throw new PrivateTestsError("unknown pickle protocol");
        break;
      case opcodes.FRAME:
        take(8); // the frame's length: framing only, the opcodes inside are read as any others
        break;
      case opcodes.SHORT_BINUNICODE:
        pushString(take(1)[0]!);
        break;
      case opcodes.BINUNICODE:
        pushString(take(4).readUInt32LE(0));
        break;
      case opcodes.BINUNICODE8:
        pushString(take(8).readBigUInt64LE(0));
        break;
      case opcodes.MEMOIZE:
        break;
      case opcodes.BINPUT:
        take(1);
        break;
      case opcodes.LONG_BINPUT:
        take(4);
        break;
      case opcodes.STOP:
        if (value === undefined) throw new PrivateTestsError("the pickle holds no string");
        if (position !== bytes.length) throw new PrivateTestsError("bytes after the pickle's STOP");
        return value;
      default:
        throw new PrivateTestsError(`refused pickle opcode 0x${opcode.toString(16).padStart(2, "0")} at byte ${position - 1}: only a pickled str is accepted`);
    }
  }
  throw new PrivateTestsError("the pickle has no STOP");
}
