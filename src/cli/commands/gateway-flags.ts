/** `rllm gateway`: the flag schema and its type, read by both the definition (gateway-command.ts) and the action. */
import { z } from "zod";
import { DEFAULT_MAX_TRACES_IN_MEMORY } from "../../gateway/trace-store.js";
import { listenFlags, samplingFlags } from "../shared-flags.js";

/** `rllm gateway`'s flags. */
export const GatewayFlagsSchema = z.object({
  upstream: z
    .string()
    .url()
    .describe("OpenAI-compatible server that returns token ids (vLLM, SGLang, rllm serve), e.g. http://127.0.0.1:8000/v1")
    .meta({ value: "url" }),
  port: listenFlags.port.default(9090),
  host: listenFlags.host,
  model: z.string().optional().describe("pin every call to this model name").meta({ value: "name" }),
  temperature: samplingFlags.temperature.describe("override every call's temperature"),
  topP: samplingFlags.topP.describe("override every call's top_p"),
  maxTokens: samplingFlags.maxTokens.describe("override every call's max_tokens"),
  traceFile: z.string().optional().describe("append every trace to this JSONL file (evicted traces are read back from it)").meta({ value: "path" }),
  maxTraces: z.coerce.number().int().positive().default(DEFAULT_MAX_TRACES_IN_MEMORY).describe("traces kept in memory across sessions; the oldest are evicted first").meta({ value: "n" }),
  apiKeyEnv: z.string().optional().describe("environment variable with the upstream API key (else the client's Authorization header is forwarded)").meta({ value: "VAR" }),
});
/** `rllm gateway`'s parsed flags. */
export type GatewayFlags = z.infer<typeof GatewayFlagsSchema>;
