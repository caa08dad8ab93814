// The trainer job's create request. The fake (integrations/fireworks) holds the body to fireworks-ai's own builder in
// the e2e runs; this pins the mapping of rllm-ts's settings onto it.
import { describe, expect, it } from "vitest";
import { trainerJobPayload, trainerJobQuery } from "../../../../src/training/backends/fireworks/trainer-job-settings.js";

describe("trainerJobPayload", () => {
  it("maps the base model, LoRA rank and learning rate into trainingConfig of a service-mode, manual-path job", () => {
    const payload = trainerJobPayload({ baseModel: "accounts/fireworks/models/qwen3-8b", loraRank: 16, learningRate: 1e-5, displayName: "rllm-ts rllm-ts-0a1b2c3d" });
    expect(payload).toEqual({
      serviceMode: true,
      keepAlive: false,
      dataset: "",
      trainingConfig: { baseModel: "accounts/fireworks/models/qwen3-8b", loraRank: 16, learningRate: 1e-5 },
      useReservation: true,
      nodeCount: 1,
      displayName: "rllm-ts rllm-ts-0a1b2c3d",
    });
  });

  it("asks the control plane to skip shape validation and names the job itself", () => {
    expect(trainerJobQuery("rllm-ts-0a1b2c3d")).toBe("skipValidations=true&rlorTrainerJobId=rllm-ts-0a1b2c3d");
  });
});
