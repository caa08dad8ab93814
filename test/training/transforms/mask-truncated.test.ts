import { describe, expect, it } from "vitest";
import { EpisodeSchema } from "../../../src/core/episode.js";
import { withoutTruncated } from "../../../src/training/transforms/mask-truncated.js";

const episode = (id: string, finishReasons: string[]) =>
  EpisodeSchema.parse({ id, taskId: "t", attempt: 0, trajectories: [{ name: "solver", steps: finishReasons.map((finishReason) => ({ input: [], output: "x", finishReason })) }] });

describe("masking truncated samples", () => {
  it("drops the sequences of a trajectory whose last call hit the token limit, and counts the trajectory once", () => {
    const episodes = [episode("a", ["stop"]), episode("b", ["length"]), episode("c", ["length", "stop"])];
    const sequences = [
      { episodeId: "a", trajectoryIndex: 0 },
      { episodeId: "b", trajectoryIndex: 0 },
      { episodeId: "b", trajectoryIndex: 0 },
      { episodeId: "c", trajectoryIndex: 0 },
    ];
    const result = withoutTruncated(sequences, episodes);
    // c's first call was cut, but its last one finished: its answer is whole.
    expect(result.sequences.map((sequence) => sequence.episodeId)).toEqual(["a", "c"]);
    expect(result.maskedTrajectories).toBe(1);
  });
});
