/** The episode of a one-step solver whose only reply is `reply`: what an evaluator is given for a task's first attempt. */
import { EpisodeSchema, type Episode } from "../../src/core/episode.js";

export function replyEpisode(taskId: string, reply: string): Episode {
  return EpisodeSchema.parse({
    id: `${taskId}:0`,
    taskId,
    attempt: 0,
    trajectories: [{ name: "solver", steps: [{ input: [], output: reply }], output: reply }],
    artifacts: { answer: reply },
  });
}
