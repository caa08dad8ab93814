/** `rllm sft <dataset>`: its help text and arguments (light, for help; the flags are in sft-flags.ts); the training itself is in sft.ts. */
import { z } from "zod";
import { defineCommand } from "../command-definition.js";
import { SftFlagsSchema } from "./sft-flags.js";

/** `rllm sft`. */
export const sftCommand = defineCommand({
  name: "sft",
  description:
    "Supervised fine-tuning on a registered or curated dataset ({id, messages} rows): cross-entropy on the assistant's " +
    "tokens with the prompt masked, through the training backend. Writes <out>/metrics.jsonl (loss, tokens, val loss) " +
    "and <out>/checkpoints/step-<n>/, which `rllm serve --model tiny --checkpoint` serves (local backend); on Tinker it " +
    "prints the checkpoint's tinker:// sampler path, for `rllm eval --backend tinker --model`.",
  arguments: z.tuple([z.string().describe("a dataset made by rllm dataset from-eval or rllm dataset register").meta({ value: "dataset" })]),
  flags: SftFlagsSchema,
  loadAction: async () => (await import("./sft.js")).sftAction,
});
