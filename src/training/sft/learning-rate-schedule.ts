/** The SFT learning-rate schedule: linear warmup, then constant, linear decay to 0, or cosine decay to 0. */
import { z } from "zod";

/** `--lr-schedule`. */
export const LearningRateScheduleSchema = z.enum(["constant", "linear", "cosine"]);
export type LearningRateSchedule = z.infer<typeof LearningRateScheduleSchema>;

/** The learning rate at `step` (1-based) of `totalSteps`: peak × warmup ramp × decay. */
export function scheduledLearningRate(step: number, totalSteps: number, peak: number, schedule: LearningRateSchedule, warmupSteps: number): number {
  if (step <= warmupSteps) return (peak * step) / warmupSteps;
  if (schedule === "constant") return peak;
  // Progress 0 on the first step after warmup; the last step stays above 0 so that it still learns.
  const progress = (step - warmupSteps - 1) / Math.max(1, totalSteps - warmupSteps);
  if (schedule === "linear") return peak * (1 - progress);
  return peak * 0.5 * (1 + Math.cos(Math.PI * progress));
}
