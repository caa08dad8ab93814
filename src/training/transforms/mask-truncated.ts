/**
 * Masking truncated samples (rLLM's mask_truncated_samples; DAPO's overlong filtering): a trajectory whose last call
 * stopped at the token limit ("length") keeps its place in its group's advantages but trains nothing, since its
 * reward judges an answer the model never finished.
 */
import type { Episode } from "../../core/episode.js";

/** Whether a trajectory's last call stopped at the token limit. */
function isTruncated(episode: Episode, trajectoryIndex: number): boolean {
  return episode.trajectories[trajectoryIndex]?.steps.at(-1)?.finishReason === "length";
}

/** The sequences not from a truncated trajectory, and how many trajectories were masked. */
export function withoutTruncated<Sequence extends { episodeId: string; trajectoryIndex: number }>(
  sequences: readonly Sequence[],
  episodes: readonly Episode[],
): { sequences: Sequence[]; maskedTrajectories: number } {
  const byId = new Map(episodes.map((episode) => [episode.id, episode]));
  const masked = new Set<string>();
  const kept = sequences.filter((sequence) => {
    const episode = byId.get(sequence.episodeId);
    if (!episode || !isTruncated(episode, sequence.trajectoryIndex)) return true;
    masked.add(`${sequence.episodeId}#${sequence.trajectoryIndex}`);
    return false;
  });
  return { sequences: kept, maskedTrajectories: masked.size };
}
