import { describe, expect, it } from "vitest";
import { EpisodeSchema } from "../../../src/core/episode.js";
import { StepSchema } from "../../../src/core/step.js";
import { attachGatewaySteps } from "../../../src/training/loop/attach-gateway-steps.js";

const traced = (output: string, promptId: number) =>
  StepSchema.parse({ input: [], output, promptTokenIds: [promptId], completionTokenIds: [promptId + 100], logprobs: [-1] });
const untraced = (output: string) => ({ input: [], output });

describe("attachGatewaySteps", () => {
  it("fills token ids in call order, matching repeated replies to successive traces", () => {
    const episode = EpisodeSchema.parse({
      id: "t:0",
      taskId: "t",
      attempt: 0,
      trajectories: [{ name: "solver", steps: [untraced("same"), untraced("other"), untraced("same")] }],
    });
    const result = attachGatewaySteps(episode, [traced("same", 1), traced("other", 2), traced("same", 3)]);
    expect(result.trajectories[0]!.steps.map((step) => step.promptTokenIds)).toEqual([[1], [2], [3]]);
  });

  it("gives every unused trace to a trajectory the flow left without steps", () => {
    const episode = EpisodeSchema.parse({ id: "t:0", taskId: "t", attempt: 0, trajectories: [{ name: "solver", steps: [] }] });
    const result = attachGatewaySteps(episode, [traced("a", 1), traced("b", 2)]);
    expect(result.trajectories[0]!.steps.map((step) => step.output)).toEqual(["a", "b"]);
  });

  it("leaves a step without a matching trace as it was, so the transform drops and counts it", () => {
    const episode = EpisodeSchema.parse({ id: "t:0", taskId: "t", attempt: 0, trajectories: [{ name: "solver", steps: [untraced("x")] }] });
    expect(attachGatewaySteps(episode, [traced("y", 1)]).trajectories[0]!.steps[0]!.promptTokenIds).toBeUndefined();
  });
});
