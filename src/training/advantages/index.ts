/** Advantage estimators: pure functions from trajectory rewards to per-trajectory advantages. */
export { grpoAdvantages, drGrpoAdvantages } from "./grpo-advantages.js";
export { rlooAdvantages } from "./rloo-advantages.js";
export { reinforceAdvantages, reinforcePlusPlusAdvantages, reinforcePlusPlusBaselineAdvantages } from "./reinforce-advantages.js";
export { AdvantageConventionSchema, type AdvantageConvention } from "./advantage-convention.js";
export { rejectionSamplingAdvantages } from "./rejection-sampling-advantages.js";
export {
  AdvantageEstimatorSchema,
  GROUP_RELATIVE_ESTIMATORS,
  estimateAdvantages,
  estimateAdvantagesByRole,
  type AdvantageEstimator,
  type RewardGroup,
} from "./advantage-estimator.js";
export { advantageStatistics, type AdvantageStatistics } from "./advantage-statistics.js";
