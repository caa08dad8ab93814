/** `rllm-ts/training`: advantages, episode transforms, the joint reward, the gateway and the training loop. */

// Advantage estimators.
export { grpoAdvantages, drGrpoAdvantages, rlooAdvantages, reinforceAdvantages, reinforcePlusPlusAdvantages } from "./advantages/index.js";
// From episodes to training batches.
export { transformEpisodes } from "./transforms/index.js";
export { pairVerifierReward } from "./joint-reward.js";
// The backend contract, the gateway that records a policy's calls, and the loop.
export type { TrainingBackend } from "./backend.js";
export { startGateway } from "../gateway/gateway-server.js";
export { runTraining } from "./loop/run-training.js";
export { TrainConfigSchema } from "./train-config.js";
