/** `rllm sft <dataset>`: the flag schema and its type, read by both the definition (sft-command.ts) and the action. */
import { z } from "zod";
import { LearningRateScheduleSchema } from "../../training/sft/learning-rate-schedule.js";
import { TokenizeMethodSchema } from "../../training/sft/tokenize-sft-row.js";
import { outFlag, seedFlag } from "../shared-flags.js";

/** `rllm sft`'s flags. */
export const SftFlagsSchema = z.object({
  backend: z.string().default("local").describe("training backend (local: the embedded tiny model; tinker: Tinker's API; fireworks: a Fireworks trainer job)").meta({ value: "name" }),
  checkpoint: z.string().optional().describe("--backend local: starting weights, a tiny-model checkpoint folder (default: the shipped one)").meta({ value: "dir" }),
  model: z.string().optional().describe("--backend tinker|fireworks: the base model to fine-tune (tinker's default: the server's only model; fireworks needs one)").meta({ value: "name" }),
  loraRank: z.coerce.number().int().positive().optional().describe("--backend tinker|fireworks: LoRA rank (default 32)").meta({ value: "r" }),
  baseUrl: z.string().url().optional().describe("--backend tinker|fireworks: the service URL (default TINKER_BASE_URL or FIREWORKS_BASE_URL, else the hosted service)").meta({ value: "url" }),
  tokenizer: z.string().optional().describe("--backend tinker|fireworks: a directory with tokenizer.json and tokenizer_config.json").meta({ value: "dir" }),
  split: z.string().default("train").describe("dataset split to train on").meta({ value: "name" }),
  tokenizeMethod: TokenizeMethodSchema.optional()
    .describe("sampled (the sampler's token ids; default when every row has them), hf_template (the model's chat template), cumulative (every assistant turn)")
    .meta({ value: "method" }),
  lr: z.coerce.number().positive().default(1e-4).describe("peak learning rate (Adam)").meta({ value: "rate" }),
  lrSchedule: LearningRateScheduleSchema.default("cosine").describe("after warmup: constant, linear or cosine decay to 0").meta({ value: "schedule" }),
  warmupSteps: z.coerce.number().int().nonnegative().default(0).describe("steps of linear warmup").meta({ value: "n" }),
  batchSize: z.coerce.number().int().positive().default(32).describe("rows per optimizer step").meta({ value: "n" }),
  epochs: z.coerce.number().int().positive().default(1).describe("passes over the training rows").meta({ value: "n" }),
  maxLength: z.coerce.number().int().positive().optional().describe("drop (and count) rows with a sequence longer than this (default: the model's context)").meta({ value: "tokens" }),
  valFraction: z.coerce.number().min(0).max(1).default(0).describe("share of training rows held out for validation loss when the dataset has no val split").meta({ value: "fraction" }),
  valEvery: z.coerce.number().int().nonnegative().default(10).describe("validation loss every n steps (also at the start and the end)").meta({ value: "n" }),
  saveEvery: z.coerce.number().int().nonnegative().default(50).describe("checkpoint every n steps (also at the end)").meta({ value: "n" }),
  seed: seedFlag.default(0).describe("seeds the row order and the validation hold-out"),
  out: outFlag.describe("run directory (default runs/sft-<dataset>-<timestamp>)"),
  resume: z.boolean().default(false).describe("continue the run in --out from its last checkpoint; refuses if the flags differ"),
});
/** `rllm sft`'s parsed flags. */
export type SftFlags = z.infer<typeof SftFlagsSchema>;
