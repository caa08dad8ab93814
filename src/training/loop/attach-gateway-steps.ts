/**
 * Gives an episode the sampler's token data recorded by the gateway: steps the flow recorded without token ids get
 * them from the trace with the same reply, in order; a trajectory the flow left without steps takes every unused trace.
 */
import type { Episode } from "../../core/episode.js";
import type { Step } from "../../core/step.js";

/** The episode with token ids filled in from `traced` (the gateway session's steps, in call order). */
export function attachGatewaySteps(episode: Episode, traced: readonly Step[]): Episode {
  const unused = [...traced];
  const takeMatching = (step: Step): Step | undefined => {
    const index = unused.findIndex((candidate) => candidate.output === step.output);
    return index === -1 ? undefined : unused.splice(index, 1)[0];
  };
  const trajectories = episode.trajectories.map((trajectory) => ({
    ...trajectory,
    steps: trajectory.steps.map((step) => {
      if (step.completionTokenIds && step.promptTokenIds && step.logprobs) {
        takeMatching(step); // already complete; consume its trace so it is not given to another step
        return step;
      }
      const trace = takeMatching(step);
      // The policy version that sampled the call (the reply's weight_version) rides along for staleness accounting.
      const version = trace?.info.weightVersion;
      return trace
        ? { ...step, promptTokenIds: trace.promptTokenIds, completionTokenIds: trace.completionTokenIds, logprobs: trace.logprobs, ...(version !== undefined ? { info: { ...step.info, weightVersion: version } } : {}) }
        : step;
    }),
  }));
  const empty = trajectories.find((trajectory) => trajectory.steps.length === 0);
  if (empty && unused.length > 0) empty.steps = unused;
  return { ...episode, trajectories };
}
