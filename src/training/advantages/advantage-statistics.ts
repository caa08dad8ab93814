/** Summary figures of a batch's advantages for the step metrics (rLLM's advantage/{role}/mean|std|max|min|fraction_zero). */
import { z } from "zod";
import { mean, populationStd } from "./group-statistics.js";

export const AdvantageStatisticsSchema = z.object({
  mean: z.number(),
  std: z.number(),
  min: z.number(),
  max: z.number(),
  /** Share of advantages with |a| ≤ 1e-8: trajectories that teach nothing this step. */
  fractionZero: z.number(),
});
export type AdvantageStatistics = z.infer<typeof AdvantageStatisticsSchema>;

/** Mean, std, min, max and zero fraction of `advantages`; all zeros for an empty list. */
export function advantageStatistics(advantages: readonly number[]): AdvantageStatistics {
  if (advantages.length === 0) return { mean: 0, std: 0, min: 0, max: 0, fractionZero: 0 };
  return {
    mean: mean(advantages),
    std: populationStd(advantages),
    min: Math.min(...advantages),
    max: Math.max(...advantages),
    fractionZero: advantages.filter((value) => Math.abs(value) <= 1e-8).length / advantages.length,
  };
}
