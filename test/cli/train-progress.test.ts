import { describe, expect, it } from "vitest";
import { trainProgress } from "../../src/cli/commands/train.js";
import type { ValidationRecord } from "../../src/training/loop/train-records.js";
import { TrainConfigSchema } from "../../src/training/train-config.js";

const config = TrainConfigSchema.parse({ steps: 2 });
const validation = {
  kind: "validation",
  step: 0,
  passAt1: { mean: 0.5, stderr: 0.1, n: 10, ci95: [0.3, 0.7] },
  passAt1ByTask: [],
  seconds: 3,
} as unknown as ValidationRecord;

const recordingStream = (isTTY: boolean) => {
  const written: string[] = [];
  return { stream: { isTTY, write: (text: string) => written.push(text) > 0 }, written };
};

describe("rllm train's progress lines", () => {
  it("writes plain lines without carriage returns or escape codes when stderr is not a terminal", () => {
    const { stream, written } = recordingStream(false);
    const progress = trainProgress(stream, config);
    progress.onPhase?.("step 1/2: rollouts");
    progress.onRecord?.(validation);
    expect(written).toEqual(["validation @0: pass@1 50.0% ± 10.0% (n=10) [3s]\n"]);
  });

  it("ends each step line with an ETA from the wall time per step so far", () => {
    const { stream, written } = recordingStream(false);
    let now = 0;
    const progress = trainProgress(stream, TrainConfigSchema.parse({ steps: 4 }), () => now);
    const step = (number: number) =>
      ({
        kind: "train",
        step: number,
        reward: 0.5,
        accuracy: 0.5,
        judgeAccuracy: null,
        transform: { keptGroups: 1, droppedSmallGroups: 0, droppedUniformGroups: 0 },
        trainedTokens: 10,
        update: null,
        stepSeconds: 30,
      }) as unknown as Parameters<NonNullable<typeof progress.onRecord>>[0];
    now = 75_000;
    progress.onRecord?.(step(1));
    now = 150_000;
    progress.onRecord?.(step(4));
    // 75 s per step, 3 steps left; no ETA on the last step.
    expect(written[0]).toMatch(/ · eta 3m45s\n$/);
    expect(written[1]).not.toContain("eta");
  });

  it("prints a validation's progress at each quarter of its episodes when stderr is not a terminal", () => {
    const { stream, written } = recordingStream(false);
    const progress = trainProgress(stream, config);
    for (let done = 1; done <= 8; done++) progress.onValidationProgress?.(10, done, 8);
    expect(written).toEqual(["validation after 10 steps: 2/8 episodes\n", "validation after 10 steps: 4/8 episodes\n", "validation after 10 steps: 6/8 episodes\n"]);
  });

  it("redraws the phase line in place on a terminal", () => {
    const { stream, written } = recordingStream(true);
    const progress = trainProgress(stream, config);
    progress.onPhase?.("step 1/2: rollouts");
    progress.onRecord?.(validation);
    expect(written).toEqual(["\r\x1b[Kstep 1/2: rollouts", "\r\x1b[Kvalidation @0: pass@1 50.0% ± 10.0% (n=10) [3s]\n"]);
  });
});
