// episodeAnswer: the one reader of an episode's answer text.
import { describe, expect, it } from "vitest";
import { episodeAnswer } from "../../src/core/episode-answer.js";
import { EpisodeSchema } from "../../src/core/episode.js";

const step = (output: string) => ({ input: [], output });
const episodeWith = (fields: Record<string, unknown>) => EpisodeSchema.parse({ id: "t:0", taskId: "t", attempt: 0, ...fields });

describe("episodeAnswer", () => {
  it("reads the last non-empty reply of the solver, skipping a final empty tool-calling turn", () => {
    const episode = episodeWith({ trajectories: [{ name: "solver", steps: [step("thinking"), step("FINAL ANSWER: 94"), step("")] }] });
    expect(episodeAnswer(episode)).toBe("FINAL ANSWER: 94");
  });

  it("prefers the solver's reply over a judge trajectory recorded after it", () => {
    const episode = episodeWith({ trajectories: [{ name: "solver", steps: [step("\\boxed{4}")] }, { name: "judge", steps: [step("A is better")] }] });
    expect(episodeAnswer(episode)).toBe("\\boxed{4}");
  });

  it("falls back to any trajectory, then the solver's output, then the answer artifact", () => {
    expect(episodeAnswer(episodeWith({ trajectories: [{ name: "judge", steps: [step("verdict")] }] }))).toBe("verdict");
    expect(episodeAnswer(episodeWith({ trajectories: [{ name: "solver", steps: [], output: "\\boxed{7}" }] }))).toBe("\\boxed{7}");
    expect(episodeAnswer(episodeWith({ artifacts: { answer: "12%" } }))).toBe("12%");
    expect(episodeAnswer(episodeWith({}))).toBe("");
  });
});
