/**
 * One TrainBatch on Tinker: per substep, the rows become Datums with client-scaled advantages (scaled-advantages.ts),
 * split into requests at the server's limits, each sent as a protobuf forward_backward with the model's next seq_id
 * (in parallel only when the server allows it), then one optim_step with the Adam parameters. A target that speaks
 * the JSON wire (the Fireworks gateway) gets the same requests as JSON bodies (tinker-json-wire.ts).
 */
import { z } from "zod";
import type { BatchSequence, TrainBatch } from "../../backend.js";
import { awaitFuture, submitJson, UntypedFutureSchema, type PollCounts, type PollOptions } from "../../../llm/tinker/future-poller.js";
import { chunkDatums } from "../../../llm/tinker/request-chunks.js";
import { aggregationScales, lossFnConfig, sequenceDatum } from "./scaled-advantages.js";
import type { ClientConfig } from "../../../llm/tinker/client-config.js";
import type { TinkerHttpClient } from "../../../llm/tinker/tinker-http-client.js";
import { jsonForwardBackwardRequest } from "../../../llm/tinker/tinker-json-wire.js";
import { decodeForwardBackwardOutput, encodeDatum, encodeForwardBackwardRequest, type DatumInput, type ForwardBackwardResult } from "../../../llm/tinker/tinker-proto.js";

const OptimReplySchema = z.object({ metrics: z.record(z.string(), z.number()).nullish() }).passthrough();

/** The model a step trains and how its requests are numbered. */
export interface TrainingTarget {
  client: TinkerHttpClient;
  config: ClientConfig;
  modelId: string;
  /** The model's next seq_id; strictly increasing, never reused or skipped. */
  nextSeqId: () => number;
  poll?: PollOptions;
  counts?: PollCounts;
  /** Send forward_backward and forward as JSON (Tinker 0.23's wire, which Fireworks keeps) instead of protobuf. */
  jsonRequests?: boolean;
}

/** The rows' datums as the target's wire carries them: encoded once for protobuf (sizing and sending share the bytes). */
export function wireDatums(target: TrainingTarget, datums: readonly DatumInput[]): (DatumInput | Uint8Array)[] {
  return target.jsonRequests ? [...datums] : datums.map(encodeDatum);
}

/** Runs the batch; returns its metrics (loss, learner-vs-sampler mismatch on the first substep, requests sent). */
export async function forwardBackwardStep(target: TrainingTarget, batch: TrainBatch): Promise<Record<string, number>> {
  const substepSize = Math.ceil(batch.sequences.length / Math.max(1, batch.substeps));
  const metrics: Record<string, number> = { loss: 0, clipFraction: 0, gradNorm: 0, sequences: batch.sequences.length, trainedTokens: 0, requests: 0, substeps: 0 };
  for (let start = 0; start < batch.sequences.length; start += substepSize) {
    const rows = batch.sequences.slice(start, start + substepSize);
    const scales = aggregationScales(rows, batch.lossAggregation);
    const config = lossFnConfig(batch.loss, scales);
    // Encoded once: the same bytes size the chunks and go out in the requests.
    const chunks = chunkDatums(wireDatums(target, rows.map((row, index) => sequenceDatum(row, batch.loss, scales[index]!))), target.config.limits);
    const send = (data: (typeof chunks)[number], seqId: number) => sendForwardBackward(target, { seqId, data, lossFn: batch.loss.kind, lossFnConfig: config });
    let results: ForwardBackwardResult[];
    if (target.config.parallelChunks) {
      // seq_ids are taken in chunk order before any request leaves, so the server can order them however they arrive.
      const seqIds = chunks.map(() => target.nextSeqId());
      results = await Promise.all(chunks.map((chunk, index) => send(chunk, seqIds[index]!)));
    } else {
      results = [];
      for (const chunk of chunks) results.push(await send(chunk, target.nextSeqId()));
    }
    const { optimizer } = batch;
    const optimBody = {
      model_id: target.modelId,
      seq_id: target.nextSeqId(),
      adam_params: {
        learning_rate: optimizer.learningRate,
        beta1: optimizer.beta1,
        beta2: optimizer.beta2,
        eps: optimizer.epsilon,
        weight_decay: optimizer.weightDecay,
        grad_clip_norm: optimizer.gradClipNorm ?? 0,
      },
      type: "optim_step",
    };
    const optimReply = OptimReplySchema.parse((await awaitFuture(target.client, () => submitJson(target.client, "optim_step", optimBody), { poll: target.poll, counts: target.counts })).json ?? {});
    for (const result of results) {
      metrics.loss! += result.metrics["loss:sum"] ?? 0;
      metrics.clipFraction! += (result.metrics["clip_fraction:mean"] ?? 0) / results.length;
    }
    metrics.gradNorm = Math.max(metrics.gradNorm!, optimReply.metrics?.grad_norm ?? 0);
    metrics.requests! += chunks.length + 1;
    metrics.substeps! += 1;
    metrics.trainedTokens! += rows.reduce((sum, row) => sum + row.lossMask.slice(1).reduce((a, b) => a + b, 0), 0);
    // Only the first substep runs before any update of this step, so its mismatch is the sampler's.
    if (start === 0) Object.assign(metrics, logprobMismatch(rows, results.flatMap((result) => result.outputs)));
  }
  metrics.loss! /= Math.max(1, metrics.substeps!);
  metrics.clipFraction! /= Math.max(1, metrics.substeps!);
  return metrics;
}

/** One forward_backward request (forward only when `forwardOnly`) of already encoded Datums, awaited to its output. */
export function sendForwardBackward(
  target: TrainingTarget,
  request: { seqId: number; data: readonly (DatumInput | Uint8Array)[]; lossFn: string; lossFnConfig: Record<string, number>; forwardOnly?: boolean },
): Promise<ForwardBackwardResult> {
  return awaitFuture(
    target.client,
    async () => {
      if (target.jsonRequests) {
        // wireDatums leaves datums unencoded on the JSON wire.
        const data = request.data.map((datum) => {
          if (datum instanceof Uint8Array) throw new Error("forward_backward on the JSON wire: a datum came already encoded as protobuf");
          return datum;
        });
        const { route, body } = jsonForwardBackwardRequest({ modelId: target.modelId, ...request, data });
        return UntypedFutureSchema.parse((await target.client.request(route, { json: body })).json).request_id;
      }
      const body = encodeForwardBackwardRequest({ modelId: target.modelId, ...request });
      const reply = await target.client.request("forward_backward", { proto: body, compress: target.config.compress });
      return UntypedFutureSchema.parse(reply.json).request_id;
    },
    // The JSON wire asks for JSON results too: the Fireworks SDK decodes binary results only where negotiated.
    { acceptProto: !target.jsonRequests, requestType: "ForwardBackward", poll: target.poll, counts: target.counts },
  ).then((reply) => (reply.proto ? decodeForwardBackwardOutput(reply.proto) : jsonOutput(reply.json)));
}

const JsonOutputSchema = z.object({
  loss_fn_output_type: z.string().default(""),
  loss_fn_outputs: z.array(z.record(z.string(), z.object({ data: z.array(z.number()) }))),
  metrics: z.record(z.string(), z.number()).default({}),
});

// The JSON form of ForwardBackwardOutput, for a server that answers JSON.
function jsonOutput(json: unknown): ForwardBackwardResult {
  const parsed = JsonOutputSchema.parse(json);
  return {
    lossFnOutputType: parsed.loss_fn_output_type,
    outputs: parsed.loss_fn_outputs.map((output) => Object.fromEntries(Object.entries(output).map(([name, tensor]) => [name, tensor.data]))),
    metrics: parsed.metrics,
  };
}

/** Mean and max |learner − sampler| and the mean (sampler − learner) over trained tokens; learner logprobs are target-aligned. */
function logprobMismatch(rows: readonly BatchSequence[], outputs: readonly Record<string, number[]>[]): Record<string, number> {
  let absolute = 0;
  let signed = 0;
  let max = 0;
  let count = 0;
  rows.forEach((row, index) => {
    const learner = outputs[index]?.logprobs;
    if (!learner) return;
    for (let token = 1; token < row.tokens.length; token++) {
      const weight = row.lossMask[token]!;
      if (weight === 0) continue;
      const difference = row.samplerLogprobs[token]! - learner[token - 1]!;
      absolute += Math.abs(difference) * weight;
      signed += difference * weight;
      max = Math.max(max, Math.abs(difference));
      count += weight;
    }
  });
  const denominator = Math.max(count, 1);
  return { logprobMismatchMean: absolute / denominator, logprobMismatchMax: max, samplerLearnerKl: signed / denominator };
}
