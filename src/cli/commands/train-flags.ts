/** `rllm train <cookbook>`: the flag schema and its type, read by both the definition (train-command.ts) and the action. */
import { z } from "zod";
import { trainingBackends } from "../../training/backends/training-backends.js";
import { outFlag, sandboxFlags } from "../shared-flags.js";

/** `rllm train`'s flags. */
export const TrainFlagsSchema = z.object({
  backend: z.string().default("local").describe(`training backend (${trainingBackends.names().join(", ")})`).meta({ value: "name" }),
  config: z
    .string()
    .optional()
    .describe(
      "training config (strict JSON; unknown keys are errors); default: the cookbook's shipped " +
        "cookbooks/<name>/train.json when it has one (arith does), else the built-in defaults",
    )
    .meta({ value: "train.json" }),
  steps: z.coerce.number().int().positive().optional().describe("policy updates (overrides the config)").meta({ value: "n" }),
  maxInfraErrorRate: z.coerce
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe("stop when more than this share of a step's rollouts are infrastructure errors (overrides the config; default 0.05)")
    .meta({ value: "rate" }),
  out: outFlag.describe("run directory (overrides the config; default runs/train-<cookbook>-<timestamp>)"),
  checkpoint: z.string().optional().describe("starting weights for --backend local: a tiny-model checkpoint directory (default: the shipped model)").meta({ value: "dir" }),
  resume: z.boolean().default(false).describe("continue the run in --out from its last checkpoint; refuses if the config differs"),
  model: z.string().optional().describe("--backend tinker|fireworks: the base model to train (tinker's default: the server's only model; fireworks needs one, e.g. accounts/fireworks/models/qwen3-8b)").meta({ value: "name" }),
  loraRank: z.coerce.number().int().positive().optional().describe("--backend tinker|fireworks: LoRA rank (default 32)").meta({ value: "r" }),
  baseUrl: z.string().url().optional().describe("--backend tinker|fireworks: the service URL (default TINKER_BASE_URL or FIREWORKS_BASE_URL, else the hosted service)").meta({ value: "url" }),
  tokenizer: z.string().optional().describe("--backend tinker|fireworks: a directory with tokenizer.json and tokenizer_config.json (default: the Hugging Face cache or hub)").meta({ value: "dir" }),
  ...sandboxFlags,
  async: z.boolean().default(false).describe("sample while updates run (asynchronous, off-policy): --max-staleness 1 unless given"),
  maxStaleness: z.coerce
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe("policy versions a rollout may lag the trainer by; 0 is the synchronous loop (overrides the config's async.maxStaleness)")
    .meta({ value: "k" }),
  partialRollouts: z.boolean().default(false).describe("with --async: an episode in flight across an update samples its later calls from the new weights"),
  staleGroups: z.enum(["drop", "reweight"]).optional().describe("a rollout group past --max-staleness: drop it, or weigh it by truncated importance ratios (needs --tis-cap)").meta({ value: "drop|reweight" }),
  tisCap: z.coerce.number().gt(0).optional().describe("truncated importance sampling: weigh each token by min(trainer/sampler probability ratio, cap) (overrides loss.tisCap)").meta({ value: "c" }),
  maskTruncated: z.boolean().default(false).describe("train nothing on a rollout whose last call hit the token limit (it still counts in its group's advantages)"),
  capabilities: z.boolean().default(false).describe("print what each backend can do (losses, aggregations, merges, LoRA/full, sampling, KL, entropy selection, checkpoints, context) and exit"),
});
/** `rllm train`'s parsed flags. */
export type TrainFlags = z.infer<typeof TrainFlagsSchema>;
