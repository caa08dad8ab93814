/** The environment contract: a world an agent acts in over many turns (a terminal sandbox, a FrozenLake grid). */
import type { Task } from "./task.js";

/** What one action did: the next observation, the step's reward, whether the episode is over, and details for the log. */
export interface EnvironmentStep<Observation> {
  observation: Observation;
  reward: number;
  done: boolean;
  info: Record<string, unknown>;
}

/** The reward an environment gives when the episode ends (a terminal task's tests); `gradingError` when nothing could grade it, through no act of the agent. */
export interface EnvironmentOutcome {
  reward: number;
  isCorrect: boolean;
  /**
   * Why nothing could grade the episode independently of the agent (the sandbox never started, the verifier failed on
   * an environment the agent never touched): unscored, never a 0. A failure the agent may have caused is a 0 instead,
   * with its reason in `info.verifierFailure`.
   */
  gradingError?: string;
  info: Record<string, unknown>;
}

/** One episode's environment: `reset` once, then `step` per action, then `close` (always, also after errors). */
export interface Environment<Observation, Action> {
  /** Starts the episode for `task`; `seed` makes any randomness of the environment replay exactly. */
  reset(task: Task, seed: number): Promise<Observation>;
  step(action: Action): Promise<EnvironmentStep<Observation>>;
  /** Environments graded at the end (by tests, not per step) grade the state left behind; called once, before `close`. */
  finish?(): Promise<EnvironmentOutcome>;
  /** Frees everything the episode holds (processes, files); nothing may outlive it. */
  close(): Promise<void>;
}
