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

  it("redraws the phase line in place on a terminal", () => {
    const { stream, written } = recordingStream(true);
    const progress = trainProgress(stream, config);
    progress.onPhase?.("step 1/2: rollouts");
    progress.onRecord?.(validation);
    expect(written).toEqual(["\r\x1b[Kstep 1/2: rollouts", "\r\x1b[Kvalidation @0: pass@1 50.0% ± 10.0% (n=10) [3s]\n"]);
  });
});
