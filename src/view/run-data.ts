/** What the viewer knows of a run directory (eval, rerank or training run), with episodes slimmed for a report. */
import type { z } from "zod";
import type { Episode } from "../core/episode.js";
import type { RunConfig } from "../core/run-config.js";
import type { RunSummary } from "../core/run-summary.js";
import { TournamentLineSchema } from "../tournament/eval-reranker.js";
import type { LineCursor } from "../runs/read-appended-lines.js";
import type { MetricsLine } from "../runs/training-run-files.js";

/** A tournaments.jsonl line as the report shows it: the judge's own trajectory is left out (its verdicts are in `record`). */
export const ViewTournamentSchema = TournamentLineSchema.omit({ judgeTrajectory: true });
export type ViewTournament = z.infer<typeof ViewTournamentSchema>;

/** A metrics.jsonl line of a training run as the report carries it (read with MetricsLineSchema, src/runs). */
export type TrainingRecord = MetricsLine;

/** An episode as the report carries it: no token ids or logprobs (their counts are in `usage`); `step` for training rollouts. */
export type ViewEpisode = Episode & { step?: number };

/** Where the live view stands in each growing file of the run. */
export interface RunCursors {
  episodes: LineCursor;
  metrics: LineCursor;
}

/** Everything a report of one run shows. */
export interface RunData {
  /** The run directory as given on the command line. */
  directory: string;
  kind: "eval" | "training";
  config: RunConfig | null;
  summary: RunSummary | null;
  episodes: ViewEpisode[];
  tournaments: ViewTournament[];
  training: TrainingRecord[];
}

/** What appeared in a run directory since the cursors: new episodes and training records, and summary.json as it is now. */
export interface RunUpdate {
  episodes: ViewEpisode[];
  training: TrainingRecord[];
  summary: RunSummary | null;
  cursors: RunCursors;
}

/** Drops the token ids and logprobs of every step: a report needs their counts, not the numbers (they are most of a line's bytes). */
export function slimEpisode(episode: Episode, step?: number): ViewEpisode {
  const trajectories = episode.trajectories.map((trajectory) => ({
    ...trajectory,
    steps: trajectory.steps.map(({ promptTokenIds: _prompt, completionTokenIds: _completion, logprobs: _logprobs, ...kept }) => kept),
  }));
  return { ...episode, trajectories, ...(step === undefined ? {} : { step }) };
}
