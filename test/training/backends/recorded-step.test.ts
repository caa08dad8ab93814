import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runRecordedStep, type RecordedStepCase, type RecordedStepResult } from "./recorded-step-harness.js";

// Steps recorded from the local backend before it was rebuilt on the tiny model's TrainableModel (commit in the file):
// the same batch must give the same loss, metrics and weight update, to float32 rounding.
const fixture = JSON.parse(readFileSync(new URL("./fixtures/recorded-steps.json", import.meta.url), "utf8")) as {
  steps: { case: RecordedStepCase; result: RecordedStepResult }[];
};

describe("local backend steps match the recorded ones", () => {
  it.each(fixture.steps.map((step) => [step.case.name, step] as const))("%s", async (_, { case: recordedCase, result: expected }) => {
    const actual = await runRecordedStep(recordedCase);
    // Every recorded metric is still reported with its value; metrics added since (the importance ratio's) may join them.
    expect(Object.keys(actual.metrics)).toEqual(expect.arrayContaining(Object.keys(expected.metrics)));
    for (const [name, value] of Object.entries(expected.metrics)) {
      expect(actual.metrics[name], name).toBeCloseTo(value, 4);
    }
    for (const [name, update] of Object.entries(expected.updates)) {
      const got = actual.updates[name]!;
      for (const [index, value] of update.samples.entries()) expect(got.samples[index], `${name}[${index}]`).toBeCloseTo(value, 6);
      expect(got.sum, `${name} sum`).toBeCloseTo(update.sum, 5);
      expect(got.absoluteSum, `${name} absolute sum`).toBeCloseTo(update.absoluteSum, 5);
    }
  });
});
