/**
 * Sampling on Tinker: a sampling session per policy version (created after each save_weights_for_sampler, as the SDK
 * requires), and asample token in, token out with logprobs, seed, stop tokens and num_samples.
 */
import { z } from "zod";
import { awaitFuture, submitJson, type PollCounts, type PollOptions } from "./future-poller.js";
import type { TinkerHttpClient } from "./tinker-http-client.js";
import { decodeSampleResponse, type SampledSequence } from "./tinker-proto.js";

const SamplingSessionReplySchema = z.object({ sampling_session_id: z.string() });
const SampleReplySchema = z.object({
  sequences: z.array(z.object({ tokens: z.array(z.number().int()), logprobs: z.array(z.number()).nullish(), stop_reason: z.string() })),
});

/** One asample call's parameters. */
export interface SampleParameters {
  promptTokenIds: readonly number[];
  numSamples: number;
  maxTokens: number;
  temperature: number;
  topP?: number;
  stopTokenIds?: readonly number[];
  seed?: number;
}

/** A sampler bound to one policy version. */
export interface TinkerSampler {
  samplingSessionId: string;
  /** The tinker:// sampler path it serves, or the base model's name for version 0. */
  source: string;
  version: number;
  sample(parameters: SampleParameters): Promise<SampledSequence[]>;
}

/** Creates a sampling session on `source` (a base model name or a tinker:// sampler path). */
export async function createTinkerSampler(
  client: TinkerHttpClient,
  request: { sessionId: string; samplingSessionSeqId: number; source: string; version: number; poll?: PollOptions; counts?: PollCounts },
): Promise<TinkerSampler> {
  const isPath = request.source.startsWith("tinker://");
  const reply = await client.request("create_sampling_session", {
    json: {
      session_id: request.sessionId,
      sampling_session_seq_id: request.samplingSessionSeqId,
      ...(isPath ? { model_path: request.source } : { base_model: request.source }),
      type: "create_sampling_session",
    },
  });
  const { sampling_session_id: samplingSessionId } = SamplingSessionReplySchema.parse(reply.json);
  let seqId = 0;
  return {
    samplingSessionId,
    source: request.source,
    version: request.version,
    async sample(parameters) {
      const body = {
        sampling_session_id: samplingSessionId,
        seq_id: ++seqId,
        num_samples: parameters.numSamples,
        prompt: { chunks: [{ type: "encoded_text", tokens: parameters.promptTokenIds }] },
        sampling_params: {
          max_tokens: parameters.maxTokens,
          temperature: parameters.temperature,
          top_p: parameters.topP ?? 1,
          top_k: -1,
          ...(parameters.seed !== undefined ? { seed: parameters.seed } : {}),
          ...(parameters.stopTokenIds?.length ? { stop: parameters.stopTokenIds } : {}),
        },
        // SampleRequest's defaults, which the SDK sends (model_dump with exclude_unset=False).
        topk_prompt_logprobs: 0,
        topk_sample_logprobs: 0,
        prompt_alt_tokens_k: 0,
        type: "sample",
      };
      const result = await awaitFuture(client, () => submitJson(client, "asample", body), {
        acceptProto: true,
        requestType: "Sample",
        poll: request.poll,
        counts: request.counts,
      });
      if (result.proto) return decodeSampleResponse(result.proto).sequences;
      return SampleReplySchema.parse(result.json).sequences.map((sequence) => ({
        tokens: sequence.tokens,
        logprobs: sequence.logprobs ?? [],
        stopReason: sequence.stop_reason === "length" ? "length" : "stop",
      }));
    },
  };
}
