/**
 * A run's resources for a test that calls a cookbook's flow or evaluator directly, as the engine would: the contexts
 * they take (the client, the run's sandbox and pools, the signal), on resources the test closes when it is done.
 */
import type { EvaluatorContext, FlowContext } from "../core/cookbook.js";
import type { LlmClient, SamplingParams } from "../core/llm-client.js";
import { openRunResources, type OwnedRunResources, type RunResourceOptions } from "../sandbox/run-resources.js";

/** Resources with the two contexts made from them; `close` them after the test (an `afterAll`). */
export interface TestRun extends OwnedRunResources {
  /** The context of a flow call: `client`, default sampling, attempt 0, a signal nobody aborts unless given. */
  flowContext(client: LlmClient, options?: { sampling?: SamplingParams; attempt?: number; signal?: AbortSignal }): FlowContext;
  /** The context of an evaluator call. */
  evaluatorContext(signal?: AbortSignal): EvaluatorContext;
}

/** Opens the resources (a local sandbox unless `options` name another; no process starts until a pool is asked for). */
export function openTestRun(options: RunResourceOptions = {}): TestRun {
  const resources = openRunResources(options);
  const lent = { sandbox: resources.sandbox, pool: resources.pool };
  return {
    ...resources,
    flowContext: (client, given = {}) => ({ client, sampling: given.sampling ?? {}, attempt: given.attempt ?? 0, signal: given.signal ?? new AbortController().signal, ...lent }),
    evaluatorContext: (signal) => ({ signal: signal ?? new AbortController().signal, ...lent }),
  };
}
