/**
 * `rllm-ts/flows`: the agent flows cookbooks are built on. One model call (`singleTurnFlow`), or a model driving an
 * Environment over many turns (`environmentFlow`) with the Score of its outcome (`scoreEnvironmentEpisode`).
 * The eval loop itself is the root entry's `runEval`.
 */
export { singleTurnFlow, systemThenInstruction } from "./single-turn-flow.js";
export { environmentFlow, environmentEpisode, type EnvironmentAgent, type EnvironmentFlowOptions, type AgentDecision } from "./environment-flow.js";
export { scoreEnvironmentEpisode } from "./score-environment-episode.js";
