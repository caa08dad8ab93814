import { describe, expect, it } from "vitest";
import { parsePythonJson, pythonEquals } from "../../../verifiers/code/python-value.js";

/** The launcher's encoding (tagged) against expected JSON, compared with Python's ==. */
function equals(prediction: string, expected: string, floatTolerance?: number): boolean {
  return pythonEquals(parsePythonJson(prediction, { tagged: true }), parsePythonJson(expected), { floatTolerance });
}

// [launcher output, expected JSON, Python ==]
const cases: [string, string, boolean][] = [
  ["3", "3", true],
  ["3", "3.0", true],
  ["true", "1", true],
  ["true", "true", true],
  ["0", "false", true],
  ["[1,2]", "[1, 2]", true],
  ["[1,2]", "[2, 1]", false],
  ["9007199254740993", "9007199254740992", false],
  ["9007199254740993", "9007199254740993", true],
  ["9007199254740993", "9007199254740992.0", false],
  ["1e+16", "10000000000000000", true],
  ["NaN", "NaN", false],
  ["Infinity", "Infinity", true],
  ['"a"', '"a"', true],
  ['"1"', "1", false],
  ["null", "null", true],
  ["null", "[]", false],
  ['{"$dict":[["a",1]]}', '{"a": 1}', true],
  ['{"$dict":[[1,1]]}', '{"1": 1}', false],
  ['{"$dict":[["a",1],["b",[1,2]]]}', '{"b": [1, 2], "a": 1}', true],
  ['{"$other":"set"}', "[1]", false],
  ['{"$hex":"-0xff"}', "-255", true],
  ["0.30000000000000004", "0.3", false],
];

describe("pythonEquals", () => {
  it.each(cases)("%s == %s is %s", (prediction, expected, isEqual) => {
    expect(equals(prediction, expected)).toBe(isEqual);
  });

  it("applies a float tolerance only when asked", () => {
    expect(equals("0.30000000000000004", "0.3", 1e-9)).toBe(true);
    expect(equals("[0.1, 2]", "[0.10000001, 2]", 1e-9)).toBe(false);
  });
});

describe("parsePythonJson", () => {
  it("keeps big ints exact", () => {
    expect(parsePythonJson("123456789012345678901234567890")).toEqual({ type: "int", value: 123456789012345678901234567890n });
  });

  it("decodes escapes, including surrogate pairs", () => {
    expect(parsePythonJson('"a\\n\\u00e9\\ud83d\\ude00"')).toEqual({ type: "str", value: "a\né😀" });
  });

  it("rejects trailing data and bad tokens with their position", () => {
    expect(() => parsePythonJson("1 2")).toThrow(/extra data at character 2/);
    expect(() => parsePythonJson("[1,")).toThrow();
  });
});
