/** `rllm rerank`: its help text and arguments (light, for help; the flags are in rerank-flags.ts); the tournaments run in rerank.ts. */
import { defineCommand, noArguments } from "../command-definition.js";
import { RerankFlagsSchema } from "./rerank-flags.js";

/** `rllm rerank`. */
export const rerankCommand = defineCommand({
  name: "rerank",
  description:
    "Rerank candidates produced elsewhere: rows {id, problem, candidates: [text | {text, isCorrect?, answer?}], maxCalls?} → one line per row\n" +
    "and method {id, method, chosenIndex, scores, judgeCalls[, isCorrect]}. With isCorrect labels, prints pass@1, pass@N and rerank@1.\n" +
    "The judge is the model at --base-url; without it a pulled --model or a --model-file served here by llama.cpp, else the embedded tiny\n" +
    "model. --method majority votes on each candidate's answer,\n" +
    "else on the final answer the math normaliser extracts from its text (code candidates need an answer); it starts no judge.",
  arguments: noArguments,
  flags: RerankFlagsSchema,
  loadAction: async () => (await import("./rerank.js")).rerankAction,
});
