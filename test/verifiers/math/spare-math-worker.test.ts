import { afterEach, describe, expect, it } from "vitest";
import { MathWorkerPool } from "../../../verifiers/math/math-worker-pool.js";
import { startSpareMathWorker, takeSpareMathWorker } from "../../../verifiers/math/spare-math-worker.js";

describe("the spare math grading thread", () => {
  afterEach(async () => {
    await takeSpareMathWorker()?.worker.terminate();
  });

  it("is adopted by the first pool that starts a thread, which grades on it", async () => {
    startSpareMathWorker();
    const pool = new MathWorkerPool({ size: 1, timeoutMs: 30_000 });
    try {
      const verdict = await pool.grade({ response: "\\boxed{1/2}", groundTruth: "0.5" });
      expect(verdict.correct).toBe(true);
      // Adopted: nothing is left to take.
      expect(takeSpareMathWorker()).toBeUndefined();
    } finally {
      await pool.close();
    }
  });

  it("is handed over once, and starting again while one waits starts no second thread", async () => {
    startSpareMathWorker();
    const first = takeSpareMathWorker();
    startSpareMathWorker();
    startSpareMathWorker();
    const second = takeSpareMathWorker();
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    expect(second?.worker).not.toBe(first?.worker);
    expect(takeSpareMathWorker()).toBeUndefined();
    await Promise.all([first?.worker.terminate(), second?.worker.terminate()]);
  });
});
