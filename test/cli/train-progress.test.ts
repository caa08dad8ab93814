import { describe, expect, it } from "vitest";
import { createRng } from "../../src/core/random.js";
import { trainProgress } from "../../src/cli/train-progress.js";
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

const trainRecord = (step: number) => ({
  kind: "train",
  step,
  reward: 0.5,
  accuracy: 0.5,
  judgeAccuracy: null,
  transform: { keptGroups: 1, droppedSmallGroups: 0, droppedUniformGroups: 0 },
  trainedTokens: 10,
  update: null,
  stepSeconds: 30,
});

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

  it("ends each step line with an ETA: the steps left times the time per step, plus the validations left", () => {
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
    // 75 s per step, 3 steps left and the final validation (not yet timed: a step's time stands in); no ETA at the end.
    expect(written[0]).toMatch(/ · eta 5m00s\n$/);
    expect(written[1]).toMatch(/ · eta 1m15s\n$/);
  });

  // The run of issue 49: 20 steps, validations before step 1, after step 10 and after step 20 (55-75 s each), steps of
  // 15-25 s. The old ETA said 19m45s at step 1 of a 9m42s run and 26 s at step 19 with 85 s left.
  it("estimates the time left within 30% from the third step on, counting every validation left, the last included", () => {
    const random = createRng(49);
    const steps = 20;
    const every = 10;
    const timeline: { kind: "train" | "validation"; step: number; seconds: number }[] = [{ kind: "validation", step: 0, seconds: 55 + 20 * random() }];
    for (let step = 1; step <= steps; step++) {
      timeline.push({ kind: "train", step, seconds: 15 + 10 * random() });
      if (step % every === 0) timeline.push({ kind: "validation", step, seconds: 55 + 20 * random() });
    }
    const total = timeline.reduce((sum, event) => sum + event.seconds, 0);
    const { stream, written } = recordingStream(false);
    let now = 0;
    const progress = trainProgress(stream, TrainConfigSchema.parse({ steps, validation: { every } }), () => now);
    let elapsed = 0;
    const estimates: { step: number; estimate: number; actual: number }[] = [];
    for (const event of timeline) {
      elapsed += event.seconds;
      now = elapsed * 1000;
      const record = event.kind === "validation" ? { ...validation, step: event.step, seconds: event.seconds } : { ...trainRecord(event.step), stepSeconds: event.seconds };
      progress.onRecord?.(record as Parameters<NonNullable<typeof progress.onRecord>>[0]);
      const eta = / · eta (?:(\d+)m)?(\d+)s\n$/.exec(written.at(-1)!);
      if (event.kind === "train" && event.step >= 3 && event.step < steps) {
        expect(eta, written.at(-1)).not.toBeNull();
        estimates.push({ step: event.step, estimate: Number(eta![1] ?? 0) * 60 + Number(eta![2]), actual: total - elapsed });
      }
    }
    for (const { step, estimate, actual } of estimates) expect(Math.abs(estimate - actual) / actual, `step ${step}: eta ${estimate} s, ${actual.toFixed(0)} s left`).toBeLessThanOrEqual(0.3);
    // Step 19's estimate holds the last step and the final validation (about 20 + 65 s), not one step's time.
    expect(estimates.find((entry) => entry.step === 19)!.estimate).toBeGreaterThan(60);
  });

  it("prints a validation's progress at each quarter of its episodes when stderr is not a terminal", () => {
    const { stream, written } = recordingStream(false);
    const progress = trainProgress(stream, config);
    for (let done = 1; done <= 8; done++) progress.onValidationProgress?.(10, done, 8);
    expect(written).toEqual(["validation after 10 steps: 2/8 episodes\n", "validation after 10 steps: 4/8 episodes\n", "validation after 10 steps: 6/8 episodes\n"]);
  });

  it("then at each quarter of its judge verdicts, so a validation that judges is never silent", () => {
    const { stream, written } = recordingStream(false);
    const progress = trainProgress(stream, config);
    for (let done = 1; done <= 4; done++) progress.onValidationProgress?.(10, done, 4, "episodes");
    for (let done = 1; done <= 4; done++) progress.onValidationProgress?.(10, done, 4, "verdicts");
    expect(written.filter((line) => line.includes("verdicts"))).toEqual(["validation after 10 steps: 1/4 verdicts\n", "validation after 10 steps: 2/4 verdicts\n", "validation after 10 steps: 3/4 verdicts\n"]);
  });

  it("redraws the phase line in place on a terminal", () => {
    const { stream, written } = recordingStream(true);
    const progress = trainProgress(stream, config);
    progress.onPhase?.("step 1/2: rollouts");
    progress.onRecord?.(validation);
    expect(written).toEqual(["\r\x1b[Kstep 1/2: rollouts", "\r\x1b[Kvalidation @0: pass@1 50.0% ± 10.0% (n=10) [3s]\n"]);
  });
});
