import { describe, expect, it } from "vitest";
import { StepSchema } from "../../../src/core/step.js";
import { buildTokenSequences } from "../../../src/training/transforms/index.js";
import { tokenStep } from "./fixtures.js";

const steps = (...inputs: ReturnType<typeof tokenStep>[]) => inputs.map((input) => StepSchema.parse(input));

describe("multi-turn merge", () => {
  it("merges a turn whose prompt extends the previous prompt plus completion, masking only sampled tokens", () => {
    // turn 1: prompt [1,2,3] → completion [10,11]; turn 2 prompt = [1,2,3,10,11] + tool output [7,8] → completion [12]
    const result = buildTokenSequences(
      steps(tokenStep([1, 2, 3], [10, 11], [-0.5, -0.25]), tokenStep([1, 2, 3, 10, 11, 7, 8], [12], [-0.75])),
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.sequences).toHaveLength(1);
    const [sequence] = result.sequences;
    expect(sequence!.tokens).toEqual([1, 2, 3, 10, 11, 7, 8, 12]);
    expect(sequence!.lossMask).toEqual([0, 0, 0, 1, 1, 0, 0, 1]);
    expect(sequence!.samplerLogprobs).toEqual([0, 0, 0, -0.5, -0.25, 0, 0, -0.75]);
    expect(sequence!.promptLength).toBe(3);
    expect(sequence!.stepIndices).toEqual([0, 1]);
  });

  it("keeps separate sequences when a prompt does not extend the previous one (e.g. a re-rendered history)", () => {
    // turn 2's template re-rendered the assistant turn as [10,99]: no prefix, so no merge and no retokenising
    const result = buildTokenSequences(steps(tokenStep([1, 2, 3], [10, 11]), tokenStep([1, 2, 3, 10, 99, 7], [12])));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.sequences.map((sequence) => sequence.tokens)).toEqual([
      [1, 2, 3, 10, 11],
      [1, 2, 3, 10, 99, 7, 12],
    ]);
    expect(result.sequences[1]!.lossMask).toEqual([0, 0, 0, 0, 0, 0, 1]);
    expect(result.sequences[1]!.promptLength).toBe(6);
  });

  it("keeps one sequence per call in per_call mode even when prompts extend", () => {
    const result = buildTokenSequences(steps(tokenStep([1], [2]), tokenStep([1, 2, 3], [4])), "per_call");
    expect(result.ok && result.sequences.length).toBe(2);
  });

  it("reports the first step without token ids instead of building a partial sequence", () => {
    const result = buildTokenSequences(steps(tokenStep([1], [2]), tokenStep(undefined, undefined)));
    expect(result).toEqual({ ok: false, reason: "missing_token_ids", stepIndex: 1 });
  });

  it("reports logprobs that do not align with the completion ids", () => {
    const result = buildTokenSequences(steps(tokenStep([1], [2, 3], [-1])));
    expect(result).toEqual({ ok: false, reason: "missing_logprobs", stepIndex: 0 });
  });
});
