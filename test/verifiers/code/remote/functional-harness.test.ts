import { describe, expect, it } from "vitest";
import { functionalStdin, readHarnessOutput, resultMarker } from "../../../../verifiers/code/remote/functional-harness.js";

describe("the remote function-call harness's output", () => {
  it("reads one value or error per test, keeping big integers as text", () => {
    const stdout = `noise\n${resultMarker}0 v 123456789012345678901234567890\n${resultMarker}1 e "ValueError: bad"\n`;
    expect(readHarnessOutput(stdout, 2)).toEqual({
      records: [
        { index: 0, valueJson: "123456789012345678901234567890" },
        { index: 1, error: "ValueError: bad" },
      ],
    });
  });

  it("calls a duplicate result line tampering, so a program cannot print its own verdicts", () => {
    const stdout = `${resultMarker}0 v 1\n${resultMarker}0 v 2\n`;
    expect(readHarnessOutput(stdout, 1)).toEqual({ tampered: expect.stringContaining("unexpected result line") });
  });

  it("calls an index outside the tests tampering", () => {
    expect(readHarnessOutput(`${resultMarker}3 v 1\n`, 2)).toHaveProperty("tampered");
  });

  it("sends each test's arguments (one JSON value per line) as one JSON list", () => {
    expect(JSON.parse(functionalStdin(["1\n[2, 3]", '"a"\n']))).toEqual([[1, [2, 3]], ["a"]]);
  });
});
