/** The local backend's sampler: an OpenAI-compatible server on the current weights, and token-in/token-out sampling through it. */
import { z } from "zod";
import type { ModelWeights } from "../../models/tiny/model-weights.js";
import type { SampleRequest, SampleResult } from "../backend.js";

/** A running OpenAI-compatible server on the current weights. */
export interface PolicySampler {
  /** OpenAI base URL, e.g. http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  model: string;
  /** Serves `weights` as `version` from now on (the newest version; earlier ones stay until `retain` lets them go). */
  update(weights: ModelWeights, version?: number): Promise<void>;
  /** Keeps serving only these versions and the newest. */
  retain?(versions: readonly number[]): Promise<void>;
  close(): Promise<void>;
}

// Only what sampling reads of a vLLM-style /v1/completions reply.
const CompletionsReplySchema = z.object({
  choices: z.array(
    z.object({
      index: z.number().int().default(0),
      token_ids: z.array(z.number().int()),
      finish_reason: z.string().nullish(),
      logprobs: z.object({ token_logprobs: z.array(z.number()) }),
    }),
  ),
});

/** Token-in/token-out sampling through the sampler's /v1/completions (prompt as token ids, vLLM style). */
export async function sampleCompletions(sampler: PolicySampler, request: SampleRequest, version: number): Promise<SampleResult> {
  const response = await fetch(`${sampler.baseUrl}/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model: sampler.model,
      prompt: request.promptTokenIds,
      n: request.n,
      max_tokens: request.maxTokens,
      temperature: request.temperature,
      ...(request.topP !== undefined ? { top_p: request.topP } : {}),
      ...(request.seed !== undefined ? { seed: request.seed } : {}),
      logprobs: 1,
      return_token_ids: true,
    }),
  });
  if (!response.ok) throw new Error(`local sampler: HTTP ${response.status}: ${await response.text()}`);
  const reply = CompletionsReplySchema.parse(await response.json());
  return {
    policyVersion: version,
    completions: [...reply.choices]
      .sort((a, b) => a.index - b.index)
      .map((choice) => ({
        tokenIds: choice.token_ids,
        logprobs: choice.logprobs.token_logprobs,
        stopReason: choice.finish_reason === "length" ? "length" : "stop",
      })),
  };
}
