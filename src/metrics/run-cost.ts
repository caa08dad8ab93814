/** What a run cost: per step from its token usage and the model's price, summed per episode, per role and in total. */
import type { Episode } from "../core/episode.js";
import type { ModelPrice } from "../core/price-table.js";
import type { Step } from "../core/step.js";
import type { Trajectory } from "../core/trajectory.js";
import type { RunCost } from "../core/run-summary.js";

const perMillion = 1_000_000;

/** Dollars for one model call; a reply from the local response cache cost nothing. */
export function stepCost(step: Step, price: ModelPrice): number {
  if (step.cached) return 0;
  const cachedPrompt = step.usage.cachedPromptTokens ?? 0;
  const freshPrompt = step.usage.promptTokens - cachedPrompt;
  return (freshPrompt * price.input + cachedPrompt * (price.cachedInput ?? price.input) + step.usage.completionTokens * price.output) / perMillion;
}

/** Dollars for every call of an episode. */
export function episodeCost(episode: Episode, price: ModelPrice): number {
  let total = 0;
  for (const trajectory of episode.trajectories) for (const step of trajectory.steps) total += stepCost(step, price);
  return total;
}

/** summary.json's `cost`: total, mean per episode, by trajectory role, and what the response cache saved. */
export function summarizeCost(episodes: readonly Episode[], price: ModelPrice): RunCost {
  const cost = trajectoriesCost(
    episodes.flatMap((episode) => episode.trajectories),
    price,
  );
  return { ...cost, perEpisode: episodes.length === 0 ? 0 : cost.total / episodes.length };
}

/** The cost of model calls outside any episode (the judge calls of `--rerank`), in the shape of summary.json's `cost` less `perEpisode`. */
export function trajectoriesCost(trajectories: readonly Trajectory[], price: ModelPrice): Omit<RunCost, "perEpisode"> {
  const byRole: Record<string, number> = {};
  let total = 0;
  let cachedCalls = 0;
  let savedByCache = 0;
  for (const trajectory of trajectories) {
    for (const step of trajectory.steps) {
      const cost = stepCost(step, price);
      total += cost;
      byRole[trajectory.name] = (byRole[trajectory.name] ?? 0) + cost;
      if (step.cached) {
        cachedCalls += 1;
        savedByCache += stepCost({ ...step, cached: false }, price);
      }
    }
  }
  return { total, byRole, cachedCalls, savedByCache };
}

/** `cost` with the calls of `extra` added (per role, cached calls and savings); `perEpisode` stays the episodes' own mean. */
export function addCost(cost: RunCost, extra: Omit<RunCost, "perEpisode">): RunCost {
  const byRole = { ...cost.byRole };
  for (const [role, dollars] of Object.entries(extra.byRole)) byRole[role] = (byRole[role] ?? 0) + dollars;
  return {
    total: cost.total + extra.total,
    perEpisode: cost.perEpisode,
    byRole,
    cachedCalls: cost.cachedCalls + extra.cachedCalls,
    savedByCache: cost.savedByCache + extra.savedByCache,
  };
}
