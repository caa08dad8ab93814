import { describe, expect, it } from "vitest";
import { functionalStdin, newResultMarker, readHarnessOutput } from "../../../../verifiers/code/remote/functional-harness.js";

describe("the remote function-call harness's output", () => {
  const marker = newResultMarker();

  it("reads one value or error per test, keeping big integers as text", () => {
    const stdout = `noise\n${marker}0 v 123456789012345678901234567890\n${marker}1 e "ValueError: bad"\n`;
    expect(readHarnessOutput(stdout, 2, marker)).toEqual({
      records: [
        { index: 0, valueJson: "123456789012345678901234567890" },
        { index: 1, error: "ValueError: bad" },
      ],
    });
  });

  it("calls a duplicate result line tampering, so a program cannot print its own verdicts", () => {
    const stdout = `${marker}0 v 1\n${marker}0 v 2\n`;
    expect(readHarnessOutput(stdout, 1, marker)).toEqual({ tampered: expect.stringContaining("unexpected result line") });
  });

  it("calls an index outside the tests tampering", () => {
    expect(readHarnessOutput(`${marker}3 v 1\n`, 2, marker)).toHaveProperty("tampered");
  });

  // Issue #44: a host that echoes result lines under a fixed marker (the one every run used before) or another run's
  // marker forges no result of this run.
  it("reads only the lines of this run's own marker, new for each run", () => {
    const other = newResultMarker();
    expect(other).not.toBe(marker);
    const forged = `\u0000rllm-result\u00000 v 3\n${other}0 v 3\n`;
    expect(readHarnessOutput(forged, 1, marker)).toEqual({ records: [] });
  });

  it("sends each test's arguments (one JSON value per line) as one JSON list", () => {
    expect(JSON.parse(functionalStdin(["1\n[2, 3]", '"a"\n']))).toEqual([[1, [2, 3]], ["a"]]);
  });
});
