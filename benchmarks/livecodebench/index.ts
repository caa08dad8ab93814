/**
 * LiveCodeBench code generation (livecodebench/code_generation_lite, releases v1-v6): stdin/stdout and LeetCode
 * function problems graded on their public and private tests by the deepcoder cookbook (LiveCodeBench's prompt, as
 * rLLM's DeepCoder flow sends it). `--split` picks the release or a contest-date window (release-window.ts).
 */
import { packagePath, readUniqueJsonlRows, type Benchmark } from "rllm-ts/core";
import { findCachedSplit } from "rllm-ts/datasets";
import { DeepcoderRowSchema, deepcoderTask } from "../deepcoder/deepcoder-row.js";
import { livecodebenchRow } from "./livecodebench-row.js";
import { releaseWindow } from "./release-window.js";

const bundledSample = "benchmarks/livecodebench/sample.jsonl";

export const livecodebenchBenchmark: Benchmark = {
  name: "livecodebench",
  description:
    "LiveCodeBench code generation (code_generation_lite v1-v6): Codeforces/AtCoder stdin programs and LeetCode functions, public + private tests; " +
    "--split release_v5 or 2024-08-01..2025-02-01 picks the window (1 bundled problem).",
  defaultCookbook: "deepcoder",
  bundledSample,
  hub: {
    repo: "livecodebench/code_generation_lite",
    revision: "0fe84c3912ea0c4d4a78037083943e8f0c4dd505",
    // The loader's ALLOWED_FILES: release_v<n> is test.jsonl … test<n>.jsonl; all six are pulled, each row keeps its release.
    files: { test: ["test.jsonl", "test2.jsonl", "test3.jsonl", "test4.jsonl", "test5.jsonl", "test6.jsonl"] },
    toRow: (row, _index, _split, file) => livecodebenchRow(row, file),
  },
  catalog: { kind: "code", size: "1,055 problems (release_v6)", licence: "CC (per the dataset card)", grader: "code verifier, every public and private test" },
  async loadTasks(options) {
    const window = releaseWindow(options.split ?? "test");
    const file = options.dataFile ?? findCachedSplit(options.home, "livecodebench", "test") ?? packagePath(bundledSample);
    return readUniqueJsonlRows(file, DeepcoderRowSchema).filter(window).map(deepcoderTask);
  },
};
