/** `rllm export <run-dir>`: its help text and flag schema (for help); the export itself is in export.ts. */
import { z } from "zod";
import { AdvantageEstimatorSchema } from "../../training/advantages/index.js";
import { ExportFormatSchema } from "../../training/export/export-episodes.js";
import { defineCommand } from "../command-definition.js";
import { outFlag } from "../shared-flags.js";

/** `rllm export`'s flags. */
export const ExportFlagsSchema = z.object({
  format: ExportFormatSchema.describe("row format").meta({ value: "format" }),
  out: outFlag.describe("output file (default <run-dir>/export.<format extension>)").meta({ value: "file" }),
  estimator: AdvantageEstimatorSchema.default("grpo").describe("advantage estimator").meta({ value: "name" }),
  merge: z.enum(["prefix", "per_call"]).default("prefix").describe("prefix: merge turns whose prompt extends the previous one; per_call: one row per call").meta({ value: "mode" }),
  minGroupSize: z.coerce.number().int().positive().default(2).describe("drop groups with fewer trajectories").meta({ value: "n" }),
  dropUniform: z.boolean().default(false).describe("drop groups whose rewards are all equal"),
});
/** `rllm export`'s parsed flags. */
export type ExportFlags = z.infer<typeof ExportFlagsSchema>;

/** `rllm export`. */
export const exportCommand = defineCommand<typeof ExportFlagsSchema, [string]>({
  name: "export",
  description:
    "Export a run's episodes (<run-dir>/episodes.jsonl) as training rows built from the sampler's token ids:\n" +
    // The table's lines fit 80 columns: commander wraps a longer one without its indent.
    "  jsonl          one sequence per line: tokens, lossMask, samplerLogprobs,\n" +
    "                 reward, advantage\n" +
    "  verl-parquet   verl RL rows (data_source, prompt, ability, reward_model,\n" +
    "                 extra_info) + uid, prompt_ids, response_ids, response_mask,\n" +
    "                 rollout_log_probs, advantage, reward\n" +
    "  tinker-datums  one Tinker Datum per line (model_input, loss_fn_inputs:\n" +
    "                 target_tokens, logprobs, advantages, mask)\n" +
    "Trajectories without token ids, unscored ones and too-small groups are dropped and counted.",
  arguments: [{ name: "<run-dir>", description: "run directory written by rllm eval or rllm train" }],
  flags: ExportFlagsSchema,
  loadAction: async () => (await import("./export.js")).exportAction,
});
