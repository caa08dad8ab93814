/**
 * What a run lends its flows and evaluators: its sandbox, and its pools (a grading thread pool, a code grader's
 * sandbox slots, a benchmark's query processes). A pool is opened once per run by the run's services, shared by its
 * episodes, recorded in config.json and closed when the run ends (on Ctrl-C too); no plugin keeps one of its own.
 */
import type { Sandbox } from "./sandbox.js";

/** How a pool is opened, described and closed; a plugin exports one and asks its run for it with `pool(definition)`. */
export interface PoolDefinition<Pool> {
  /** Its name in config.json and in messages ("math", "code", "sql"). */
  readonly name: string;
  open(context: PoolOpenContext): Promise<Pool>;
  close(pool: Pool): Promise<void>;
  /** What config.json records about the open pool (its size, where it runs). */
  describe(pool: Pool): Record<string, unknown>;
}

/** What a pool is opened with. */
export interface PoolOpenContext {
  sandbox: Sandbox;
  /** Workers or slots the run asks for (`rllm grade --concurrency`); absent: the pool's own default. */
  concurrency?: number;
}

/** A run's shared resources, as its flows and evaluators see them. */
export interface RunResources {
  /** The run's sandbox (`--sandbox`). */
  readonly sandbox: Sandbox;
  /** The run's instance of `definition`, opened on first request unless the run opened it ahead (a cookbook's `pools`). */
  pool<Pool>(definition: PoolDefinition<Pool>): Promise<Pool>;
}
