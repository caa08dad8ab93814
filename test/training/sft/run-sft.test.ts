import { describe, expect, it } from "vitest";
import type { BackendCapabilities, StepStatus, TrainBatch, TrainingBackend } from "../../../src/training/backend.js";
import { runSft, type SftOptions, type SftRecord } from "../../../src/training/sft/run-sft.js";
import type { SftSequence } from "../../../src/training/sft/tokenize-sft-row.js";

/** A backend that records every batch it is sent and reports a loss of 1 per step; `forward` reports 0.5. */
function recordingBackend(withForward = true) {
  const batches: TrainBatch[] = [];
  const statuses = new Map<string, StepStatus>();
  const backend: TrainingBackend = {
    name: "recording",
    capabilities: () => ({ name: "recording", maxContext: 100 }) as BackendCapabilities,
    open: async () => ({ backend: "recording", modelId: "m", version: 0 }),
    sample: async () => ({ completions: [], policyVersion: 0 }),
    submit: async (batch) => {
      batches.push(batch);
      const stepId = String(batches.length);
      statuses.set(stepId, { state: "done", metrics: { loss: 1 } });
      return { stepId };
    },
    status: async (stepId) => statuses.get(stepId)!,
    publish: async () => ({ backend: "recording", modelId: "m", version: 1 }),
    checkpoint: async (directory) => ({ path: directory }),
    restore: async () => ({ backend: "recording", modelId: "m", version: 0 }),
    close: async () => {},
    ...(withForward ? { forward: async (batch: TrainBatch) => ({ loss: 0.5, tokens: batch.sequences.length }) } : {}),
  };
  return { backend, batches };
}

// Row i is one sequence whose first token is i, so a batch shows which rows it holds.
const rows = (count: number): SftSequence[][] => Array.from({ length: count }, (_, index) => [{ tokens: [index, 7, 8], lossMask: [0, 1, 1] }]);

function options(backend: TrainingBackend, overrides: Partial<SftOptions> = {}) {
  const records: SftRecord[] = [];
  const checkpoints: number[] = [];
  const settings: SftOptions = {
    backend,
    train: rows(5),
    val: rows(2),
    batchSize: 2,
    epochs: 2,
    learningRate: 1,
    schedule: "linear",
    warmupSteps: 0,
    valEvery: 2,
    saveEvery: 4,
    seed: 0,
    completedSteps: 0,
    checkpoint: async (step) => {
      checkpoints.push(step);
    },
    onRecord: (record) => records.push(record),
    ...overrides,
  };
  return { settings, records, checkpoints };
}

describe("runSft", () => {
  it("sends cross-entropy batches with advantage 1 and the scheduled rate, every row once per epoch", async () => {
    const { backend, batches } = recordingBackend();
    const { settings } = options(backend);
    expect(await runSft(settings)).toBe(6);
    expect(batches.map((batch) => batch.loss.kind)).toEqual(Array(6).fill("cross_entropy"));
    expect(batches.every((batch) => batch.sequences.every((sequence) => sequence.advantage === 1))).toBe(true);
    expect(batches.map((batch) => batch.optimizer.learningRate)).toEqual([1, 5 / 6, 4 / 6, 3 / 6, 2 / 6, 1 / 6].map((rate) => expect.closeTo(rate, 12)));
    const firstTokens = (from: number, to: number) => batches.slice(from, to).flatMap((batch) => batch.sequences.map((sequence) => sequence.tokens[0])).sort();
    expect(firstTokens(0, 3)).toEqual([0, 1, 2, 3, 4]);
    expect(firstTokens(3, 6)).toEqual([0, 1, 2, 3, 4]);
  });

  it("records validation at the start, every --val-every steps and the end, and checkpoints every --save-every and at the end", async () => {
    const { backend } = recordingBackend();
    const { settings, records, checkpoints } = options(backend);
    await runSft(settings);
    expect(records.filter((record) => record.kind === "validation").map((record) => record.step)).toEqual([0, 2, 4, 6]);
    expect(records.filter((record) => record.kind === "train").map((record) => [record.step, record.epoch, record.tokens])).toEqual([
      [1, 1, 4],
      [2, 1, 4],
      [3, 1, 2],
      [4, 2, 4],
      [5, 2, 4],
      [6, 2, 2],
    ]);
    expect(checkpoints).toEqual([4, 6]);
  });

  it("resumes after the completed steps with the same batches a whole run sends", async () => {
    const whole = recordingBackend();
    await runSft(options(whole.backend).settings);
    const resumed = recordingBackend();
    const { settings, records } = options(resumed.backend, { completedSteps: 4 });
    expect(await runSft(settings)).toBe(6);
    expect(resumed.batches).toEqual(whole.batches.slice(4));
    expect(records.find((record) => record.kind === "validation" && record.step === 0)).toBeUndefined();
  });

  it("refuses validation rows on a backend that cannot compute a loss without training", async () => {
    const { backend } = recordingBackend(false);
    await expect(runSft(options(backend).settings)).rejects.toThrow('backend "recording" cannot compute a loss without training');
  });
});
