/** `rllm serve`: its help text and arguments (light, for help; the flags are in serve-flags.ts); the servers are started by serve.ts. */
import { defineCommand, noArguments } from "../command-definition.js";
import { ServeFlagsSchema } from "./serve-flags.js";

/** `rllm serve`. */
export const serveCommand = defineCommand({
  name: "serve",
  description:
    "Serve an OpenAI-compatible /v1/chat/completions. With --model tiny: the embedded tiny model (also /v1/completions,\n" +
    "/tokenize, /detokenize, vLLM's return_token_ids). With --model <pulled name> or --model-file <path.gguf>: a real model on\n" +
    "llama.cpp, same routes (rllm models pull smollm2-135m first). With --rerank: sample -n candidates from --upstream, run the tournament\n" +
    "with the same model as judge, answer with the winner (scores in the `rerank` field and the x-rllm-rerank header).\n" +
    "With --tinker (a development tool): a local Tinker server on the tiny model, for `rllm train --backend tinker --base-url`.",
  arguments: noArguments,
  flags: ServeFlagsSchema,
  loadAction: async () => (await import("./serve.js")).serveAction,
});
