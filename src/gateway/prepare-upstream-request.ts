/** Rewrites a client's chat or completion request before it goes upstream: token capture on, the run's model and sampling pinned. */
import type { SamplingParams } from "../core/llm-client.js";
import type { TracedEndpoint } from "./trace-record.js";

export interface RequestPolicy {
  /** Replaces the client's `model` when set. */
  model?: string;
  /** The run's sampling parameters; they override the client's (the run decides how the policy samples). */
  sampling?: SamplingParams;
}

/** The upstream body, and which capture fields the gateway added (so they are stripped from the reply). */
export interface PreparedRequest {
  body: Record<string, unknown>;
  addedLogprobs: boolean;
}

/**
 * Adds `logprobs` (chat: `true`; legacy completions: the number of alternatives, at least 0 for the sampled token's
 * own logprob) and `return_token_ids`, pins the model, and applies the run's sampling parameters.
 */
export function prepareUpstreamRequest(clientBody: Record<string, unknown>, policy: RequestPolicy, endpoint: TracedEndpoint = "chat/completions"): PreparedRequest {
  const body: Record<string, unknown> = { ...clientBody };
  const addedLogprobs = endpoint === "completions" ? typeof body.logprobs !== "number" : body.logprobs !== true;
  if (addedLogprobs) body.logprobs = endpoint === "completions" ? 0 : true;
  body.return_token_ids = true;
  if (policy.model !== undefined) body.model = policy.model;
  const sampling = policy.sampling ?? {};
  if (sampling.temperature !== undefined) body.temperature = sampling.temperature;
  if (sampling.topP !== undefined) body.top_p = sampling.topP;
  if (sampling.maxTokens !== undefined) {
    body.max_tokens = sampling.maxTokens;
    delete body.max_completion_tokens;
  }
  if (sampling.seed !== undefined) body.seed = sampling.seed;
  if (sampling.stop !== undefined) body.stop = sampling.stop;
  return { body, addedLogprobs };
}
