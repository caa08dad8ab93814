// The program verdict from its tests' verdicts: a failure the program could have caused decides it wherever it stands;
// a test that could not run as written (unsupported) decides it only when the program failed nothing.
import { describe, expect, it } from "vitest";
import { summarizeTests, type TestResult, type TestVerdictKind } from "../../../verifiers/code/test-verdict.js";

const tests = (...verdicts: TestVerdictKind[]): TestResult[] => verdicts.map((verdict, index) => ({ index, verdict }));

describe("summarizeTests", () => {
  it("passes only when every test was accepted", () => {
    expect(summarizeTests(tests("accepted", "accepted"))).toMatchObject({ passed: true, verdict: "accepted", passedTests: 2, totalTests: 2 });
    expect(summarizeTests([])).toMatchObject({ passed: false, verdict: "accepted", totalTests: 0 });
  });

  it("takes the program's failure over an unsupported test before it", () => {
    const verdict = summarizeTests(tests("unsupported", "wrong_answer", "not_run"));
    expect(verdict).toMatchObject({ passed: false, verdict: "wrong_answer", passedTests: 0 });
    expect(verdict.detail).toBe("test 2: wrong_answer");
  });

  it("is unsupported when the program failed nothing", () => {
    expect(summarizeTests(tests("accepted", "unsupported", "accepted"))).toMatchObject({ passed: false, verdict: "unsupported", passedTests: 2 });
  });

  it("takes the failure that stopped the run over the tests it left unrun, whatever their order", () => {
    // A stdio test that failed (index 1) stops a problem's call tests (index 0), which then did not run.
    expect(summarizeTests(tests("not_run", "runtime_error")).verdict).toBe("runtime_error");
  });
});
