/** Which attempts of a task become training rows: `--select`, `--min-reward`, `--dedup` and `--max-per-task`, as pure steps. */
import { z } from "zod";
import type { Episode } from "../../core/episode.js";
import { episodeAnswer } from "../../core/episode-answer.js";

/** `--select`: every correct attempt, the best one, the best n, the shortest correct one, or every attempt. */
export const SelectModeSchema = z.enum(["correct", "best", "best-n", "shortest", "all"]);
export type SelectMode = z.infer<typeof SelectModeSchema>;

/** How to choose among one task's scored attempts. */
export interface SelectOptions {
  mode: SelectMode;
  /** n for `best-n`. */
  bestN: number;
  minReward?: number;
  maxPerTask?: number;
  dedup: boolean;
}

/** Rows left after each selection step, so an empty result names the step that removed everything. */
export interface SelectCounts {
  select: number;
  minReward: number;
  dedup: number;
  maxPerTask: number;
}

const completionTokens = (episode: Episode) => episode.usage.completionTokens;
// Highest reward first; equal rewards keep attempt order, so the choice is deterministic.
const byReward = (first: Episode, second: Episode) => second.score.value - first.score.value || first.attempt - second.attempt;

/** Text compared by `--dedup`: lower case, runs of white space as one space, trimmed. */
export function normalizedText(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

/** The chosen attempts of one task (scored, non-infra attempts only), in the order they become rows. */
export function selectTaskEpisodes(attempts: readonly Episode[], options: SelectOptions, counts: SelectCounts): Episode[] {
  const scored = attempts.filter((episode) => episode.errorClass !== "infra_error" && episode.score.status === "scored").sort((a, b) => a.attempt - b.attempt);
  let chosen: Episode[];
  switch (options.mode) {
    case "correct":
      chosen = scored.filter((episode) => episode.score.isCorrect);
      break;
    case "best":
      chosen = [...scored].sort(byReward).slice(0, 1);
      break;
    case "best-n":
      chosen = [...scored].sort(byReward).slice(0, options.bestN);
      break;
    case "shortest":
      chosen = scored
        .filter((episode) => episode.score.isCorrect)
        .sort((a, b) => completionTokens(a) - completionTokens(b) || a.attempt - b.attempt)
        .slice(0, 1);
      break;
    case "all":
      chosen = scored;
      break;
  }
  counts.select += chosen.length;
  if (options.minReward !== undefined) chosen = chosen.filter((episode) => episode.score.value >= options.minReward!);
  counts.minReward += chosen.length;
  if (options.dedup) {
    const seen = new Set<string>();
    chosen = chosen.filter((episode) => {
      const key = normalizedText(episodeAnswer(episode));
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
  counts.dedup += chosen.length;
  if (options.maxPerTask !== undefined) chosen = chosen.slice(0, options.maxPerTask);
  counts.maxPerTask += chosen.length;
  return chosen;
}
