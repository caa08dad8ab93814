/** `rllm train <cookbook>`: its help text and arguments (light, for help; the flags are in train-flags.ts); the run itself is in train.ts. */
import { z } from "zod";
import { defineCommand } from "../command-definition.js";
import { TrainFlagsSchema } from "./train-flags.js";

/** `rllm train`. */
export const trainCommand = defineCommand({
  name: "train",
  description:
    "Train the policy on a cookbook's benchmark: sample train tasks → rollouts (traced through the gateway) → score →\n" +
    "group → advantages → update → publish, validating pass@1 on the test split. Writes <out>/metrics.jsonl (one line\n" +
    "per step and per validation), <out>/steps/<n>/episodes.jsonl, <out>/checkpoints/. With joint.enabled the policy also\n" +
    "judges pairs of its own solutions (V1-PairRL).",
  arguments: z.tuple([
    z.string().optional().describe("cookbook name (its benchmark supplies the train and test splits) or module path; required unless --capabilities").meta({ value: "cookbook" }),
  ]),
  flags: TrainFlagsSchema,
  loadAction: async () => (await import("./train.js")).trainAction,
});
