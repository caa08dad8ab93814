/** The registry of selection methods by name, each turned into a SelectionProcess for N candidates and a budget. */
import { z } from "zod";
import type { AdaptiveDuelOptions } from "./adaptive-duel.js";
import { AdaptiveDuelOptionsSchema, adaptiveDuel } from "./adaptive-duel.js";
import { knockout, league, majorityVote, pointwise, randomPairing } from "./baselines.js";
import { fitBradleyTerry } from "./bradley-terry.js";
import type { SelectionProcess, SlotPolicy } from "./selection-process.js";
import { pickBest } from "./selection-process.js";
import type { Rng } from "../core/random.js";
import type { V1Options } from "./v1-infer.js";
import { V1OptionsSchema, v1Infer, v1Rounds } from "./v1-infer.js";

/**
 * v1: V1-Infer as published. v1-top: Swiss refinement only among the top half by μ. bt / bt-weighted: V1's own
 * comparison graph re-scored by a Bradley–Terry fit (plain or margin-weighted). v1-top-bt: both changes.
 * v1-adaptive: v1-top-bt that stops once the leader is settled (a μ gap of 0.2 two rounds running). adaptive-duel: equal
 * answers as one arm, a Bradley–Terry posterior, top-two Thompson pairs, stop when sure (adaptive-duel.ts). random, pointwise, knockout,
 * league, majority: the baselines.
 */
export const SelectionMethodSchema = z.enum([
  "v1",
  "v1-top",
  "bt",
  "bt-weighted",
  "v1-top-bt",
  "v1-adaptive",
  "adaptive-duel",
  "random",
  "pointwise",
  "knockout",
  "league",
  "majority",
]);
export type SelectionMethod = z.infer<typeof SelectionMethodSchema>;

export const SlotPolicySchema = z.enum(["scheduled", "random", "both"]);

/** Everything a method needs besides the candidates: the call budget and the tournament options. */
export interface SelectionConfig {
  /** Judge calls allowed (V1's B = m·N). Knockout ignores it and costs K(N − 1). */
  budget: number;
  slots: SlotPolicy;
  v1: V1Options;
  /** K comparisons per knockout match. */
  knockoutK: number;
  /** adaptive-duel's answer clusters, stopping confidence and support prior. */
  duel: AdaptiveDuelOptions;
}

/**
 * The published defaults at budget B: scheduled slots, V1 hyperparameters d_min 2, h 8, τ 0.1, knockout K 1; and
 * adaptive-duel's (clusters on, confidence 0.95, support weight 0.25).
 */
export function defaultSelectionConfig(budget: number): SelectionConfig {
  return { budget, slots: "scheduled", v1: V1OptionsSchema.parse({}), knockoutK: 1, duel: AdaptiveDuelOptionsSchema.parse({}) };
}

/**
 * Starts `method` on `count` candidates. `answers` (one normalised final answer per candidate) is required by majority
 * vote; adaptive-duel groups equal answers when given them.
 */
export function selectionProcess(
  method: SelectionMethod,
  count: number,
  config: SelectionConfig,
  rng: Rng,
  answers?: ReadonlyArray<string | undefined>,
): SelectionProcess {
  switch (method) {
    case "v1":
      return v1Infer(count, config.budget, config.v1, config.slots, rng);
    case "v1-top":
      return v1Infer(count, config.budget, { ...config.v1, swissPool: "top-half" }, config.slots, rng);
    case "bt":
    case "bt-weighted":
      return bradleyTerryOnV1(count, config, rng, method === "bt-weighted");
    case "v1-top-bt":
      return bradleyTerryOnV1(count, { ...config, v1: { ...config.v1, swissPool: "top-half" } }, rng, true);
    case "v1-adaptive":
      return bradleyTerryOnV1(count, { ...config, v1: { ...config.v1, swissPool: "top-half", settledGap: 0.2 } }, rng, true);
    case "adaptive-duel":
      return adaptiveDuel(count, config.budget, config.duel, config.v1.tau, config.slots, rng, answers);
    case "random":
      return randomPairing(count, config.budget, config.v1.tau, config.slots, rng);
    case "pointwise":
      return pointwise(count, config.budget, rng);
    case "knockout":
      return knockout(count, config.knockoutK, config.slots, rng);
    case "league":
      return league(count, config.budget, config.slots, rng);
    case "majority":
      return majorityProcess(count, answers, rng);
  }
}

function* bradleyTerryOnV1(count: number, config: SelectionConfig, rng: Rng, weighted: boolean): SelectionProcess {
  const run = yield* v1Rounds(count, config.budget, config.v1, config.slots, rng);
  const scores = fitBradleyTerry(count, run.comparisons, { weighted, tau: config.v1.tau });
  return { ...pickBest(scores, rng), scores, judgeCalls: run.judgeCalls, rounds: run.rounds, comparisons: run.comparisons, points: [] };
}

// Majority vote makes no judge calls but shares the protocol, so it is a generator that never yields.
// biome-ignore lint/correctness/useYield: the protocol is a generator; this one has no judge calls to yield.
function* majorityProcess(count: number, answers: ReadonlyArray<string | undefined> | undefined, rng: Rng): SelectionProcess {
  if (answers === undefined || answers.length !== count) {
    throw new Error(`majority vote needs one extracted answer per candidate (${count}), got ${answers?.length ?? "none"}`);
  }
  return majorityVote(answers, rng);
}
