// `rllm grade` asks Python where it lives while it loads (python-probe.ts); the answer is validated exactly as one
// asked on the spot (find-python.ts), and handed over once.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findPython } from "../../../src/sandbox/local/find-python.js";
import { pythonCommand, startPythonProbe, takePythonProbe } from "../../../src/sandbox/local/python-probe.js";
import { SandboxUnavailableError } from "../../../src/sandbox/sandbox-unavailable-error.js";

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

describe("the Python probe's process", () => {
  const probeModule = fileURLToPath(new URL("../../../src/sandbox/local/python-probe.ts", import.meta.url));
  const folder = mkdtempSync(path.join(os.tmpdir(), "rllm-probe-"));
  // Stand-ins for an interpreter: one that never answers within the test, one that answers after a pause.
  const silent = path.join(folder, "silent-python");
  writeFileSync(silent, "#!/bin/sh\nsleep 30\n");
  const slow = path.join(folder, "slow-python");
  writeFileSync(slow, '#!/bin/sh\nsleep 0.3\necho \'["/usr/bin/python3", "/usr", "3.11.2", []]\'\n');
  chmodSync(silent, 0o755);
  chmodSync(slow, 0o755);
  const runScript = (script: string) =>
    spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 20_000 });

  it("does not hold the process open when nobody takes its answer", () => {
    const result = runScript(`import { startPythonProbe } from ${JSON.stringify(probeModule)}; startPythonProbe(${JSON.stringify(silent)}); console.log("started");`);
    // Exited on its own, long before the stand-in's 30 s (spawnSync would have killed it at 20 s: signal SIGTERM).
    expect(result.signal).toBeNull();
    expect(result.stdout.trim()).toBe("started");
  });

  it("holds the process open while a taker waits for the answer", () => {
    const result = runScript(
      `import { startPythonProbe, takePythonProbe } from ${JSON.stringify(probeModule)}; startPythonProbe(${JSON.stringify(slow)}); ` +
        `const answer = await takePythonProbe(${JSON.stringify(slow)}); console.log(answer.status, answer.stdout.trim());`,
    );
    expect(result.stdout.trim()).toBe('0 ["/usr/bin/python3", "/usr", "3.11.2", []]');
  });
});
