import { describe, expect, it } from "vitest";
import { normalizeTests, TestDecodeError } from "../../../verifiers/code/normalize-tests.js";

describe("normalizeTests", () => {
  it("reads a LiveCodeBench stdin list given as a JSON string", () => {
    const raw = JSON.stringify([{ input: "1\n", output: "2\n", testtype: "stdin" }]);
    expect(normalizeTests(raw)).toEqual({ tests: [{ kind: "stdin", input: "1\n", output: "2\n" }], fnName: undefined });
  });

  it("reads DeepCoder stdin_stdout entries", () => {
    const { tests } = normalizeTests([{ input: "1", output: "2", testtype: "stdin_stdout", metadata: { func_name: null } }]);
    expect(tests).toEqual([{ kind: "stdin", input: "1", output: "2" }]);
  });

  it("takes the function name from metadata.func_name of functional entries", () => {
    const result = normalizeTests([{ input: "[1]\n2", output: "3", testtype: "functional", metadata: { func_name: "f" } }]);
    expect(result).toEqual({ tests: [{ kind: "functional", input: "[1]\n2", output: "3" }], fnName: "f" });
  });

  it("converts a TACO call-based dict: argument lists to JSON lines, [value] outputs unwrapped", () => {
    const result = normalizeTests({ inputs: [[[1, 2], 3]], outputs: [[[4, 5]]], fn_name: "g" });
    expect(result).toEqual({ tests: [{ kind: "functional", input: "[1,2]\n3", output: "[4,5]" }], fnName: "g" });
  });

  it("converts a TACO stdin dict, joining line lists", () => {
    const result = normalizeTests(JSON.stringify({ inputs: ["1 2\n"], outputs: [["3", "4"]] }));
    expect(result.tests).toEqual([{ kind: "stdin", input: "1 2\n", output: "3\n4" }]);
  });

  it("reads PrimeIntellect function_call entries with argument lists", () => {
    const result = normalizeTests([{ type: "function_call", fn_name: "h", input: ["ab", 2], output: ["abab"] }]);
    expect(result).toEqual({ tests: [{ kind: "functional", input: '"ab"\n2', output: '"abab"' }], fnName: "h" });
  });

  it("keeps assert tests as code", () => {
    expect(normalizeTests([{ testtype: "assert", code: "assert f(1) == 2" }]).tests).toEqual([{ kind: "assert", code: "assert f(1) == 2" }]);
  });

  it.each([
    ["an empty list", "[]"],
    ["a payload that is not JSON", "{not json"],
    ["a dict without inputs", { cases: [] }],
    ["functional tests without a function name", [{ input: "1", output: "1", testtype: "functional" }]],
    ["unequal TACO inputs and outputs", { inputs: ["1"], outputs: [] }],
    ["an unknown test type", [{ input: "", output: "1\n", testtype: "weird" }]],
  ])("refuses %s as an infrastructure error", (_name, raw) => {
    expect(() => normalizeTests(raw)).toThrow(TestDecodeError);
  });

  it("names the unknown test type instead of running the test as stdin", () => {
    expect(() => normalizeTests([{ input: "", output: "1\n", testtype: "weird" }])).toThrow(/test 0: unknown test type "weird"/);
  });
});
