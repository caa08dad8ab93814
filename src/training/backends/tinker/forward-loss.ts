/**
 * A loss without an update on Tinker (SFT's validation loss): the rows as cross_entropy Datums, sent as forward-only
 * forward_backward requests (the proto's `forward_only`, which replaced the old /forward route), the loss computed
 * here from the learner logprobs they return.
 */
import { LossConfigSchema, type BatchSequence } from "../../backend.js";
import { sendForwardBackward, wireDatums, type TrainingTarget } from "./forward-backward-step.js";
import { chunkDatums } from "../../../llm/tinker/request-chunks.js";
import { sequenceDatum } from "./scaled-advantages.js";

const CROSS_ENTROPY = LossConfigSchema.parse({ kind: "cross_entropy" });

/** Mean cross-entropy per trained token of `rows` under the current weights, and how many trained tokens there were. */
export async function forwardLoss(target: TrainingTarget, rows: readonly BatchSequence[]): Promise<{ loss: number; tokens: number }> {
  // Weights are the plain mask (scale 1): the loss is summed here, so nothing needs the server's scaling.
  const chunks = chunkDatums(
    wireDatums(target, rows.map((row) => sequenceDatum(row, CROSS_ENTROPY, 1))),
    target.config.limits,
  );
  let sum = 0;
  let tokens = 0;
  let row = 0;
  for (const data of chunks) {
    const result = await sendForwardBackward(target, { seqId: target.nextSeqId(), data, lossFn: "cross_entropy", lossFnConfig: {}, forwardOnly: true });
    for (const output of result.outputs) {
      const sequence = rows[row++]!;
      const logprobs = output.logprobs;
      if (!logprobs || logprobs.length !== sequence.tokens.length - 1) {
        throw new Error(`Tinker forward: datum ${row - 1} came back with ${logprobs?.length ?? 0} logprobs for ${sequence.tokens.length - 1} targets`);
      }
      // logprobs[t] is the learner's logprob of tokens[t + 1]; token 0 is never predicted.
      for (let position = 1; position < sequence.tokens.length; position++) {
        const weight = sequence.lossMask[position]!;
        sum -= weight * logprobs[position - 1]!;
        tokens += weight;
      }
    }
  }
  return { loss: tokens > 0 ? sum / tokens : Number.NaN, tokens };
}
