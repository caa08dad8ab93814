/** The `frozenlake` cookbook: rLLM's FrozenLake agent (one action per turn, invalid replies use a turn) on Gymnasium's dynamics; reward 1 when won. */
import type { Cookbook, Task } from "rllm-ts/core";
import { environmentFlow, scoreEnvironmentEpisode, type EnvironmentAgent } from "rllm-ts/flows";
import { createFrozenLakeEnvironment, type FrozenLakeAction, type FrozenLakeObservation } from "./frozenlake-environment.js";
import { firstObservationMessage, frozenLakeSystemPrompt, invalidActionMessage, observationMessage } from "./frozenlake-prompt.js";
import { frozenLakeActionName, parseFrozenLakeAction } from "./parse-frozenlake-action.js";

/** Turns for a task: metadata.max_steps, else rLLM's max(2·size, 16). */
export function frozenLakeTurns(task: Task): number {
  if (typeof task.metadata.max_steps === "number") return task.metadata.max_steps;
  return Math.max(2 * (typeof task.metadata.size === "number" ? task.metadata.size : 4), 16);
}

/** One episode's FrozenLake agent: keeps the last observation for the invalid-action reminder. */
export function createFrozenLakeAgent(task: Task): EnvironmentAgent<FrozenLakeObservation, FrozenLakeAction> {
  let current: FrozenLakeObservation | undefined;
  return {
    start(_task, observation) {
      current = observation;
      return [
        { role: "system", content: frozenLakeSystemPrompt },
        { role: "user", content: firstObservationMessage(observation, frozenLakeTurns(task)) },
      ];
    },
    decide(choice) {
      const action = parseFrozenLakeAction(choice.text);
      if (action === undefined) return { kind: "invalid", label: "invalid", feedback: [{ role: "user", content: invalidActionMessage(current!) }] };
      return { kind: "act", actions: [action], label: frozenLakeActionName(action) };
    },
    report(results, turn) {
      current = results.at(-1)!.step.observation;
      return [{ role: "user", content: observationMessage(current, turn) }];
    },
  };
}

export const frozenLakeCookbook: Cookbook = {
  name: "frozenlake",
  description: "FrozenLake: one move per turn (Up/Down/Left/Right in the last ``` block) for up to max_steps turns; reward 1 when the goal is reached.",
  flow: environmentFlow({ createEnvironment: () => createFrozenLakeEnvironment(), createAgent: createFrozenLakeAgent, maxTurns: frozenLakeTurns }),
  evaluate: (_task, episode) => scoreEnvironmentEpisode(episode),
};

export { createFrozenLakeEnvironment, frozenLakeTransition, type FrozenLakeAction } from "./frozenlake-environment.js";
export { parseFrozenLakeAction } from "./parse-frozenlake-action.js";
export { renderFrozenLake } from "./frozenlake-prompt.js";
