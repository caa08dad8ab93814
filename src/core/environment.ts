/** The environment contract: a world an agent acts in over many turns (a terminal sandbox, a FrozenLake grid). */
import type { Task } from "./task.js";

/** What one action did: the next observation, the step's reward, whether the episode is over, and details for the log. */
export interface EnvironmentStep<Observation> {
  observation: Observation;
  reward: number;
  done: boolean;
  info: Record<string, unknown>;
}

/** The reward an environment gives when the episode ends (a terminal task's tests); `gradingError` when nothing could grade it. */
export interface EnvironmentOutcome {
  reward: number;
  isCorrect: boolean;
  /** Why the work could not be graded (no reward file, verifier timeout); such an outcome is unscored, never a 0. */
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
