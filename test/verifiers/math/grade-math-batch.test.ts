import { describe, expect, it } from "vitest";
import { jobsPerWorker, workerCount } from "../../../verifiers/math/grade-math-batch.js";
import { extractMathAnswer, gradeMathBatch, MathWorkerPool } from "../../../verifiers/math/index.js";

// Two hundred 64-digit factorials near 4900 take over a second here (forty of them took 300–500 ms on a quiet machine),
// far past the 300 ms limit below: a stand-in for a pathological answer (with 240 or more, a guard answers at once). The
// other checks take a few ms of CPU; the limit leaves them room on a loaded machine, where a fresh thread's first check
// once missed a 100 ms limit while other test runs shared the two cores.
const factorials = Array.from({ length: 200 }, (_, index) => `${4800 + index}!`).join("+");
const limitMs = 300;
// A grading thread that exits on cue (test/fixtures/math/dying-math-worker.ts).
const dyingWorker = new URL("../../fixtures/math/dying-math-worker.js", import.meta.url);
const pathological = { response: `\\boxed{\\frac{\\sqrt{2}}{${factorials}}}`, groundTruth: "\\frac{\\sqrt{3}}{4900!}" };

describe("gradeMathBatch", () => {
  it("returns one verdict per job, in order, from several worker threads", async () => {
    const jobs = Array.from({ length: jobsPerWorker + 1 }, (_, index) => ({ response: `\\boxed{${index}}`, groundTruth: String(index % 2 === 0 ? index : index + 1) }));
    const verdicts = await gradeMathBatch(jobs, { concurrency: 2 });
    expect(verdicts.map((verdict) => verdict.correct)).toEqual(jobs.map((_, index) => index % 2 === 0));
    expect(verdicts[4]).toMatchObject({ extracted: "4", reward: 1 });
  });

  it("grades a check past the time limit as not equivalent and timed out, and keeps grading the others", async () => {
    const progress: number[] = [];
    const verdicts = await gradeMathBatch(
      [{ response: "\\boxed{1}", groundTruth: "1" }, pathological, { response: "\\boxed{x^2+2x+1}", groundTruth: "(x+1)^2" }],
      { concurrency: 1, timeoutMs: limitMs, onProgress: (done) => progress.push(done) },
    );
    expect(verdicts[1]).toMatchObject({ correct: false, reward: 0, timedOut: true });
    expect(verdicts[1]!.reason).toMatch(/timed out after 300 ms/);
    expect(verdicts[0]!.correct).toBe(true);
    expect(verdicts[2]!.correct).toBe(true);
    expect(progress).toEqual([1, 2, 3]);
  });

  it("starts one worker thread per jobsPerWorker jobs, at most the concurrency: a 3-row file starts one", () => {
    expect(workerCount(3, 16)).toBe(1);
    expect(workerCount(jobsPerWorker, 16)).toBe(1);
    expect(workerCount(jobsPerWorker + 1, 16)).toBe(2);
    expect(workerCount(100 * jobsPerWorker, 16)).toBe(16);
    expect(workerCount(1, 0)).toBe(1);
  });

  it("applies the batch policy to every job", async () => {
    const verdicts = await gradeMathBatch([{ response: "\\boxed{2, 1}", groundTruth: "1, 2" }], { policy: { unorderedLists: false } });
    expect(verdicts[0]!.correct).toBe(false);
  });
});

describe("MathWorkerPool", () => {
  it("reports a job whose own policy is invalid as an infrastructure error, and grades the others", async () => {
    const pool = new MathWorkerPool({ size: 1, timeoutMs: 5000 });
    try {
      const invalid = await pool.grade({ response: "\\boxed{1}", groundTruth: "1", policy: { minSignificantDigits: 0 } });
      expect(invalid).toMatchObject({ correct: false, reward: 0, infraError: true });
      expect(invalid.reason).toMatch(/^grader error: .*minSignificantDigits/s);
      expect(await pool.grade({ response: "\\boxed{1}", groundTruth: "1" })).toMatchObject({ correct: true });
    } finally {
      await pool.close();
    }
  });

  it("scores a job whose grading thread died as a 0 (unparseable) when a control check passes right after", async () => {
    const pool = new MathWorkerPool({ size: 1, timeoutMs: 5000, workerModule: dyingWorker });
    try {
      const [killer, next] = await Promise.all([
        pool.grade({ response: "\\boxed{kill-the-thread}", groundTruth: "1" }),
        pool.grade({ response: "\\boxed{1}", groundTruth: "1" }),
      ]);
      expect(killer).toMatchObject({ correct: false, reward: 0 });
      expect(killer.infraError).toBeUndefined();
      expect(killer.reason).toMatch(/^unparseable: the grading thread died on this answer/);
      expect(next).toMatchObject({ correct: true });
    } finally {
      await pool.close();
    }
  });

  it("reports a thread death as an infrastructure error only when the control check fails too", async () => {
    const pool = new MathWorkerPool({ size: 1, timeoutMs: 5000, workerModule: new URL(`${dyingWorker.href}?always`) });
    try {
      const verdict = await pool.grade({ response: "\\boxed{1}", groundTruth: "1" });
      expect(verdict).toMatchObject({ correct: false, reward: 0, infraError: true });
      expect(verdict.reason).toMatch(/grader worker exited, and a control check failed right after/);
    } finally {
      await pool.close();
    }
  });

  it("replaces a timed-out worker and grades later jobs on the fresh one", async () => {
    const pool = new MathWorkerPool({ size: 1, timeoutMs: limitMs });
    try {
      const stuck = await pool.grade(pathological);
      expect(stuck.timedOut).toBe(true);
      const next = await pool.grade({ response: "\\boxed{\\frac{1}{2}}", groundTruth: "0.5" });
      expect(next).toMatchObject({ correct: true, reward: 1 });
    } finally {
      await pool.close();
    }
  });
});

describe("extractMathAnswer", () => {
  it("gives equal keys to equal answers written differently, and different keys to different answers", () => {
    expect(extractMathAnswer("\\boxed{\\frac{1}{2}}")).toBe("0.5");
    expect(extractMathAnswer("so the answer is $0.5$")).toBe("0.5");
    expect(extractMathAnswer("\\boxed{x = 1/2}")).toBe("0.5");
    expect(extractMathAnswer("\\boxed{5 \\sqrt { 3 }}")).toBe(extractMathAnswer("\\boxed{5\\sqrt3}"));
    expect(extractMathAnswer("\\boxed{(1, 2)}")).not.toBe(extractMathAnswer("\\boxed{(2, 1)}"));
    expect(extractMathAnswer("I need more information to decide anything about this particular question at all.")).toBeUndefined();
  });

  it("keys an answer longer than the grader parses by its text, without parsing it", () => {
    const sum = `${"1 + ".repeat(600)}1`;
    expect(extractMathAnswer(`\\boxed{${sum}}`)).toBe(sum.replace(/\s+/g, ""));
    // The same sum within the limit is parsed, and votes with its value.
    expect(extractMathAnswer(`\\boxed{${"1+".repeat(600)}1}`)).toBe("601");
  });
});
