/** `rllm export <run-dir>`: its help text and arguments (light, for help; the flags are in export-flags.ts); the export itself is in export.ts. */
import { z } from "zod";
import { defineCommand } from "../command-definition.js";
import { ExportFlagsSchema } from "./export-flags.js";

/** `rllm export`. */
export const exportCommand = defineCommand({
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
  arguments: z.tuple([z.string().describe("run directory written by rllm eval or rllm train").meta({ value: "run-dir" })]),
  flags: ExportFlagsSchema,
  loadAction: async () => (await import("./export.js")).exportAction,
});
