import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { exportEpisodes, type ExportFormat } from "../../../src/training/export/export-episodes.js";
import { AdvantageConfigSchema } from "../../../src/training/assign-advantages.js";
import { defaultTransformOptions } from "../../../src/training/transforms/index.js";
import { scoredEpisode, tokenStep } from "../transforms/fixtures.js";

// Task t: a right two-turn episode (merged: prompt [1,2], sampled [3,4], tool [5], sampled [6]) and a wrong one.
const episodes = [
  scoredEpisode("t", 0, 1, [tokenStep([1, 2], [3, 4], [-0.1, -0.2]), tokenStep([1, 2, 3, 4, 5], [6], [-0.3])], { target: "42" }),
  scoredEpisode("t", 1, 0, [tokenStep([1, 2], [7], [-0.4])], { target: "42" }),
  scoredEpisode("u", 0, 1, [tokenStep(undefined, undefined)]),
];
const directory = mkdtempSync(path.join(tmpdir(), "rllm-export-"));

async function run(format: ExportFormat, file: string) {
  return exportEpisodes(episodes, {
    format,
    file: path.join(directory, file),
    transform: defaultTransformOptions,
    advantages: AdvantageConfigSchema.parse({ estimator: "grpo" }),
    dataSource: "arith",
    split: "train",
  });
}
const readLines = (file: string) =>
  readFileSync(path.join(directory, file), "utf8").trim().split("\n").map((line) => JSON.parse(line));

describe("export", () => {
  it("writes one JSONL row per sequence with the merged mask and the GRPO advantage", async () => {
    const { rows, metrics } = await run("jsonl", "rows.jsonl");
    expect(rows).toBe(2);
    expect(metrics.droppedMissingTokenIds).toBe(1);
    const [right, wrong] = readLines("rows.jsonl");
    expect(right.tokens).toEqual([1, 2, 3, 4, 5, 6]);
    expect(right.lossMask).toEqual([0, 0, 1, 1, 0, 1]);
    // GRPO under verl's convention on rewards [1, 0]: ±0.5 over the Bessel-corrected std sqrt(0.5)
    expect(right.advantage).toBeCloseTo(Math.SQRT1_2, 5);
    expect(wrong.advantage).toBeCloseTo(-Math.SQRT1_2, 5);
    expect(right.groupKey).toBe("t:solver");
  });

  it("writes Tinker Datums shifted by one: model_input = tokens[:-1], targets = tokens[1:]", async () => {
    await run("tinker-datums", "datums.jsonl");
    const [datum] = readLines("datums.jsonl");
    expect(datum.model_input.chunks[0]).toEqual({ type: "encoded_text", tokens: [1, 2, 3, 4, 5] });
    const inputs = datum.loss_fn_inputs;
    expect(inputs.target_tokens).toEqual({ data: [2, 3, 4, 5, 6], dtype: "int64", shape: [5] });
    expect(inputs.mask.data).toEqual([0, 1, 1, 0, 1]);
    expect(inputs.logprobs.data).toEqual([0, -0.1, -0.2, 0, -0.3]);
    // advantage only where the target token was sampled
    expect(inputs.advantages.data[0]).toBe(0);
    expect(inputs.advantages.data[1]).toBeCloseTo(Math.SQRT1_2, 5);
    expect(inputs.advantages.data[3]).toBe(0);
  });
});

describe("verl parquet export", () => {
  it("writes verl rows that hyparquet reads back with nested lists and structs intact", async () => {
    await run("verl-parquet", "rows.parquet");
    const { parquetReadObjects } = await import("hyparquet");
    const buffer = readFileSync(path.join(directory, "rows.parquet"));
    const file = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength);
    const rows = await parquetReadObjects({ file });
    expect(rows).toHaveLength(2);
    const row = rows[0]!;
    expect(row.data_source).toBe("arith");
    expect(row.prompt).toEqual([{ role: "user", content: "q" }]);
    // The episode's target, the task's ground truth (it was always "" when export read an artifact nothing wrote).
    expect(row.reward_model).toEqual({ style: "rule", ground_truth: "42" });
    expect(row.uid).toBe("t:solver");
    expect(row.prompt_ids).toEqual([1, 2]);
    expect(row.response_ids).toEqual([3, 4, 5, 6]);
    expect(row.response_mask).toEqual([1, 1, 0, 1]);
    expect(row.rollout_log_probs[0]).toBeCloseTo(-0.1, 5);
    expect(row.is_correct).toBe(true);
    // verl's schema (backends.md §2.3, examples/data_preprocess/gsm8k.py): extra_info holds split and index.
    expect(row.extra_info.split).toBe("train");
    expect(Number(row.extra_info.index)).toBe(0);
    expect(Object.keys(row)).toEqual(expect.arrayContaining(["data_source", "prompt", "ability", "reward_model", "extra_info"]));
  });
});
