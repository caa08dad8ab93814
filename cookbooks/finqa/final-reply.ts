/** Where a FinQA episode's answer lives: the last non-empty assistant reply. */
import type { Episode } from "../../src/core/episode.js";

/** The last non-empty reply of the episode's steps, else the `answer` artifact. */
export function finalReply(episode: Episode): string {
  const steps = episode.trajectories.flatMap((trajectory) => trajectory.steps);
  const replies = steps.map((step) => step.output).filter((output) => output.trim() !== "");
  return replies.at(-1) ?? String(episode.artifacts.answer ?? "");
}
