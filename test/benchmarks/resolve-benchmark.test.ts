import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasBenchmark, resolveBenchmark } from "../../benchmarks/resolve-benchmark.js";
import { writeLocalDataset } from "../../src/datasets/local-dataset.js";

const home = mkdtempSync(path.join(os.tmpdir(), "rllm-resolve-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));
beforeAll(() => {
  writeLocalDataset(
    home,
    { kind: "curated", name: "mine", createdAt: "2026-12-04T00:00:00Z", benchmark: "arith", command: ["rllm"], splits: { train: { rows: 1 } }, rows: [] },
    { train: [{ id: "t1", question: "What is 1+2?", ground_truth: "3", messages: [] }] },
  );
});

describe("resolveBenchmark", () => {
  it("finds a built-in benchmark before any local dataset", async () => {
    expect((await resolveBenchmark("arith", home)).defaultCookbook).toBe("arith");
  });

  it("serves a local dataset's rows as tasks run by its source benchmark's cookbook", async () => {
    expect(hasBenchmark("mine", home)).toBe(true);
    const benchmark = await resolveBenchmark("mine", home);
    expect(benchmark.defaultCookbook).toBe("arith");
    const tasks = await benchmark.loadTasks({ home, split: "train" });
    expect(tasks.map((task) => [task.id, task.instruction, task.metadata.ground_truth])).toEqual([["t1", "What is 1+2?", "3"]]);
  });

  it("serves the first split when the default test split is asked of a dataset without one, and refuses other missing splits", async () => {
    const benchmark = await resolveBenchmark("mine", home);
    expect(await benchmark.loadTasks({ home, split: "test" })).toHaveLength(1);
    await expect(benchmark.loadTasks({ home, split: "val" })).rejects.toThrow('dataset mine: no split "val" (it has train)');
  });

  it("lists built-in and local names for an unknown one", async () => {
    expect(hasBenchmark("nope", home)).toBe(false);
    await expect(resolveBenchmark("nope", home)).rejects.toThrow(/arith.*mine/s);
  });
});
