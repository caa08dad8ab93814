/** The Score of an episode the environment flow ran: the environment's reward, or unscored when its grading failed. */
import type { Episode } from "../core/episode.js";
import { scored, unscored, type Score } from "../core/score.js";

/**
 * Reads `artifacts.environment` ({reward, isCorrect, gradingError?, verifierFailure?}). A grading error (nothing could
 * grade the environment, independently of the agent) is unscored; a verifierFailure is a scored 0 with that reason.
 */
export function scoreEnvironmentEpisode(episode: Episode): Score {
  const outcome = episode.artifacts.environment as { reward?: unknown; isCorrect?: unknown; gradingError?: unknown; verifierFailure?: unknown } | undefined;
  if (outcome === undefined || typeof outcome.reward !== "number") return unscored("the environment reported no outcome");
  const turns = typeof episode.artifacts.turns === "number" ? episode.artifacts.turns : 0;
  if (typeof outcome.gradingError === "string") return unscored(`grading error: ${outcome.gradingError}`, { signals: { gradingError: 1, turns } });
  if (typeof outcome.verifierFailure === "string") return scored(0, false, { explanation: `reward 0: ${outcome.verifierFailure}`, signals: { verifierFailed: 1, turns } });
  return scored(outcome.reward, outcome.isCorrect === true, { explanation: `reward ${outcome.reward} after ${turns} turns (${episode.terminationReason})`, signals: { turns } });
}
