/**
 * The project's policy losses and truncated importance weights on the cases given as JSON on stdin, printed as JSON:
 * what integrations/verl/tests/test_policy_losses.py compares with verl 0.9.1's core_algos and rollout_corr_helper.
 * Run as `node --import tsx test/training/backends/policy-loss-values.ts`. The matrices are per target position (no
 * never-predicted token 0), as verl's response tensors are.
 */
import * as tf from "@tensorflow/tfjs";
import { z } from "zod";
import { createRng } from "../../../src/core/random.js";
import { LossAggregationSchema, LossConfigSchema } from "../../../src/training/backend.js";
import { importanceWeights } from "../../../src/training/backends/importance-weights.js";
import { policyLoss } from "../../../src/training/backends/policy-loss.js";

const Matrix = z.array(z.array(z.number()));
const InputSchema = z.object({
  losses: z.array(
    z.object({
      loss: z.record(z.string(), z.unknown()),
      aggregation: LossAggregationSchema,
      oldLogprobs: Matrix,
      logprobs: Matrix,
      advantages: z.array(z.number()),
      mask: Matrix,
      importanceWeights: Matrix.optional(),
    }),
  ),
  weights: z.array(z.object({ trainer: Matrix, sampler: Matrix, mask: Matrix, cap: z.number(), level: z.enum(["token", "sequence"]) })),
});

// The tensors' float32 is what the local backend trains with; tfjs on its CPU backend computes the same ops as wasm.
await tf.setBackend("cpu");
const input = InputSchema.parse(JSON.parse(await new Response(process.stdin as unknown as ReadableStream).text()));
const losses = input.losses.map((testCase) => {
  const config = LossConfigSchema.parse(testCase.loss);
  const constants = {
    samplerLogprobs: tf.tensor2d(testCase.oldLogprobs),
    mask: tf.tensor2d(testCase.mask),
    advantages: tf.tensor2d(testCase.advantages.map((advantage) => [advantage])),
    ...(testCase.importanceWeights ? { importanceWeights: tf.tensor2d(testCase.importanceWeights) } : {}),
    random: createRng(1),
  };
  const lossOf = (learner: tf.Tensor) => policyLoss({ ...constants, learnerLogprobs: learner as tf.Tensor2D }, config, testCase.aggregation).loss;
  const learner = tf.tensor2d(testCase.logprobs);
  const { value, grad } = tf.valueAndGrad(lossOf)(learner);
  return { loss: value.dataSync()[0]!, gradient: grad.arraySync() };
});
// importanceWeights aligns with whole sequences, whose token 0 is never predicted: a leading 0 column stands for it.
const withTokenZero = (matrix: number[][]) => matrix.map((row) => [0, ...row]);
const weights = input.weights.map((testCase) => {
  const result = importanceWeights(withTokenZero(testCase.trainer), withTokenZero(testCase.sampler), withTokenZero(testCase.mask), testCase.cap, testCase.level);
  return { ...result, weights: result.weights.map((row) => row.slice(1)) };
});
process.stdout.write(JSON.stringify({ losses, weights }));
