/** `rllm serve`: the flag schema and its type, read by both the definition (serve-command.ts) and the action. */
import { z } from "zod";
import { SelectionMethodSchema } from "../../tournament/selection-methods.js";
import { endpointFlags, listenFlags, localModelFlags, seedFlag } from "../shared-flags.js";

/** `rllm serve`'s flags. */
export const ServeFlagsSchema = z.object({
  rerank: SelectionMethodSchema.optional().describe("rerank with this selection method").meta({ value: "method" }),
  upstream: z.string().url().optional().describe("the OpenAI-compatible endpoint that generates and judges, e.g. http://localhost:8000/v1").meta({ value: "url" }),
  model: endpointFlags.model.describe("`tiny`: serve the embedded tiny model; a pulled model (rllm models list): serve it with llama.cpp; with --rerank: the model name sent upstream"),
  ...localModelFlags,
  n: z.coerce.number().int().min(1).default(8).describe("candidates sampled per request").meta({ flags: "-n <count>" }),
  budget: z.coerce.number().positive().default(2).describe("judge calls as a multiple of n").meta({ value: "m" }),
  // 256: 16 candidates' every pair in both orders (240) fits, the default 8 at 2×n (16) sits far below, and no caller
  // can make one request cost thousands of judge calls.
  maxCalls: z.coerce
    .number()
    .int()
    .positive()
    .default(256)
    .describe("with --rerank: the most judge calls one request may spend; a request's rerank.max_calls is cut to it, and to n·(n−1) (every pair in both orders)")
    .meta({ value: "count" }),
  judgeKind: z.enum(["math", "code"]).default("math").describe("judge prompt: math (final answer only) or code (correct and robust)").meta({ value: "kind" }),
  port: listenFlags.port.default(8080),
  host: listenFlags.host,
  seed: seedFlag.default(0).describe("base seed of the pairings"),
  apiKeyEnv: endpointFlags.apiKeyEnv.default("OPENAI_API_KEY").describe("environment variable holding the upstream API key"),
  checkpoint: z.string().optional().describe("with --model tiny or --tinker: this tiny-model checkpoint instead of the shipped one").meta({ value: "dir" }),
  tinker: z.boolean().default(false).describe("development tool: a local Tinker server (Tinker's HTTP/protobuf API) training the embedded tiny model (full weights stand in for LoRA), or --base-model"),
  baseModel: z.string().optional().describe("with --tinker: train a pulled GGUF model (rllm models list) with LoRA in a torch worker, sampled by llama.cpp").meta({ value: "name" }),
  python: z.string().optional().describe("with --tinker --base-model: a Python with torch, transformers, peft and gguf (default $RLLM_TORCH_PYTHON, else python3; scripts/python-env.sh ml builds one)").meta({ value: "command" }),
  faults: z.string().optional().describe("with --tinker: inject faults, e.g. try_again=2,timeouts=1,lost=1,rate_limit=2,unavailable=1,error=user,slow_poll_ms=50 (or RLLM_TINKER_FAULTS)").meta({ value: "list" }),
  maxChunkDatums: z.coerce.number().int().positive().default(1024).describe("with --tinker: datums per forward_backward request (client config)").meta({ value: "n" }),
  maxChunkBytes: z.coerce.number().int().positive().default(5_000_000).describe("with --tinker: bytes per forward_backward request (client config)").meta({ value: "n" }),
  zstd: z.boolean().default(false).describe("with --tinker: ask clients to zstd-compress forward_backward bodies"),
});
/** `rllm serve`'s parsed flags. */
export type ServeFlags = z.infer<typeof ServeFlagsSchema>;
