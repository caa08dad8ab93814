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
  capabilities: z.boolean().default(false).describe("print what each backend can do (losses, aggregations, merges, LoRA/full, sampling, KL, entropy selection, checkpoints, context) and exit"),
});
/** `rllm train`'s parsed flags. */
export type TrainFlags = z.infer<typeof TrainFlagsSchema>;
