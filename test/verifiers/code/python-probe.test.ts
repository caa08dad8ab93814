// `rllm grade` asks Python where it lives while it loads (python-probe.ts); the answer is validated exactly as one
// asked on the spot (find-python.ts), and handed over once.
import { describe, expect, it } from "vitest";
import { findPython } from "../../../verifiers/code/sandbox/find-python.js";
import { pythonCommand, startPythonProbe, takePythonProbe } from "../../../verifiers/code/sandbox/python-probe.js";
import { SandboxUnavailableError } from "../../../verifiers/code/sandbox/sandbox-unavailable-error.js";

describe("the Python probe asked ahead", () => {
  it("gives the same installation as a probe asked on the spot, and is handed over once", async () => {
    const command = pythonCommand();
    expect(takePythonProbe(command)).toBeUndefined();
    startPythonProbe(command);
    const answer = await takePythonProbe(command);
    expect(answer?.status).toBe(0);
    expect(findPython(command, answer)).toEqual(findPython(command));
    expect(takePythonProbe(command)).toBeUndefined();
  });

  it("is validated like any answer: a wrong one or a missing interpreter is refused, naming the command", async () => {
    expect(() => findPython("python3", { status: 0, stdout: '["/usr/bin/python3", 3]', stderr: "" })).toThrow(/"python3" is not a Python 3 interpreter/);
    startPythonProbe("/nonexistent/python3");
    const missing = await takePythonProbe("/nonexistent/python3");
    expect(() => findPython("/nonexistent/python3", missing)).toThrow(SandboxUnavailableError);
    expect(() => findPython("/nonexistent/python3", missing)).toThrow(/cannot run the Python interpreter "\/nonexistent\/python3"/);
  });
});
