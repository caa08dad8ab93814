/** Where an episode's answer text lives, read the same way by evaluators, majority votes, tournaments and exports. */
import type { Episode } from "./episode.js";

/**
 * The answer text of `episode`: the last non-empty reply of its solver trajectories (of any trajectory when none
 * is named "solver"), else the solver's `output`, else the `answer` artifact, else "".
 */
export function episodeAnswer(episode: Episode): string {
  const solvers = episode.trajectories.filter((trajectory) => trajectory.name === "solver");
  const candidates = solvers.length > 0 ? solvers : episode.trajectories;
  const replies = candidates.flatMap((trajectory) => trajectory.steps.map((step) => step.output)).filter((output) => output.trim() !== "");
  const reply = replies.at(-1);
  if (reply !== undefined) return reply;
  const output = candidates[0]?.output;
  if (typeof output === "string") return output;
  const answer = episode.artifacts.answer;
  return typeof answer === "string" ? answer : "";
}
