// `rllm grade --verifier code` opens its sandbox slots while the CLI starts (start-grading-early.ts); the run adopts
// that grader only when it asks for the same options, and a grader nobody takes is closed.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startGradingEarly, stopGradingEarly } from "../../../src/cli/start-grading-early.js";
import { CodeGrader } from "../../../verifiers/code/code-grader.js";
import { openProgramGrader } from "../../../verifiers/code/open-program-grader.js";
import { closeSpareCodeGrader, startSpareCodeGrader, takeSpareCodeGrader } from "../../../verifiers/code/spare-code-grader.js";

const tests = [{ kind: "stdin" as const, input: "", output: "7\n" }];

describe("the spare code grader", () => {
  afterEach(async () => {
    vi.restoreAllMocks();
    await closeSpareCodeGrader();
  });

  it("is adopted by the run that opens a grader with the same options, and grades there", async () => {
    const spare = startSpareCodeGrader({ concurrency: 1 });
    // What the code verifier passes: the same options, spelled with undefined fields and empty limits.
    const grader = await openProgramGrader({ concurrency: 1, timeoutSeconds: undefined, runAllTests: undefined, limits: {} });
    try {
      expect(grader).toBe(await spare);
      expect(takeSpareCodeGrader({ concurrency: 1 })).toBeUndefined();
      expect((await grader.grade({ program: "print(3 + 4)", tests })).passed).toBe(true);
    } finally {
      await grader.close();
    }
  });

  it("is closed, not adopted, when the run asks for other options", async () => {
    const close = vi.spyOn(CodeGrader.prototype, "close");
    const spare = startSpareCodeGrader({ concurrency: 1 });
    const spareGrader = await spare;
    const grader = await openProgramGrader({ concurrency: 1, timeoutSeconds: 9 });
    try {
      expect(grader).not.toBe(spareGrader);
      await vi.waitFor(() => expect(close.mock.contexts).toContain(spareGrader));
      expect((await grader.grade({ program: "print(3 + 4)", tests })).passed).toBe(true);
    } finally {
      await grader.close();
    }
  });

  it("is closed by closeSpareCodeGrader when no run took it", async () => {
    const close = vi.spyOn(CodeGrader.prototype, "close");
    const spareGrader = await startSpareCodeGrader({ concurrency: 1 });
    await closeSpareCodeGrader();
    expect(close.mock.contexts).toContain(spareGrader);
    expect(takeSpareCodeGrader({ concurrency: 1 })).toBeUndefined();
  });
});

describe("rllm grade's early start", () => {
  const folder = mkdtempSync(path.join(os.tmpdir(), "rllm-early-"));
  const input = path.join(folder, "rows.jsonl");
  writeFileSync(input, '{"response": "print(7)", "tests": []}\n\n{"response": "print(7)", "tests": []}\n');
  const argv = (...flags: string[]) => ["node", "rllm", "grade", "--verifier", "code", "--input", input, ...flags];

  afterEach(async () => {
    await stopGradingEarly();
  });

  it("opens the grader the flags ask for: as many slots as rows at most", async () => {
    await startGradingEarly(argv("--concurrency", "4"));
    const taken = takeSpareCodeGrader({ concurrency: 2 });
    expect(taken).toBeDefined();
    // Handed over: the test closes it, as the run would.
    await (await taken!).close();
  });

  it("does not read a large input only to count its rows: it opens the slots the flag asks for", async () => {
    const large = path.join(folder, "large.jsonl");
    writeFileSync(large, `{"response": "print(7)  # ${"x".repeat(1024 * 1024)}", "tests": []}\n`);
    await startGradingEarly(["node", "rllm", "grade", "--verifier", "code", "--input", large, "--concurrency", "2"]);
    const taken = takeSpareCodeGrader({ concurrency: 2 });
    expect(taken).toBeDefined();
    await (await taken!).close();
  });

  it("opens none for flags that change the grader, an unreadable input, or another verifier", async () => {
    for (const flags of [argv("--timeout", "3"), argv("--set", "memoryMb=64"), argv("--run-all-tests"), argv("--concurrency", "0")]) {
      await startGradingEarly(flags);
      expect(takeSpareCodeGrader({ concurrency: 2 }), flags.join(" ")).toBeUndefined();
    }
    await startGradingEarly(["node", "rllm", "grade", "--verifier", "code", "--input", path.join(folder, "missing.jsonl")]);
    expect(takeSpareCodeGrader({ concurrency: 1 })).toBeUndefined();
  });
});
